import type {Page} from '../browser/core/Page.js';
import type {BoundPage} from './lanes.js';

/**
 * How long the page's main thread may take to answer "what are you doing?".
 * An idle page answers in milliseconds; the probe runs only once a call has
 * already run out of time, so a second more is what the diagnosis may cost.
 */
const PROBE_TIMEOUT_MS = 1_000;

/** Errors of a wait that ran out: a CDP command Chrome did not answer, a script or load that did not finish. */
const TIMED_OUT = /got no answer from Chrome|did not finish|timed? ?out|within [\d.]+ ?m?s\b/i;

/**
 * With --lanes page, the response of a call bound to the selected page names
 * that page: the selection may have changed (select_page) while it waited.
 */
export function boundNote(bound: BoundPage | undefined): string | undefined {
  return bound?.selected ? `This call ran on page ${bound.page.id}, the selected page when it was queued.` : undefined;
}

/**
 * A page call that ran out of time (its page is stuck) gets what the page is
 * doing and what to do about it appended to its error; other errors are kept.
 * `lanes`: whether calls on other pages ran meanwhile (--lanes page) or
 * waited for this one (the server-wide lock).
 */
export async function explainStuck(
  page: Page,
  error: string,
  toolName: string,
  lanes: 'page' | 'server',
): Promise<string> {
  if (!TIMED_OUT.test(error) || page.crashed || page.closed) {
    return error;
  }
  const doing = await pageActivity(page);
  const others =
    lanes === 'page'
      ? 'calls on other pages were not held back'
      : 'calls on other pages waited for it; --lanes page runs them meanwhile';
  return doing ? `${error}\n${doing} (${toolName} gave up on it; ${others}.)` : error;
}

/**
 * explainStuck on a response's error, in place. What it appends can quote
 * the page (a dialog's message, the URL still loading): the error is then
 * page content (util/pageQuote.ts).
 */
export async function explainStuckError(
  page: Page,
  state: {error?: string; errorQuotesPage?: boolean},
  toolName: string,
  lanes: 'page' | 'server',
): Promise<void> {
  if (state.error !== undefined) {
    const explained = await explainStuck(page, state.error, toolName, lanes);
    state.errorQuotesPage ||= explained !== state.error;
    state.error = explained;
  }
}

/**
 * What keeps `page` from answering: a dialog, a script that does not yield,
 * a debugger pause, a load that does not end. Two probes run together: a
 * plain evaluation needs the main thread free, one that awaits a resolved
 * promise also needs the event loop to turn. A script that never yields
 * answers neither; a page paused in the debugger (by DevTools or another CDP
 * client: this server never pauses one) answers the first only, since V8
 * still evaluates while paused but runs no microtask.
 */
async function pageActivity(page: Page): Promise<string | undefined> {
  const {dialog} = page;
  if (dialog) {
    return `Page ${page.id} shows a ${dialog.type} dialog ("${dialog.message}"), which pauses its scripts: answer it with handle_dialog.`;
  }
  const evaluate = (expression: string, awaitPromise: boolean) =>
    page.session.trySend('Runtime.evaluate', {expression, returnByValue: true, awaitPromise}, PROBE_TIMEOUT_MS);
  const [probe, turned] = await Promise.all([
    evaluate('document.readyState', false),
    evaluate('Promise.resolve(document.readyState)', true),
  ]);
  if (!probe && page.navigatingTo !== undefined) {
    return `Page ${page.id} is navigating to ${page.navigatingTo} and answers nothing meanwhile: Chrome holds every command to the page until the new document arrives or the navigation fails (a server that does not answer, or a page whose scripts never yield and so never let it go). Retry then, navigate elsewhere with navigate_page, or close it with close_page.`;
  }
  if (!probe) {
    return `Page ${page.id} is busy: its main thread did not answer within ${PROBE_TIMEOUT_MS / 1000} s, most likely a script that never yields (an endless loop). Close the page with close_page, or navigate it elsewhere with navigate_page.`;
  }
  if (!turned) {
    return `Page ${page.id} is paused in the debugger: it evaluates but runs no callback or promise, as when DevTools or another CDP client stopped it at a breakpoint or a debugger statement. Resume it there (Debugger.resume), or close it with close_page.`;
  }
  const state: unknown = probe.result.value;
  if (state === 'loading' || state === 'interactive') {
    return `Page ${page.id} is still loading ${page.url} (document ${state}): wait for it with wait_for, stop it by navigating elsewhere with navigate_page, or close it with close_page.`;
  }
  return undefined;
}
