/**
 * Browser-level commands over the launched Chrome's debugging pipe
 * (`--remote-debugging-pipe`: NUL-terminated JSON messages). Chrome offers
 * some domains (PWA) only there, not over the WebSocket; everything else
 * goes over the WebSocket connection. Only commands, no sessions or events.
 */
import type {Readable, Writable} from 'node:stream';

import type {CdpCommand, CdpParams, CdpResult} from '../../protocol/index.js';
import {CdpProtocolError, ConnectionClosedError} from './errors.js';
import {PendingCalls} from './pendingCalls.js';

/** Bound on one command over the pipe. */
export const PIPE_COMMAND_TIMEOUT_MS = 30_000;
/**
 * Pipe message ids start far from anything chrome-launcher could have used,
 * so that an answer is never mistaken for another's.
 */
const FIRST_ID = 1_000_000;

export class PipeChannel {
  readonly #pending = new PendingCalls(FIRST_ID);
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
      if (parsed.id === undefined) {
        continue;
      }
      const {error, result} = parsed;
      this.#pending.settle(parsed.id, method =>
        error
          ? {error: new CdpProtocolError(method, error.code, error.message ?? 'unknown error', error.data)}
          : {result},
      );
    }
  }

  #close(): void {
    this.#closed = true;
    this.#pending.failAll(method => new ConnectionClosedError(`${method}: the browser's debugging pipe closed.`));
  }

  send<M extends CdpCommand>(
    method: M,
    params?: CdpParams<M>,
    timeoutMs = PIPE_COMMAND_TIMEOUT_MS,
  ): Promise<CdpResult<M>> {
    if (this.#closed) {
      return Promise.reject(new ConnectionClosedError(`${method}: the browser's debugging pipe is closed.`));
    }
    const {id, answer} = this.#pending.add<CdpResult<M>>(method, undefined, timeoutMs);
    this.outgoing.write(`${JSON.stringify({id, method, params: params ?? {}})}\0`);
    return answer;
  }
}
