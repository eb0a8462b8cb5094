/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout, as the
 * MCP SDK's StdioServerTransport speaks it, except that no input can close it.
 *
 * The SDK's transport closes itself when one message passes its 10 MB buffer,
 * and the process (with its Chrome) then lives on reading nothing: every later
 * call times out. Here a message over the limit is skipped up to its newline
 * and answered with a JSON-RPC error that names the limit (with the request's
 * id when it can be found), a line that is not JSON gets a parse error, and
 * reading goes on. The transport closes only when its input ends or fails,
 * and then says so (onclose), so that the server exits instead of staying
 * alive without a client.
 */
import type {Readable, Writable} from 'node:stream';

import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {type JSONRPCMessage, JSONRPCMessageSchema} from '@modelcontextprotocol/sdk/types.js';

import {debug} from '../util/logger.js';
import {writeInPieces} from '../util/pieces.js';

/** The largest message read, as the SDK's own limit (and so what clients already expect). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC error codes this transport answers with. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** How much of a skipped message's start and end is kept to find its id. */
const HINT_BYTES = 4096;

interface Skipped {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #chunks: Buffer[] = [];
  #size = 0;
  #skipped: Skipped | undefined;
  #started = false;
  #closed = false;

  constructor(
    readonly input: Readable = process.stdin,
    readonly output: Writable = process.stdout,
    readonly maxMessageBytes: number = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.#started) {
      throw new Error('The stdio transport is already started.');
    }
    this.#started = true;
    this.input.on('data', this.#onData);
    this.input.on('error', this.#onInputError);
    this.input.on('end', this.#onInputEnd);
    this.input.on('close', this.#onInputEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise(resolve => {
      // In pieces: one write of a large answer is one block of its size in the C allocator (util/pieces.ts).
      if (writeInPieces(this.output, `${JSON.stringify(message)}\n`)) {
        resolve();
      } else {
        this.output.once('drain', resolve);
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    this.input.off('data', this.#onData);
    this.input.off('error', this.#onInputError);
    this.input.off('end', this.#onInputEnd);
    this.input.off('close', this.#onInputEnd);
    this.input.pause();
    this.#chunks = [];
    this.#skipped = undefined;
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) {
        return;
      }
      this.#endLine();
      start = newline + 1;
    }
  };

  readonly #onInputError = (error: Error): void => {
    this.onerror?.(error);
    void this.close();
  };

  readonly #onInputEnd = (): void => {
    void this.close();
  };

  /** Adds a piece of the current line, switching to skipping once it passes the limit. */
  #take(piece: Buffer): void {
    if (this.#skipped) {
      this.#skipped.bytes += piece.length;
      this.#skipped.tail = lastBytes(Buffer.concat([this.#skipped.tail, piece]), HINT_BYTES);
      return;
    }
    if (this.#size + piece.length <= this.maxMessageBytes) {
      this.#chunks.push(piece);
      this.#size += piece.length;
      return;
    }
    const whole = Buffer.concat([...this.#chunks, piece]);
    this.#skipped = {
      bytes: whole.length,
      head: Buffer.from(whole.subarray(0, HINT_BYTES)),
      tail: lastBytes(whole, HINT_BYTES),
    };
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skipped = this.#skipped;
    if (skipped) {
      this.#skipped = undefined;
      this.#refuseOversized(skipped);
      return;
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() !== '') {
      this.#receive(line);
    }
  }

  #receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#answerError(
        null,
        PARSE_ERROR,
        'Parse error: the line is not valid JSON. Send one JSON-RPC message per line.',
      );
      this.onerror?.(new Error(`A line of ${line.length} characters on stdin is not valid JSON.`));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const {id, method} = (typeof value === 'object' && value !== null ? value : {}) as {id?: unknown; method?: unknown};
    if (typeof method === 'string' && (typeof id === 'number' || typeof id === 'string')) {
      this.#answerError(
        id,
        INVALID_REQUEST,
        `Invalid request: ${parsed.error.issues[0]?.message ?? 'not JSON-RPC 2.0'}.`,
      );
    }
    this.onerror?.(new Error(`Not a JSON-RPC message on stdin: ${parsed.error.message}`));
  }

  /** Answers a message over the limit (a request, when its id can be found), then reads on. */
  #refuseOversized({bytes, head, tail}: Skipped): void {
    const message = `Message too large: ${bytes} bytes, over the server's limit of ${sizeText(this.maxMessageBytes)} for one message; it was not read. Send smaller arguments: large data belongs in files (upload_file, filePath and bodyFilePath parameters).`;
    const hint = requestHint(head.toString('utf8'), tail.toString('utf8'));
    debug(`skipped a stdin message of ${bytes} bytes (id ${hint.id ?? 'unknown'})`);
    if (hint.request) {
      this.#answerError(hint.id ?? null, INVALID_REQUEST, message, {maxBytes: this.maxMessageBytes, bytes});
    }
    this.onerror?.(new Error(message));
  }

  #answerError(id: number | string | null, code: number, message: string, data?: Record<string, number>): void {
    const error = {code, message, ...(data ? {data} : {})};
    // An error response may carry a null id (JSON-RPC 2.0, 5.1); the SDK's type does not allow it.
    void this.send({jsonrpc: '2.0', id, error} as unknown as JSONRPCMessage);
  }
}

/**
 * What the start and the end of a message that was not read tell: whether it
 * is a request (a top-level "method"), and its id. The start is read as JSON
 * up to where it was cut (keys of the top-level object: clients that write
 * the id first); the end is matched for a last "id" member (the SDK's clients
 * write it last).
 */
export function requestHint(head: string, tail: string): {request: boolean; id?: number | string} {
  const start = topLevelMembers(head);
  const endId = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*\r?$/.exec(tail)?.[1];
  const endMethod =
    /[,{]\s*"method"\s*:\s*"(?:[^"\\]|\\.)*"\s*(?:,\s*"(?:jsonrpc|id)"\s*:\s*(?:"[^"\\]*"|-?\d+)\s*)*\}\s*\r?$/.test(
      tail,
    );
  const rawId = start.id ?? endId;
  const id = rawId === undefined ? undefined : (JSON.parse(rawId) as number | string);
  return {request: start.method || endMethod, ...(id === undefined ? {} : {id})};
}

/** The top-level "id" (raw JSON) and whether a top-level "method" key appears, in a JSON object's beginning. */
function topLevelMembers(text: string): {id?: string; method: boolean} {
  const found: {id?: string; method: boolean} = {method: false};
  let depth = 0;
  let i = 0;
  let expectKey = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) {
        break;
      }
      if (depth === 1 && expectKey) {
        const key = text.slice(i + 1, end);
        const value = /^\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")?/.exec(text.slice(end + 1));
        found.method ||= key === 'method';
        if (key === 'id' && value?.[1] !== undefined) {
          found.id = value[1];
        }
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
    i++;
  }
  return found;
}

/** Index of the quote that ends the string starting at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
    } else if (text[i] === '"') {
      return i;
    }
  }
  return -1;
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return Buffer.from(buffer.length > count ? buffer.subarray(buffer.length - count) : buffer);
}

/** "10485760 bytes (10 MB)": the exact limit, and what it is in megabytes when it is that large. */
function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb < 1 ? `${bytes} bytes` : `${bytes} bytes (${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB)`;
}
