import type {Protocol} from '../../../protocol/index.js';
import type {CdpConnection, CdpSession} from '../../cdp/CdpConnection.js';
import {type Deferred, deferred, withTimeout} from '../../util/async.js';
import {type ExtensionWorkers, isExtensionWorker} from '../apps/extensionWorkers.js';
import {applyUrlPolicy, type UrlPolicy} from '../network/urlPolicy.js';

// The targets the browser attaches to that are not its pages: workers, our
// own helper tabs, and the targets it lets go of.

/**
 * The URL our own helper tabs open with (writing localStorage of origins no
 * page has open): they are never tracked as pages nor shown to tools.
 */
const INTERNAL_PAGE_URL = 'about:blank?cdp-mcp-internal';
/** Bound of a helper tab's attach. */
const INTERNAL_ATTACH_TIMEOUT_MS = 10_000;

/** Browser-level worker targets; they load URLs on their own. */
const WORKER_TYPES = new Set(['service_worker', 'shared_worker', 'worker']);

/**
 * Takes an attached target that is no page: an extension's service worker
 * (kept, for the extension tools), a worker while the URL policy is on (it
 * applies to them too), a tab (a session someone on our side asked for).
 * False for everything else.
 */
export function adoptNonPage(
  c: CdpConnection,
  urlPolicy: UrlPolicy,
  extensionWorkers: ExtensionWorkers,
  {sessionId, targetInfo, waitingForDebugger}: Protocol.Target.AttachedToTargetEvent,
): boolean {
  if (isExtensionWorker(targetInfo.type, targetInfo.url)) {
    const session = c.session(sessionId, targetInfo.targetId, targetInfo.type);
    if (urlPolicy.active) {
      void applyUrlPolicy(session, urlPolicy, targetInfo);
    }
    // Sent after the policy's commands, so the worker starts with them applied.
    extensionWorkers.adopt(session, targetInfo, waitingForDebugger);
    return true;
  }
  if (urlPolicy.active && WORKER_TYPES.has(targetInfo.type)) {
    // Workers fetch on their own: they stay attached so the URL policy applies to them.
    const session = c.session(sessionId, targetInfo.targetId, targetInfo.type);
    // Resumed only once Chrome has answered the policy's commands: resumed with them merely
    // sent, a shared worker's first fetch went out before the rules held (envelope.test).
    void applyUrlPolicy(session, urlPolicy, targetInfo).finally(
      () => waitingForDebugger && session.trySend('Runtime.runIfWaitingForDebugger'),
    );
    return true;
  }
  if (targetInfo.type === 'tab') {
    // Auto-attach never yields tabs (its default filter leaves them out): this is a
    // session someone on our side asked for (browser/tabs.ts), theirs to close.
    return true;
  }
  return false;
}

/** Lets a target we do not drive run, and detaches from it. */
export async function letGo(c: CdpConnection, sessionId: string, waitingForDebugger: boolean): Promise<void> {
  if (waitingForDebugger) {
    await c.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
  }
  await c.send('Target.detachFromTarget', {sessionId}).catch(() => undefined);
}

/** Our hidden helper tabs: each waited for by the work it was opened for, never a page. */
export class InternalPages {
  readonly #waiting = new Map<string, Deferred<CdpSession>>();

  /** Hands an attached helper tab's session to its work; false for any other target. */
  adopt(c: CdpConnection, {sessionId, targetInfo}: Protocol.Target.AttachedToTargetEvent): boolean {
    if (targetInfo.type !== 'page' || targetInfo.url !== INTERNAL_PAGE_URL) {
      return false;
    }
    this.#waiter(targetInfo.targetId).resolve(c.session(sessionId, targetInfo.targetId, targetInfo.type));
    return true;
  }

  /**
   * Runs `work` in a hidden helper tab of a browser context (paused until
   * `work` resumes it), and closes the tab afterwards whatever happens.
   */
  async run<T>(
    c: CdpConnection,
    browserContextId: string | undefined,
    work: (session: CdpSession) => Promise<T>,
  ): Promise<T> {
    const {targetId} = await c.send('Target.createTarget', {
      url: INTERNAL_PAGE_URL,
      background: true,
      ...(browserContextId ? {browserContextId} : {}),
    });
    const waiter = this.#waiter(targetId);
    try {
      const session = await withTimeout(
        waiter.promise,
        INTERNAL_ATTACH_TIMEOUT_MS,
        `A helper tab did not attach within ${INTERNAL_ATTACH_TIMEOUT_MS} ms.`,
      );
      return await work(session);
    } finally {
      this.#waiting.delete(targetId);
      await c.send('Target.closeTarget', {targetId}).catch(() => undefined);
    }
  }

  /** The waiter of a helper tab: it may attach before Target.createTarget answers. */
  #waiter(targetId: string): Deferred<CdpSession> {
    let waiter = this.#waiting.get(targetId);
    if (!waiter) {
      waiter = deferred<CdpSession>();
      this.#waiting.set(targetId, waiter);
    }
    return waiter;
  }
}
