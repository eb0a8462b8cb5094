/**
 * The message client over a launched Chrome's debugging pipe
 * (`--remote-debugging-pipe`: Chrome reads commands on its fd 3 and writes
 * answers and events on its fd 4, each message JSON ended by a NUL byte).
 * Flat sessions work as over a WebSocket (a `sessionId` on the message).
 *
 * The pipe is the launched browser's only way in: Chrome opens no port, so
 * no other local user can reach it, and only this process holds the pipe.
 * Chrome also offers some domains (PWA) only there.
 */
import type {Readable, Writable} from 'node:stream';
import {StringDecoder} from 'node:string_decoder';

import {debug} from '../util/logger.js';
import {writeInPieces} from '../util/pieces.js';
import type {RawClient, RawEvent} from './rawClient.js';

type Callback = (error: unknown, result: unknown) => void;

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  sessionId?: string;
  result?: unknown;
  error?: unknown;
}

export class PipeClient implements RawClient {
  readonly #pending = new Map<number, Callback>();
  readonly #eventListeners = new Set<(message: RawEvent) => void>();
  readonly #disconnectListeners = new Set<() => void>();
  /**
   * Text of the message being received, before its NUL, decoded chunk by
   * chunk: a large answer (a snapshot's page walk, a trace's IO.read) is
   * never one buffer of its whole size. Such a buffer is the C allocator's,
   * which once it is freed keeps blocks up to its size in its heap instead
   * of giving them back to the system (docs/internals.md, "Server memory").
   * Text lives in V8's heap, which returns it.
   */
  #parts: string[] = [];
  readonly #decoder = new StringDecoder('utf8');
  #nextId = 1;
  #closed = false;
  /** Writes are held until the current turn of our work ends (see send). */
  #corked = false;

  constructor(
    readonly incoming: Readable,
    readonly outgoing: Writable,
  ) {
    incoming.on('data', (chunk: Buffer) => this.#receive(chunk));
    const close = () => this.#close();
    incoming.once('close', close);
    incoming.once('end', close);
    incoming.once('error', close);
    outgoing.once('error', close);
    outgoing.once('close', close);
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(method: string, params: object, sessionId: string | undefined, callback: Callback): void {
    if (this.#closed) {
      callback(new Error(`${method}: the debugging pipe is closed.`), undefined);
      return;
    }
    const id = this.#nextId++;
    this.#pending.set(id, callback);
    const message = sessionId === undefined ? {id, method, params} : {id, method, params, sessionId};
    // Commands sent together (in one turn of our work, its promise callbacks
    // included) go in one write: each write wakes Chrome, which on a busy
    // machine takes the core from us before we send the next one (a hover's
    // first six commands were six writes; half the server's involuntary
    // context switches went with them).
    if (!this.#corked) {
      this.#corked = true;
      this.outgoing.cork();
      process.nextTick(() => {
        this.#corked = false;
        this.outgoing.uncork();
      });
    }
    // In pieces, as a large command (a mock's body, a long script) is one block of its size in the C allocator otherwise.
    writeInPieces(this.outgoing, `${JSON.stringify(message)}\0`);
  }

  on(event: 'event', listener: (message: RawEvent) => void): this;
  on(event: 'disconnect', listener: () => void): this;
  on(event: 'event' | 'disconnect', listener: ((message: RawEvent) => void) | (() => void)): this {
    if (event === 'event') {
      this.#eventListeners.add(listener);
    } else {
      this.#disconnectListeners.add(listener as () => void);
    }
    return this;
  }

  /** Closes our ends of the pipe; Chrome exits when it sees them close. */
  async close(): Promise<void> {
    this.outgoing.end();
    this.incoming.destroy();
    this.#close();
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0, start); end !== -1; end = chunk.indexOf(0, start)) {
      const last = this.#decoder.end(chunk.subarray(start, end));
      let text = last;
      if (this.#parts.length) {
        this.#parts.push(last);
        text = this.#parts.join('');
        this.#parts = [];
      }
      start = end + 1;
      this.#handle(text);
    }
    if (start < chunk.length) {
      this.#parts.push(this.#decoder.write(chunk.subarray(start)));
    }
  }

  #handle(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      debug('unparsable message on the debugging pipe', text.slice(0, 200));
      return;
    }
    if (message.id === undefined) {
      if (message.method) {
        const event: RawEvent = {method: message.method, params: message.params, sessionId: message.sessionId};
        for (const listener of this.#eventListeners) {
          listener(event);
        }
      }
      return;
    }
    const callback = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    if (message.error) {
      callback?.(true, message.error);
    } else {
      callback?.(false, message.result);
    }
  }

  #close(): void {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    for (const callback of this.#pending.values()) {
      callback(new Error('The debugging pipe closed.'), undefined);
    }
    this.#pending.clear();
    for (const listener of this.#disconnectListeners) {
      listener();
    }
  }
}
