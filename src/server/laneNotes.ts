import type {Page} from '../browser/core/Page.js';
import type {BoundPage} from './lanes.js';

/** How long the page's main thread may take to answer "what are you doing?". */
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
 */
export async function explainStuck(page: Page, error: string, toolName: string): Promise<string> {
  if (!TIMED_OUT.test(error) || page.crashed || page.closed) {
    return error;
  }
  const doing = await pageActivity(page);
  return doing ? `${error}\n${doing} (${toolName} gave up on it; calls on other pages were not held back.)` : error;
}

/** What keeps `page` from answering: a dialog, a script that does not yield, a load that does not end. */
async function pageActivity(page: Page): Promise<string | undefined> {
  const {dialog} = page;
  if (dialog) {
    return `Page ${page.id} shows a ${dialog.type} dialog ("${dialog.message}"), which pauses its scripts: answer it with handle_dialog.`;
  }
  const probe = await page.session.trySend(
    'Runtime.evaluate',
    {expression: 'document.readyState', returnByValue: true},
    PROBE_TIMEOUT_MS,
  );
  if (!probe) {
    return `Page ${page.id} is busy: its main thread did not answer within ${PROBE_TIMEOUT_MS / 1000} s, most likely a script that never yields (an endless loop). Close the page with close_page, or navigate it elsewhere with navigate_page.`;
  }
  const state: unknown = probe.result.value;
  if (state === 'loading' || state === 'interactive') {
    return `Page ${page.id} is still loading ${page.url} (document ${state}): wait for it with wait_for, stop it by navigating elsewhere with navigate_page, or close it with close_page.`;
  }
  return undefined;
}
