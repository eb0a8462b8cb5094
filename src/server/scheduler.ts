import PQueue from 'p-queue';

import {CancelledError} from '../util/async.js';
import {RwLock} from '../util/rwLock.js';
import {PageLanes, queued} from './lanes.js';

/**
 * When tool calls may run. By default one server-wide serial lock (a p-queue
 * of concurrency 1) covers every call of every session and transport: the
 * design this server starts from, and what the reference does.
 *
 * With --parallelSessions each session gets such a queue of its own (its calls
 * stay in order; sessions work in parallel, each in its own browser context),
 * and a call also holds the browser-wide lock: shared for ordinary tools,
 * exclusive for tools marked `browserWide` (they touch state every context
 * shares, so they run with no other call in flight).
 *
 * No p-queue `timeout`: it would start the next call while the timed-out one
 * still runs. Bounds live inside the calls.
 */
export class CallScheduler {
  readonly #serial = new PQueue({concurrency: 1});
  readonly #sessions = new Map<number, PQueue>();
  readonly #browser = new RwLock();

  /** --lanes page: one queue per page instead (src/server/lanes.ts); the pipeline asks it directly. */
  readonly lanes: PageLanes | undefined;

  constructor(
    readonly parallelSessions: boolean,
    lanes: 'server' | 'page' = 'server',
  ) {
    this.lanes = lanes === 'page' ? new PageLanes() : undefined;
  }

  /**
   * Runs `work` when its turn comes. A call cancelled while it waits is
   * dropped without running (CancelledError). Once it runs, cancellation is
   * the work's business (the signal reaches every wait): p-queue would
   * otherwise hand the lock on while the work still runs.
   */
  async run<T>(sessionId: number, browserWide: boolean, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    if (signal.aborted) {
      throw new CancelledError();
    }
    if (!this.parallelSessions) {
      return queued(this.#serial, signal, work);
    }
    let queue = this.#sessions.get(sessionId);
    if (!queue) {
      queue = new PQueue({concurrency: 1});
      this.#sessions.set(sessionId, queue);
    }
    return queued(queue, signal, async () => {
      const release = await this.#browser.acquire(browserWide, signal);
      try {
        return await work();
      } finally {
        release();
      }
    });
  }

  /** A session ended: its queue goes (calls still in it were cancelled with the session). */
  forget(sessionId: number): void {
    this.#sessions.delete(sessionId);
    this.lanes?.forget(sessionId);
  }
}
