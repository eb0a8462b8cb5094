import {CancelledError} from './async.js';

interface Waiter {
  exclusive: boolean;
  grant: () => void;
}

/**
 * A shared/exclusive lock, first come first served: shared holders run
 * together, an exclusive holder runs alone, and a waiting exclusive request
 * holds back the shared ones behind it (no starvation). `acquire` resolves
 * to the release function; an aborted wait rejects with a CancelledError
 * and leaves the queue.
 */
export class RwLock {
  #shared = 0;
  #exclusive = false;
  readonly #waiting: Waiter[] = [];

  acquire(exclusive: boolean, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) {
      return Promise.reject(new CancelledError());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        exclusive,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#releaser(exclusive));
        },
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) {
          this.#waiting.splice(index, 1);
          reject(new CancelledError());
          this.#drain();
        }
      };
      signal?.addEventListener('abort', onAbort, {once: true});
      this.#waiting.push(waiter);
      this.#drain();
    });
  }

  /** Holders now (diagnostics and tests). */
  get state(): {shared: number; exclusive: boolean; waiting: number} {
    return {shared: this.#shared, exclusive: this.#exclusive, waiting: this.#waiting.length};
  }

  #releaser(exclusive: boolean): () => void {
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      if (exclusive) {
        this.#exclusive = false;
      } else {
        this.#shared--;
      }
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#waiting.length && !this.#exclusive) {
      const next = this.#waiting[0];
      if (!next) {
        return;
      }
      if (next.exclusive) {
        if (this.#shared > 0) {
          return;
        }
        this.#waiting.shift();
        this.#exclusive = true;
        next.grant();
        return;
      }
      this.#waiting.shift();
      this.#shared++;
      next.grant();
    }
  }
}
