import type {Protocol} from '../../../protocol/index.js';
import {deferred, errorMessage} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {NO_PROGRESS, type ProgressReporter} from '../../util/progress.js';
import {crashError, type DialogType, type OpenDialog, type Page} from './Page.js';

/** After loading stops with no commit, how long a late commit may still come. */
const STOPPED_WITHOUT_COMMIT_GRACE_MS = 50;

/**
 * Most dialogs one action answers by its policy. A page that opens dialogs in
 * a loop (`for (;;) alert()` in evaluate_script) would otherwise trade dialog
 * events and answers with the server for the action's whole bound (60 s for a
 * script), keeping Chrome and the server busy for every other page. Past this
 * many the next dialog is left open: it pauses the page's scripts (the loop
 * costs nothing more), and the action ends with an error that names the loop.
 */
export const MAX_ANSWERED_DIALOGS = 20;

/** What to do with a dialog opened during the action: an action per type, or one for all. */
export type DialogPolicy = string | Partial<Record<DialogType, string>>;

/**
 * Watches the main frame of a page from before an action until its effects
 * are over: a navigation that starts (renderer- or browser-initiated), the new
 * document reaching `load`, and dialogs that open meanwhile.
 */
export class NavigationWatcher {
  readonly started = deferred<void>();
  readonly finished = deferred<void>();
  readonly dialog = deferred<OpenDialog>();
  /** Resolves with the error to end every wait with when the page's renderer crashes. */
  readonly crashed = deferred<Error>();
  #committedLoader: string | undefined;
  #answeredDialogs = 0;
  #dialogLoop = false;
  #expectedLoader: string | undefined;
  readonly #loaderBefore: string;
  readonly #off: Array<() => void> = [];

