import {errorMessage} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import {crashError, type Page} from './Page.js';

/** How long a handler may still finish on its own once its page shows a dialog. */
const DIALOG_GRACE_MS = 200;
/** How long a handler may stall while another page shows a dialog (renderers can be shared). */
const FOREIGN_DIALOG_STALL_MS = 1_500;
const DIALOG_POLL_MS = 25;

/**
 * Runs a page tool's work until it ends, or until its page can no longer do
 * it, which then is the call's error:
 * - The page's renderer crashed during the call (whatever the work reports
 *   afterwards, e.g. a navigation that "finished" because loading stopped).
 * - A dialog pauses its renderer (and renderers can be shared between pages),
 *   so CDP calls that need one (screenshot, evaluate, …) would hang until
 *   their timeout. Stop waiting once a dialog stays open on its page (dialogs
 *   a handler answers itself close within milliseconds), or when it stalls
 *   while another page shows one, and say which dialog to answer.
 */
export async function guardPage<T>(
  /** The session's pages (other sessions' pages are in other contexts, which never share a renderer). */
  browser: {pages(): Page[]},
  page: Page,
  work: Promise<T>,
  toolName: string,
  /** Whether a dialog of the page itself stops the work (not for handle_dialog, whose work it is). */
  ownDialogs = true,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let offCrash: (() => void) | undefined;
  const blocked = new Promise<Error>(resolve => {
    offCrash = page.onCrash(crash => resolve(crashError(page, crash, `${toolName} was running`)));
    timer = watchDialogs(browser, page, toolName, ownDialogs, resolve);
  });
  try {
    const outcome = await Promise.race([work.then(value => ({value})), blocked]);
    if (outcome instanceof Error) {
      work.catch(error => debug(`${toolName} ended after its page stopped it`, errorMessage(error)));
      throw outcome;
    }
    return outcome.value;
  } finally {
    clearInterval(timer);
    offCrash?.();
  }
}

/** Polls the dialogs that block `page` and hands over the error to stop its work with. */
function watchDialogs(
  browser: {pages(): Page[]},
  page: Page,
  toolName: string,
  ownDialogs: boolean,
  stop: (error: Error) => void,
): NodeJS.Timeout {
  let ownSince: number | undefined;
  let otherSince: number | undefined;
  return setInterval(() => {
    const now = Date.now();
    ownSince = ownDialogs && page.dialog ? (ownSince ?? now) : undefined;
    const other = browser.pages().find(p => p !== page && p.dialog);
    otherSince = other ? (otherSince ?? now) : undefined;
    if (ownSince !== undefined && now - ownSince >= DIALOG_GRACE_MS) {
      stop(
        new Error(
          `${capitalize(withArticle(page.dialog?.type ?? 'JavaScript'))} dialog opened while ${toolName} was running and the page is paused until it is answered. Call handle_dialog, then retry.`,
        ),
      );
    } else if (other && otherSince !== undefined && now - otherSince >= FOREIGN_DIALOG_STALL_MS) {
      stop(
        new PageQuoteError(
          `Page ${page.id} did not respond while page ${other.id} shows ${withArticle(other.dialog?.type ?? 'JavaScript')} dialog ("${other.dialog?.message}"), which pauses every page sharing its renderer. Answer it with handle_dialog on page ${other.id}, then retry.`,
        ),
      );
    }
  }, DIALOG_POLL_MS);
}

/** "an alert", "a confirm". */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
