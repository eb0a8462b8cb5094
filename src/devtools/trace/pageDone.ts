import type {Page} from '../../browser/core/Page.js';
import {errorMessage, sleep, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';

/** How long network, main thread and paints must stay quiet before an auto-stopped trace ends. */
export const QUIET_WINDOW_MS = 500;
/**
 * The longest an auto-stopped trace waits after load: chrome-devtools-mcp always
 * waits this long, so a page that never settles costs no more than there.
 */
export const AUTO_STOP_MAX_MS = 5_000;
const NETWORK_POLL_MS = 50;

/**
 * Resolves in the page once it has an LCP candidate and the main thread has
 * been idle, with no new LCP candidate or layout shift and the document
 * complete, for `quiet` ms. Runs
 * in an isolated world: it must not touch the page's own globals.
 */
const PAGE_QUIET_SOURCE = (quiet: number) => `new Promise(resolve => {
  let last = performance.now();
  // A page with content has an LCP candidate once it painted: until then it is
  // not done, however idle its thread (a loaded machine paints late; the
  // caller's bound ends the wait for a page that never paints one).
  let painted = typeof PerformanceObserver !== 'function' ||
    !PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint');
  const touch = () => { last = performance.now(); };
  try {
    new PerformanceObserver(() => { painted = true; touch(); }).observe({type: 'largest-contentful-paint', buffered: true});
    new PerformanceObserver(touch).observe({type: 'layout-shift', buffered: true});
  } catch {}
  const idle = typeof requestIdleCallback === 'function'
    ? cb => requestIdleCallback(cb, {timeout: ${quiet}})
    : cb => setTimeout(cb, 16);
  const check = () => idle(() => {
    if (painted && document.readyState === 'complete' && performance.now() - last >= ${quiet}) {
      resolve(true);
    } else {
      setTimeout(check, 50);
    }
  });
  check();
})`;

/** Counts the page's requests in flight from its Network events (the collector keeps the domain on). */
function watchNetwork(page: Page): {quietFor(): number; dispose(): void} {
  const inFlight = new Set<string>();
  let quietSince = performance.now();
  const done = (requestId: string) => {
    if (inFlight.delete(requestId) && inFlight.size === 0) {
      quietSince = performance.now();
    }
  };
  const s = page.session;
  const offs = [
    s.on('Network.requestWillBeSent', ({requestId}) => inFlight.add(requestId)),
    s.on('Network.loadingFinished', ({requestId}) => done(requestId)),
    s.on('Network.loadingFailed', ({requestId}) => done(requestId)),
    // A request served from the memory cache may get no loadingFinished.
    s.on('Network.requestServedFromCache', ({requestId}) => done(requestId)),
  ];
  return {
    quietFor: () => (inFlight.size ? 0 : performance.now() - quietSince),
    dispose: () => offs.forEach(off => off()),
  };
}

/**
 * Waits until the freshly loaded page is done: the network quiet, the main
 * thread idle, no new LCP candidate or layout shift, all for QUIET_WINDOW_MS;
 * at most AUTO_STOP_MAX_MS. Never throws: the trace is stopped either way.
 * Returns how long it waited (ms) and whether the page settled.
 */
export async function waitForPageDone(page: Page): Promise<{waitedMs: number; settled: boolean}> {
  const started = performance.now();
  const network = watchNetwork(page);
  const deadline = started + AUTO_STOP_MAX_MS;
  try {
    const world = await page.session.send('Page.createIsolatedWorld', {
      frameId: page.mainFrameId,
      worldName: 'cdp-mcp-trace',
      grantUniveralAccess: false,
    });
    const inPage = page.session.send(
      'Runtime.evaluate',
      {expression: PAGE_QUIET_SOURCE(QUIET_WINDOW_MS), awaitPromise: true, contextId: world.executionContextId},
      AUTO_STOP_MAX_MS,
    );
    await withTimeout(inPage, AUTO_STOP_MAX_MS, 'page quiet');
    while (network.quietFor() < QUIET_WINDOW_MS && performance.now() < deadline) {
      await sleep(NETWORK_POLL_MS);
    }
    const settled = performance.now() < deadline;
    return {waitedMs: performance.now() - started, settled};
  } catch (error) {
    // A navigation, a dialog or a busy page: fall back to the bound.
    debug('page-done wait ended early', errorMessage(error));
    const left = deadline - performance.now();
    if (left > 0 && !page.closed && !page.dialog) {
      await sleep(Math.min(left, QUIET_WINDOW_MS));
    }
    return {waitedMs: performance.now() - started, settled: false};
  } finally {
    network.dispose();
  }
}