  constructor(
    readonly page: Page,
    policy?: DialogPolicy,
    readonly onDialogHandled?: (dialog: OpenDialog, action: string) => void,
    progress: ProgressReporter = NO_PROGRESS,
    commitExpected = false,
  ) {
    this.#loaderBefore = page.loaderId;
    const main = page.mainFrameId;
    this.#off.push(
      ...this.#watchStart(main),
      ...this.#watchCommit(main, progress),
      ...this.#watchEnd(main, progress, commitExpected),
      ...this.#watchDialogsAndEnd(policy),
    );
  }

  /** A navigation of the main frame starts (asked for by the renderer, or begun by the browser). */
  #watchStart(main: string) {
    const s = this.page.session;
    return [
      s.on('Page.frameRequestedNavigation', ({frameId}) => {
        if (frameId === main) {
          this.started.resolve();
        }
      }),
      s.on('Page.frameStartedNavigating', ({frameId, navigationType, loaderId}) => {
        if (frameId === main && navigationType !== 'sameDocument' && navigationType !== 'historySameDocument') {
          this.#expectedLoader = loaderId;
          this.started.resolve();
        }
      }),
    ];
  }

  /** The main frame commits a new document (a restored or already loaded one ends the watch), or stays on its own. */
  #watchCommit(main: string, progress: ProgressReporter) {
    const {page} = this;
    const s = page.session;
    return [
      s.on('Page.frameNavigated', ({frame, type}) => {
        if (frame.id !== main || frame.loaderId === this.#loaderBefore) {
          return;
        }
        this.#committedLoader = frame.loaderId;
        this.started.resolve();
        progress(`Navigation committed: ${frame.url}${frame.urlFragment ?? ''}`);
        if (type === 'BackForwardCacheRestore' || page.loadedLoaders.has(frame.loaderId)) {
          this.finished.resolve();
        }
      }),
      s.on('Page.navigatedWithinDocument', ({frameId}) => {
        if (frameId === main && !this.started.settled) {
          // Same-document navigations finish immediately.
          this.#sameDocument = true;
        }
      }),
    ];
  }

  /** The new document's load ends the watch, or a navigation that stopped without committing. */
  #watchEnd(main: string, progress: ProgressReporter, commitExpected: boolean) {
    const s = this.page.session;
    return [
      s.on('Page.lifecycleEvent', ({frameId, loaderId, name}) => {
        if (frameId === main && name === 'DOMContentLoaded' && loaderId !== this.#loaderBefore) {
          progress('DOMContentLoaded fired; waiting for the load event');
        }
        // Only the load of the document this navigation committed (or, before
        // the commit is seen, the one Page.navigate announced) counts: a
        // back-forward restore replays older lifecycle events first.
        if (frameId === main && name === 'load' && loaderId !== this.#loaderBefore) {
          if (loaderId === (this.#committedLoader ?? this.#expectedLoader)) {
            this.finished.resolve();
          }
        }
      }),
      s.on('Page.frameStoppedLoading', ({frameId}) => {
        // A navigation that never commits (204, download, cancelled) ends here.
        // A back-forward restore also stops loading just before it commits, so
        // give the commit a moment to show up; a history step (commitExpected)
        // always commits, and on a busy machine the commit can come later
        // than any grace: it waits for the commit itself.
        if (frameId === main && this.started.settled && !this.#committedLoader && !commitExpected) {
          setTimeout(() => {
            if (!this.#committedLoader) {
              this.finished.resolve();
            }
          }, STOPPED_WITHOUT_COMMIT_GRACE_MS).unref();
        }
      }),
    ];
  }

  /** Answers dialogs the policy covers, and ends the watch on other dialogs, on detach and on a crash. */
  #watchDialogsAndEnd(policy: DialogPolicy | undefined) {
    const {page} = this;
    const s = page.session;
    return [
      s.on('Page.javascriptDialogOpening', params => this.#onDialog(params, policy)),
      s.onDetached(() => {
        this.finished.reject(new Error('The page was closed.'));
        this.started.resolve();
      }),
      page.onCrash(crash => {
        const error = crashError(page, crash, 'loading');
        this.crashed.resolve(error);
        this.finished.reject(error);
      }),
    ];
  }

  /** A dialog opened: answered by the call's policy (and reported), or left to the agent. */
  #onDialog(params: Protocol.Page.JavascriptDialogOpeningEvent, policy: DialogPolicy | undefined): void {
    const dialog: OpenDialog = {type: params.type, message: params.message, defaultPrompt: params.defaultPrompt};
    const action = typeof policy === 'string' ? policy : policy?.[params.type];
    if (action === undefined || this.#answeredDialogs >= MAX_ANSWERED_DIALOGS) {
      this.#dialogLoop = action !== undefined;
      this.dialog.resolve(dialog);
      return;
    }
    this.#answeredDialogs++;
    const accept = action !== 'dismiss';
    const promptText = action !== 'accept' && action !== 'dismiss' ? action : undefined;
    // Through the page's dialogs: it stops counting as open at once (the page guard does not
    // count it as a block, however long Chrome takes to close it), and its closed event removes it.
    this.page.dialogs
      .answer(accept, promptText)
      .catch(error => debug('answering a dialog failed', errorMessage(error)));
    // A prompt accepted with a text reports the text; other dialogs ignore it (accepted).
    this.onDialogHandled?.(dialog, action === 'dismiss' ? 'dismiss' : dialog.type === 'prompt' ? action : 'accept');
  }

  /** Whether the action's dialogs came in a loop: MAX_ANSWERED_DIALOGS answered, the next one left open (`dialog`). */
  get dialogLoop(): boolean {
    return this.#dialogLoop;
  }

  #sameDocument = false;

  get sameDocument(): boolean {
    return this.#sameDocument;
  }

  /** Whether the main frame committed a new document since the watch began. */
  get committed(): boolean {
    return this.#committedLoader !== undefined;
  }

  /** Loader id of a navigation known to be under way (from Page.navigate). */
  expectLoader(loaderId: string): void {
    this.#expectedLoader = loaderId;
    if (this.page.loadedLoaders.has(loaderId)) {
      this.finished.resolve();
    }
  }

  dispose(): void {
    for (const off of this.#off) {
      off();
    }
  }
}
