import type {Protocol} from '../../../protocol/index.js';
import {abortable, deferred, errorMessage, throwIfCancelled, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {NO_PROGRESS, type ProgressReporter} from '../../util/progress.js';
import {cpuSlowdown, navigationSlowdown} from '../emulation/emulationState.js';
import {crashError, type DialogType, type OpenDialog, type Page} from './Page.js';
import {probeCall} from './probe.js';

export const NAVIGATION_TIMEOUT_MS = 10_000;
/**
 * How long the settle wait follows chains of work the action's work started
 * (a timer that re-arms itself, an animation loop, an interval): see probe.ts.
 */
const CHAIN_CAP_MS = 500;
/** Upper bound of the DOM-settle wait. */
const SETTLE_CAP_MS = 3_000;
/** After loading stops with no commit, how long a late commit may still come. */
const STOPPED_WITHOUT_COMMIT_GRACE_MS = 50;
/** Bound of the navigation an action may start. */
const ACTION_NAVIGATION_MS = 3_000;

export function cpuMultiplier(page: Page): number {
  return cpuSlowdown(page.emulation);
}

export function networkMultiplier(page: Page): number {
  return navigationSlowdown(page.emulation);
}

export function defaultNavigationTimeout(page: Page): number {
  return NAVIGATION_TIMEOUT_MS * networkMultiplier(page) * cpuMultiplier(page);
}

/** What to do with a dialog opened during the action: an action per type, or one for all. */
export type DialogPolicy = string | Partial<Record<DialogType, string>>;

export interface SettleOptions {
  /** Bound of a navigation the action starts. */
  timeout?: number;
  /** Wait for the DOM to stop changing (default true). */
  waitForStableDom?: boolean;
  handleDialog?: DialogPolicy;
  /** Throw when the navigation does not finish in time (navigate_page); otherwise it is only logged. */
  navigationMustFinish?: boolean;
  /** Told about every dialog answered by `handleDialog`, even when the action then fails. */
  onDialogHandled?: (dialog: OpenDialog, action: string) => void;
  /** The tool call's signal: every wait here stops (CancelledError) when it aborts. */
  signal?: AbortSignal;
  /** Told about the phases of a navigation the action causes. */
  progress?: ProgressReporter;
  /**
   * The navigation always commits a document (a step to an existing history
   * entry): only that commit (and its load) ends it, never a stop of loading.
   */
  commitExpected?: boolean;
}

export interface SettleResult {
  /** The page URL after the action, when it differs from before. */
  navigatedToUrl?: string;
  /** A dialog that opened during the action and is still open. */
  dialog?: OpenDialog;
  /** The dialog we answered automatically, if any (the last one). */
  handledDialog?: HandledDialog;
  /** Every dialog we answered automatically, in order: the response must say so. */
  handledDialogs?: HandledDialog[];
}

/** A dialog answered for the agent: `action` is accept, dismiss, or the text a prompt was accepted with. */
export interface HandledDialog {
  dialog: OpenDialog;
  action: string;
}

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
    const s = page.session;
    const main = page.mainFrameId;
    this.#loaderBefore = page.loaderId;
    this.#off.push(
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
      ...this.#watchDialogsAndEnd(policy),
    );
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
    if (action === undefined) {
      this.dialog.resolve(dialog);
      return;
    }
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

/**
 * Runs an action on a page and waits for what it caused, and only that: a
 * navigation it started (until the new document's load), a dialog it opened
 * (reported, never waited on), and DOM changes (until quiet). When the action
 * changed nothing, this returns as soon as the page confirms it.
 */
