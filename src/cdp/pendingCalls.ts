import {getMaxListeners, setMaxListeners} from 'node:events';

import {CancelledError} from '../util/async.js';
import {CdpTimeoutError} from './errors.js';

/** Commands that may listen to one abort signal at once before Node warns. */
const SIGNAL_LISTENERS = 1_000;

/**
 * Default bound of a single CDP command. Long operations pass their own.
 * Here, not in CdpConnection.ts: code that only needs the bound must not load
 * the CDP client (chrome-remote-interface, ws and with them http, https, tls,
 * crypto, zlib) at the server's start.
 */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;

/** How a command ended: Chrome's result, or why there is none. */
export type CallOutcome = {result: unknown} | {error: Error};

interface PendingCall {
  method: string;
  sessionId: string | undefined;
  end(outcome: CallOutcome): void;
}

/**
 * The commands sent to Chrome that await an answer. Each ends exactly once:
 * with Chrome's answer, at its timeout, when its tool call is cancelled, or
 * when its target or the connection goes away; whatever comes later is dropped.
 */
export class PendingCalls {
  readonly #calls = new Map<number, PendingCall>();
  #nextId: number;

  /** @param firstId the first call's id (ids that go on the wire start where nothing else's do). */
  constructor(firstId = 1) {
    this.#nextId = firstId;
  }

  get size(): number {
    return this.#calls.size;
  }

  /**
   * Registers a command; `timeout` 0 waits for ever, `signal` abandons it
   * (CancelledError). The timeout error is made here, while the caller is on
   * the stack: its stack trace shows who sent the command, not a timer.
   */
  add<T>(
    method: string,
    sessionId: string | undefined,
    timeout: number,
    signal?: AbortSignal,
  ): {id: number; answer: Promise<T>} {
    const id = this.#nextId++;
    const timeoutError =
      timeout > 0 ? new CdpTimeoutError(`${method} got no answer from Chrome within ${timeout} ms.`) : undefined;
    const answer = new Promise<T>((resolve, reject) => {
      const onAbort = () => end({error: new CancelledError()});
      const timer = timeoutError ? setTimeout(() => end({error: timeoutError}), timeout) : undefined;
      timer?.unref();
      const end = (outcome: CallOutcome) => {
        if (!this.#calls.delete(id)) {
          return;
        }
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if ('error' in outcome) {
          reject(outcome.error);
        } else {
          resolve(outcome.result as T);
        }
      };
      this.#calls.set(id, {method, sessionId, end});
      if (signal) {
        // One listener per command in flight (a snapshot has up to 64), each removed when its command
        // ends: above Node's default of 10, which would warn of a leak on the server's stderr.
        if (getMaxListeners(signal) < SIGNAL_LISTENERS) {
          setMaxListeners(SIGNAL_LISTENERS, signal);
        }
        signal.addEventListener('abort', onAbort, {once: true});
      }
    });
    return {id, answer};
  }

  /** Ends a command with Chrome's answer (ignored when it ended already); a function gets the command's method. */
  settle(id: number, outcome: CallOutcome | ((method: string) => CallOutcome)): void {
    const call = this.#calls.get(id);
    call?.end(typeof outcome === 'function' ? outcome(call.method) : outcome);
  }

  /** Fails the commands sent to one session (its target went away). */
  failSession(sessionId: string, error: (method: string) => Error): void {
    for (const call of [...this.#calls.values()]) {
      if (call.sessionId === sessionId) {
        call.end({error: error(call.method)});
      }
    }
  }

  /** Fails every command (the connection closed). */
  failAll(error: (method: string) => Error): void {
    for (const call of [...this.#calls.values()]) {
      call.end({error: error(call.method)});
    }
  }
}
