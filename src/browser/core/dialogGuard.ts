import {errorMessage} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import type {Page} from './Page.js';

/** How long a handler may still finish on its own once its page shows a dialog. */
const DIALOG_GRACE_MS = 200;
/** How long a handler may stall while another page shows a dialog (renderers can be shared). */
const FOREIGN_DIALOG_STALL_MS = 1_500;
const DIALOG_POLL_MS = 25;

/**
 * A dialog pauses its renderer, and renderers can be shared between pages, so
 * CDP calls that need one (screenshot, evaluate, …) would hang until their
 * timeout. Stop waiting for the handler once a dialog stays open on its page
 * (dialogs a handler answers itself close within milliseconds), or when it
 * stalls while another page shows one, and say which dialog to answer.
 */
export async function guardAgainstDialogs(
  /** The session's pages (other sessions' pages are in other contexts, which never share a renderer). */
  browser: {pages(): Page[]},
  page: Page,
  work: Promise<void>,
  toolName: string,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const blocked = new Promise<Error>(resolve => {
    let ownSince: number | undefined;
    let otherSince: number | undefined;
    timer = setInterval(() => {
      const now = Date.now();
      // A dialog the call answered itself closes on its own (later on a busy machine): not a block.
      ownSince = page.dialog && !page.dialog.answered ? (ownSince ?? now) : undefined;
      const other = browser.pages().find(p => p !== page && p.dialog && !p.dialog.answered);
      otherSince = other ? (otherSince ?? now) : undefined;
      if (ownSince !== undefined && now - ownSince >= DIALOG_GRACE_MS) {
        resolve(
          new Error(
            `${capitalize(withArticle(page.dialog?.type ?? 'JavaScript'))} dialog opened while ${toolName} was running and the page is paused until it is answered. Call handle_dialog, then retry.`,
          ),
        );
      } else if (other && otherSince !== undefined && now - otherSince >= FOREIGN_DIALOG_STALL_MS) {
        resolve(
          new Error(
            `Page ${page.id} did not respond while page ${other.id} shows ${withArticle(other.dialog?.type ?? 'JavaScript')} dialog ("${other.dialog?.message}"), which pauses every page sharing its renderer. Answer it with handle_dialog on page ${other.id}, then retry.`,
          ),
        );
      }
    }, DIALOG_POLL_MS);
  });
  try {
    const outcome = await Promise.race([work.then(() => undefined), blocked]);
    if (outcome) {
      work.catch(error => debug(`${toolName} ended after a dialog blocked it`, errorMessage(error)));
      throw outcome;
    }
  } finally {
    clearInterval(timer);
  }
}

function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
