/**
 * The JavaScript dialogs open on one page, exactly as Chrome reports them.
 *
 * Chrome tells a page's session about every dialog of its tab: those of its
 * main frame and of any frame in it, out-of-process iframes included
 * (Page.javascriptDialogOpening and Page.javascriptDialogClosed, with the
 * frame's id); a popup is a page of its own, with its own session. A dialog
 * is open from its opening event to its closed event, and only events change
 * that: answering one marks it answered (it stops counting at once) but its
 * closed event removes it. Clearing it when the answer's reply came instead
 * lost the next dialog of an alert() loop, which opens before that reply is
 * read: the page then looked free while it was paused.
 */
import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {errorMessage} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {PageQuoteError} from '../../util/pageQuote.js';

export type DialogType = Protocol.Page.DialogType;

/** A JavaScript dialog the page opened and nobody has answered yet. */
export interface OpenDialog {
  type: DialogType;
  message: string;
  defaultPrompt?: string;
}

interface TrackedDialog extends OpenDialog {
  frameId: string | undefined;
  /** We sent Page.handleJavaScriptDialog for it; its closed event is still to come. */
  answered: boolean;
}

/** The error for handle_dialog when nothing is open. */
const NO_DIALOG = 'No open dialog found';

/** What a tool the open `dialog` blocks gets: the dialog's message quotes the page. */
export function dialogOpenError(dialog: OpenDialog): PageQuoteError {
  return new PageQuoteError(
    `A dialog is open (${dialog.type}: ${dialog.message}). Call handle_dialog to accept or dismiss it first.`,
  );
}

export class PageDialogs {
  readonly #open: TrackedDialog[] = [];

  constructor(readonly session: CdpSession) {}

  /** Follows the session's dialog events; returns the unsubscribers. */
  listen(): Array<() => void> {
    return [
      this.session.on('Page.javascriptDialogOpening', ({type, message, defaultPrompt, frameId}) => {
        debug(`dialog opening: ${type} "${message}" in frame ${frameId}`);
        this.#open.push({
          type,
          message,
          ...(defaultPrompt === undefined ? {} : {defaultPrompt}),
          frameId,
          answered: false,
        });
      }),
      this.session.on('Page.javascriptDialogClosed', ({frameId, result}) => {
        debug(`dialog closed in frame ${frameId} (${result ? 'accepted' : 'dismissed'}), ${this.#open.length} tracked`);
        // The oldest of the frame's (one at a time per frame); without a frame id, the oldest of all.
        const index = this.#open.findIndex(
          d => frameId === undefined || d.frameId === undefined || d.frameId === frameId,
        );
        if (index !== -1) {
          this.#open.splice(index, 1);
        }
      }),
    ];
  }

  /** The newest dialog nobody has answered: what pauses the page now. */
  get current(): OpenDialog | undefined {
    const dialog = this.#open.findLast(d => !d.answered);
    return dialog && {type: dialog.type, message: dialog.message, defaultPrompt: dialog.defaultPrompt};
  }

  /**
   * Accepts or dismisses the current dialog (a prompt's text when accepting).
   * Throws "No open dialog found" when none is open. When Chrome refuses, a
   * dialog that closed meanwhile (its closed event came first) needs nothing
   * more; one still open stays open and the error says why.
   */
  async answer(accept: boolean, promptText?: string): Promise<void> {
    const dialog = this.#open.findLast(d => !d.answered);
    if (!dialog) {
      throw new Error(NO_DIALOG);
    }
    dialog.answered = true;
    const params = {accept, ...(accept && promptText !== undefined ? {promptText} : {})};
    try {
      await this.session.send('Page.handleJavaScriptDialog', params);
    } catch (error) {
      if (!this.#open.includes(dialog)) {
        return;
      }
      dialog.answered = false;
      throw new PageQuoteError(
        `Chrome could not answer the ${dialog.type} dialog ("${dialog.message}"), which is still open (${errorMessage(error)}). Call handle_dialog again, or close the page with close_page.`,
        {cause: error},
      );
    }
  }

  /** Every dialog is gone: the main frame has a new document, or the renderer crashed. */
  clear(): void {
    this.#open.length = 0;
  }
}
