import {abortable, errorMessage, throwIfCancelled, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import type {ProgressReporter} from '../../util/progress.js';
import {cpuSlowdown, navigationSlowdown} from '../emulation/emulationState.js';
import {type DialogPolicy, MAX_ANSWERED_DIALOGS, NavigationWatcher} from './navigationWatcher.js';
import type {OpenDialog, Page} from './Page.js';
import {capitalize, withArticle} from './pageGuard.js';
import {probeCall} from './probe.js';

export const NAVIGATION_TIMEOUT_MS = 10_000;
/**
 * How long the settle wait follows chains of work the action's work started
 * (a timer that re-arms itself, an animation loop, an interval): see probe.ts.
 */
const CHAIN_CAP_MS = 500;
/** Upper bound of the DOM-settle wait. */
const SETTLE_CAP_MS = 3_000;
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

export interface SettleOptions {
  /** Bound of a navigation the action starts. */
  timeout?: number;
  /** Wait for the DOM to stop changing (default true). */
  waitForStableDom?: boolean;
  /**
   * The page's mutation mark (page.markMutations()), when the caller asked
   * for it already, alongside its own questions: then its action waits for
   * it before it acts on the page (the input, a script that changes it), and
   * its first questions go with it instead of after it.
   */
  mark?: Promise<number | undefined>;
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
  const watcher = watchAction(page, result, options);
  try {
    const stable = options.waitForStableDom !== false;
    const asked = stable && options.mark === undefined ? await page.markMutations() : undefined;
    const crashed = watcher.crashed.promise.then(error => Promise.reject(error));
    crashed.catch(() => {});
    const outcome = await act(action, watcher, crashed, signal);
    if (outcome.kind === 'dialog') {
      result.dialog = outcome.d;
      return {value: undefined, settle: finish(page, urlBefore, result, watcher, options)};
    }
    // The caller's mark was answered before its action acted.
    const mark = stable && options.mark !== undefined ? await options.mark : asked;
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
      await awaitNewDocument(watcher, crashed, navTimeout, result, options);
    }
    return {value: outcome.v, settle: finish(page, urlBefore, result, watcher, options)};
  } finally {
    watcher.dispose();
  }
}

/** The action's watcher: every dialog it answers by the policy goes into `result` (and to `onDialogHandled`). */
function watchAction(page: Page, result: SettleResult, options: SettleOptions): NavigationWatcher {
  return new NavigationWatcher(
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
}

/**
 * Runs the action until it ends or a dialog opens: the action itself may
 * block on a dialog it opened (Runtime.evaluate and Input.dispatch* do not
 * answer while an alert is up), so stop waiting then. A crash rejects.
 */
async function act<T>(
  action: (watcher: NavigationWatcher) => Promise<T>,
  watcher: NavigationWatcher,
  crashed: Promise<never>,
  signal: AbortSignal | undefined,
): Promise<{kind: 'done'; v: T} | {kind: 'dialog'; d: OpenDialog}> {
  const actionPromise = abortable(action(watcher), signal);
  const outcome = await Promise.race([
    actionPromise.then(v => ({kind: 'done' as const, v})),
    watcher.dialog.promise.then(d => ({kind: 'dialog' as const, d})),
    crashed,
  ]);
  if (outcome.kind === 'dialog') {
    actionPromise.catch(error => debug('action settled after dialog', errorMessage(error)));
  }
  return outcome;
}

/**
 * Waits (up to `navTimeout`) for the document of the navigation the action
 * started to load, unless a dialog opens first (it goes into `result`). A
 * navigation that does not finish throws for navigate_page, else is logged.
 */
async function awaitNewDocument(
  watcher: NavigationWatcher,
  crashed: Promise<never>,
  navTimeout: number,
  result: SettleResult,
  options: SettleOptions,
): Promise<void> {
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
    options.signal,
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
  watcher: NavigationWatcher,
  options: SettleOptions,
): SettleResult {
  if (result.dialog && watcher.dialogLoop) {
    const {type, message} = result.dialog;
    throw new Error(
      `The page opens dialogs in a loop: ${MAX_ANSWERED_DIALOGS} were answered during this call and the next, ${withArticle(type)} ("${message}"), is left open, which pauses the page's scripts (so the loop stops costing the other pages). Answer it with handle_dialog (the loop will likely open another), or stop the page with navigate_page or close_page.`,
    );
  }
  if (result.dialog && options.navigationMustFinish && !watcher.committed) {
    // The dialog pauses the old document: the navigation waits behind it (and an
    // alert() loop reopens one as soon as Chrome closes the last), so it did not happen.
    // Stop it, so that it does not happen later either (it would once the dialogs are answered).
    void page.session.trySend('Page.stopLoading');
    const {type, message} = result.dialog;
    throw new Error(
      `${capitalize(withArticle(type))} dialog ("${message}") is open on the page and holds the navigation back, so the page did not navigate. Call handle_dialog, then retry`,
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
