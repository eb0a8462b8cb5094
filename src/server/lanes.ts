import PQueue from 'p-queue';

import type {BrowserScope} from '../browser/core/BrowserScope.js';
import type {Page} from '../browser/core/Page.js';
import type {Tool, ToolLane} from '../tools/defineTool.js';
import {CancelledError} from '../util/async.js';
import {RwLock} from '../util/rwLock.js';

/** The page a page tool was bound to when it was queued (undefined: binding failed, the call says why). */
export interface BoundPage {
  page: Page;
  /** No pageId was given: the page was the session's selected one at the time. */
  selected: boolean;
}

/** One call as the lanes see it. */
export interface LaneCall {
  tool: Tool;
  params: Record<string, unknown>;
  /** The calling session: its id keys its queues, its scope has its pages and selection. */
  session: {readonly id: number; scope(): Promise<BrowserScope>};
  signal: AbortSignal;
}

/**
 * Where a call of `tool` queues with --lanes page. A tool's own `lane` says it
 * (with why); else:
 * - a `browserWide` tool (a trace, Lighthouse, raw CDP) touches state every
 *   page shares: alone in the browser;
 * - a page tool works on its one page (its DOM, its input, its own emulation,
 *   its network and console records): that page's lane;
 * - a memory tool without a page reads heap snapshot files the session
 *   loaded: the session's own queue, never waiting for the browser;
 * - any other tool without a page (extensions, PWAs, apps) works on the
 *   browser as a whole: alone in the browser.
 */
export function laneOf(tool: Tool): ToolLane['kind'] | 'page' {
  if (tool.lane) {
    return tool.lane.kind;
  }
  if (tool.browserWide !== undefined) {
    return 'browser';
  }
  if (tool.pageScoped) {
    return 'page';
  }
  return tool.annotations.category === 'memory' ? 'session' : 'browser';
}

/**
 * --lanes page: one queue per page instead of the server-wide serial lock.
 *
 * - A page call is bound to its page when it is queued (pageId, or the
 *   session's selected page at that moment), waits its turn in that page's
 *   lane, and holds the browser lock shared: calls on other pages run
 *   alongside, a stuck page holds back only its own lane.
 * - A browser-wide call holds the browser lock exclusive: it waits until the
 *   page lanes in flight finish (each call is bounded), and page calls queued
 *   after it wait for it (no starvation).
 * - Each session has an intake queue that keeps its page choices in order:
 *   select_page, browser-wide calls without a page (new_page, close_page:
 *   they may change the selection) and the binding of page calls without
 *   pageId. So `select_page 2` then a call without pageId always acts on page 2,
 *   however the two race.
 *
 * As with the serial lock, a call cancelled while it waits never runs, and
 * bounds live inside the calls (no queue timeout).
 */
export class PageLanes {
  readonly #browser = new RwLock();
  readonly #pages = new WeakMap<Page, PQueue>();
  readonly #intake = new Map<number, PQueue>();
  readonly #sessionQueues = new Map<number, PQueue>();

  async run<T>(call: LaneCall, work: (bound?: BoundPage) => Promise<T>): Promise<T> {
    if (call.signal.aborted) {
      throw new CancelledError();
    }
    const {signal, session} = call;
    const kind = laneOf(call.tool);
    if (kind === 'free') {
      return work();
    }
    if (kind === 'selection' || kind === 'session') {
      const queues = kind === 'selection' ? this.#intake : this.#sessionQueues;
      return queued(this.#queueOf(queues, session.id), signal, () => work());
    }
    // The call's place in the browser lock is taken now, in the order calls came (as its place
    // in the intake below): a browser-wide call waits for every page call sent before it and
    // holds back every one sent after it. Both orders agree, so no two calls wait on each other.
    const held = this.#browser.acquire(kind === 'browser', signal);
    try {
      return await this.#inLane(call, kind === 'browser', async bound => {
        await held;
        return work(bound);
      });
    } finally {
      void held.then(
        release => release(),
        () => undefined,
      );
    }
  }

  /** A session ended: its queues go (calls still in them were cancelled with the session). */
  forget(sessionId: number): void {
    this.#intake.delete(sessionId);
    this.#sessionQueues.delete(sessionId);
  }

  /** Lock holders now (tests). */
  get state(): RwLock['state'] {
    return this.#browser.state;
  }

  /**
   * Binds the call to its page in the session's intake (its pageId's, else
   * the page selected after every page choice sent before it), then queues it
   * in that page's lane. A browser-wide call without a page runs in the intake
   * (it may change the selection); one with a page runs once bound.
   */
  #inLane<T>(call: LaneCall, browserWide: boolean, work: (bound?: BoundPage) => Promise<T>): Promise<T> {
    const {params, session, signal} = call;
    const intake = this.#queueOf(this.#intake, session.id);
    if (browserWide && !call.tool.pageScoped) {
      return queued(intake, signal, () => work());
    }
    return queued(intake, signal, () => bind(session, params['pageId'])).then(bound => {
      if (browserWide || !bound) {
        return work(bound);
      }
      let lane = this.#pages.get(bound.page);
      if (!lane) {
        lane = new PQueue({concurrency: 1});
        this.#pages.set(bound.page, lane);
      }
      return queued(lane, signal, () => work(bound));
    });
  }

  #queueOf(queues: Map<number, PQueue>, sessionId: number): PQueue {
    let queue = queues.get(sessionId);
    if (!queue) {
      queue = new PQueue({concurrency: 1});
      queues.set(sessionId, queue);
    }
    return queue;
  }
}

/**
 * Runs `work` in its turn in `queue`. A call cancelled while it waits is
 * dropped without running (CancelledError); once it runs, cancellation is the
 * work's business (p-queue would otherwise hand the turn on while it runs).
 */
export async function queued<T>(queue: PQueue, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  // Follows the call's signal only while the call waits in the queue.
  const whileQueued = new AbortController();
  const forward = () => whileQueued.abort();
  signal.addEventListener('abort', forward, {once: true});
  try {
    return await queue.add(
      () => {
        signal.removeEventListener('abort', forward);
        return work();
      },
      {signal: whileQueued.signal},
    );
  } catch (error) {
    throw whileQueued.signal.aborted ? new CancelledError() : error;
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

/** The page a page call acts on: its pageId's, else the session's selected one. */
async function bind(session: LaneCall['session'], pageId: unknown): Promise<BoundPage | undefined> {
  try {
    const scope = await session.scope();
    return typeof pageId === 'number'
      ? {page: scope.getPageById(pageId), selected: false}
      : {page: scope.getSelectedPage(), selected: true};
  } catch {
    // The call runs unbound and reports the same failure (no browser, no such page) itself.
    return undefined;
  }
}