export async function runAndSettle<T>(
  page: Page,
  action: (watcher: NavigationWatcher) => Promise<T>,
  options: SettleOptions = {},
): Promise<{value: T | undefined; settle: SettleResult}> {
  const cpu = cpuMultiplier(page);
  const urlBefore = page.url;
  const result: SettleResult = {};
  const {signal} = options;
  throwIfCancelled(signal);
  const watcher = new NavigationWatcher(
    page,
    options.handleDialog,
    (dialog, action) => {
      result.handledDialog = {dialog, action};
      (result.handledDialogs ??= []).push({dialog, action});
      options.onDialogHandled?.(dialog, action);
    },
    options.progress,
    options.commitExpected,
  );
  try {
    const mark = options.waitForStableDom === false ? undefined : await page.markMutations();
    // The action itself may block on a dialog it opened (Runtime.evaluate and
    // Input.dispatch* do not answer while an alert is up): stop waiting then.
    const actionPromise = abortable(action(watcher), signal);
    const crashed = watcher.crashed.promise.then(error => Promise.reject(error));
    crashed.catch(() => {});
    const outcome = await Promise.race([
      actionPromise.then(v => ({kind: 'done' as const, v})),
      watcher.dialog.promise.then(d => ({kind: 'dialog' as const, d})),
      crashed,
    ]);
    if (outcome.kind === 'dialog') {
      actionPromise.catch(error => debug('action settled after dialog', errorMessage(error)));
      result.dialog = outcome.d;
      return {value: undefined, settle: finish(page, urlBefore, result, watcher.committed, options)};
    }
    const value = outcome.v;
    const navTimeout = options.timeout ?? ACTION_NAVIGATION_MS * networkMultiplier(page);
    if (!watcher.started.settled && mark !== undefined && options.waitForStableDom !== false) {
      // Wait for the DOM to settle, unless a navigation or dialog interrupts;
      // then learn whether the action activated download links.
      const settled = settleDom(page, mark, cpu, signal);
      await abortable(Promise.race([settled, watcher.started.promise, watcher.dialog.promise, crashed]), signal);
    }
    if (watcher.dialog.settled) {
      result.dialog = await watcher.dialog.promise;
    } else if (watcher.started.settled && !watcher.sameDocument) {
      options.progress?.('Waiting for the new document to load');
      const finished = await abortable(
        Promise.race([
          withTimeout(watcher.finished.promise, navTimeout, `Navigation timeout of ${navTimeout} ms exceeded`).then(
            () => 'ok' as const,
            (error: unknown) => error,
          ),
          watcher.dialog.promise.then(d => ({dialog: d})),
          crashed,
        ]),
        signal,
      );
      if (finished === 'ok') {
        options.progress?.('Page loaded');
      } else {
        if (finished && typeof finished === 'object' && 'dialog' in finished) {
          result.dialog = (finished as {dialog: OpenDialog}).dialog;
        } else if (options.navigationMustFinish) {
          throw finished;
        } else {
          debug('navigation after action did not finish', errorMessage(finished));
        }
      }
    }
    return {value, settle: finish(page, urlBefore, result, watcher.committed, options)};
  } finally {
    watcher.dispose();
  }
}

/** Waits (bounded) until the action's work is done and the DOM is still after `mark`, then counts the downloads the action's links started. */
function settleDom(page: Page, mark: number, cpu: number, signal: AbortSignal | undefined): Promise<void> {
  const settle = probeCall('settle', mark, CHAIN_CAP_MS * cpu, SETTLE_CAP_MS * cpu);
  return page.session
    .send(
      'Runtime.evaluate',
      {
        expression: `Promise.resolve(${settle}).then(() => ${probeCall('downloads')} ?? 0)`,
        awaitPromise: true,
        returnByValue: true,
      },
      {timeout: SETTLE_CAP_MS * cpu + 2_000, signal},
    )
    .then(response => {
      const downloads: unknown = response.result.value;
      if (typeof downloads === 'number') {
        page.downloadsExpected += downloads;
      }
    })
    .catch(() => undefined);
}

function finish(
  page: Page,
  urlBefore: string,
  result: SettleResult,
  committed: boolean,
  options: SettleOptions,
): SettleResult {
  if (result.dialog && options.navigationMustFinish && !committed) {
    // The dialog pauses the old document: the navigation waits behind it (and an
    // alert() loop reopens one as soon as Chrome closes the last), so it did not happen.
    // Stop it, so that it does not happen later either (it would once the dialogs are answered).
    void page.session.trySend('Page.stopLoading');
    const {type, message} = result.dialog;
    throw new Error(
      `${/^[aeiou]/.test(type) ? 'An' : 'A'} ${type} dialog ("${message}") is open on the page and holds the navigation back, so the page did not navigate. Call handle_dialog, then retry`,
    );
  }
  if (page.url !== urlBefore) {
    result.navigatedToUrl = page.url;
  }
  return result;
}

/**
 * Runs a command that starts a navigation of the main frame (reload, history
 * step, …) and waits for the new document: the command's answer means the
 * navigation is under way.
 */
export async function runNavigation(
  page: Page,
  send: () => Promise<unknown>,
  options: SettleOptions = {},
): Promise<SettleResult> {
  const {settle} = await runAndSettle(
    page,
    async watcher => {
      await send();
      watcher.started.resolve();
    },
    {navigationMustFinish: true, waitForStableDom: false, ...options},
  );
  return settle;
}
