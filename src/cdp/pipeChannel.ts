/**
 * Browser-level commands over the launched Chrome's debugging pipe
 * (`--remote-debugging-pipe`: NUL-terminated JSON messages). Chrome offers
 * some domains (PWA) only there, not over the WebSocket; everything else
 * goes over the WebSocket connection. Only commands, no sessions or events.
 */
import type {Readable, Writable} from 'node:stream';

import type {CdpCommand, CdpParams, CdpResult} from '../../protocol/index.js';
import {CdpProtocolError, CdpTimeoutError, ConnectionClosedError} from './errors.js';

/** Bound on one command over the pipe. */
export const PIPE_COMMAND_TIMEOUT_MS = 30_000;
/**
 * Pipe message ids start far from anything chrome-launcher could have used,
 * so that an answer is never mistaken for another's.
 */
const FIRST_ID = 1_000_000;

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class PipeChannel {
  readonly #pending = new Map<number, Pending>();
  #nextId = FIRST_ID;
  #buffer = '';
  #closed = false;

  constructor(
    readonly incoming: Readable,
    readonly outgoing: Writable,
  ) {
    incoming.on('data', (chunk: Buffer) => this.#receive(chunk.toString('utf8')));
    const close = () => this.#close();
    incoming.once('close', close);
    incoming.once('error', close);
    outgoing.once('error', close);
  }

  #receive(text: string): void {
    this.#buffer += text;
    for (let end = this.#buffer.indexOf('\0'); end !== -1; end = this.#buffer.indexOf('\0')) {
      const message = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      let parsed: {id?: number; result?: unknown; error?: {code?: number; message?: string; data?: string}};
      try {
        parsed = JSON.parse(message) as typeof parsed;
      } catch {
        continue;
      }
      const pending = parsed.id === undefined ? undefined : this.#pending.get(parsed.id);
      if (!pending || parsed.id === undefined) {
        continue;
      }
      this.#pending.delete(parsed.id);
      if (parsed.error) {
        const {code, message: text = 'unknown error', data} = parsed.error;
        pending.reject(new CdpProtocolError(pending.method, code, text, data));
      } else {
        pending.resolve(parsed.result);
      }
    }
  }

  #close(): void {
    this.#closed = true;
    for (const pending of this.#pending.values()) {
      pending.reject(new ConnectionClosedError(`${pending.method}: the browser's debugging pipe closed.`));
    }
    this.#pending.clear();
  }

  send<M extends CdpCommand>(
    method: M,
    params?: CdpParams<M>,
    timeoutMs = PIPE_COMMAND_TIMEOUT_MS,
  ): Promise<CdpResult<M>> {
    if (this.#closed) {
      return Promise.reject(new ConnectionClosedError(`${method}: the browser's debugging pipe is closed.`));
    }
    const id = this.#nextId++;
    return new Promise<CdpResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new CdpTimeoutError(`${method} got no answer from Chrome within ${timeoutMs} ms.`));
      }, timeoutMs);
      timer.unref();
      this.#pending.set(id, {
        method,
        resolve: result => {
          clearTimeout(timer);
          resolve(result as CdpResult<M>);
        },
        reject: error => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.outgoing.write(`${JSON.stringify({id, method, params: params ?? {}})}\0`);
    });
  }
}
