import {warn} from './logger.js';

/** A promise with its resolve/reject exposed. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const d: Deferred<T> = {
    promise: new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    }),
    resolve: value => {
      d.settled = true;
      resolve(value);
    },
    reject: error => {
      d.settled = true;
      reject(error);
    },
    settled: false,
  };
  // A rejected deferred nobody awaits must not crash the process.
  d.promise.catch(() => {});
  return d;
}

/** Thrown when a bounded wait runs out; the message says what was awaited. */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Races `promise` against a timer; the timer never keeps the process alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  if (!Number.isFinite(ms) || ms <= 0) {
    return promise;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(message)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function sleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms));
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The client cancelled the call (MCP notifications/cancelled) or its session ended. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(message = 'The call was cancelled by the client.') {
    super(message);
  }
}

/** Throws the CancelledError when `signal` has aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new CancelledError();
  }
}

/**
 * A controller that aborts when `signal` does (at once when it has): work
 * that stops for more reasons than the caller's (its own failure) aborts it
 * too. `unfollow` when the work is over.
 */
export function following(signal: AbortSignal | undefined): {stop: AbortController; unfollow: () => void} {
  const stop = new AbortController();
  const abort = () => stop.abort();
  if (signal?.aborted) {
    abort();
  }
  signal?.addEventListener('abort', abort, {once: true});
  return {stop, unfollow: () => signal?.removeEventListener('abort', abort)};
}

/**
 * Settles like `promise`, or rejects with a CancelledError as soon as `signal`
 * aborts (the work behind `promise` is abandoned, not stopped: pass the
 * signal on to whatever can stop it).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) {
    return promise;
  }
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(new CancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(new CancelledError());
    };
    signal.addEventListener('abort', onAbort, {once: true});
    promise.then(
      value => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Waits for cancelled work to unwind, but not for longer than `ms`. */
export async function settleWithin(work: Promise<unknown>, ms: number, toolName: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>(resolve => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === 'late') {
    warn(`${toolName} was cancelled but did not stop within ${ms} ms; the next call runs anyway.`);
  }
}

/**
 * Runs `work` on every item, at most `limit` at a time, in order of the items:
 * pipelined, as with Promise.all, but bounded. A burst of thousands of CDP
 * commands sent at once (a snapshot asking about each of 5000 buttons) holds
 * the pending state of every one (its promise chain, timer, abort listener and
 * the timeout error's stack trace) until all are answered: tens of MB at once.
 * A rejection rejects the whole, as Promise.all's; the other runners stop taking items.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const runner = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({length: Math.min(limit, items.length)}, runner));
  return results;
}
