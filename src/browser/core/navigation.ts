/**
 * Navigations of a page's main frame as tools ask for them: to a URL, back
 * or forward in history, or a reload, each waiting for the new document, with
 * the dialogs they trigger answered by policy and failures returned as text.
 */
import {CdpTimeoutError} from '../../cdp/errors.js';
import {abortable, CancelledError, errorMessage, TimeoutError, withTimeout} from '../../util/async.js';
import {type CallControl, NO_CALL_CONTROL} from '../../util/progress.js';
import type {DialogPolicy} from './navigationWatcher.js';
import type {OpenDialog, Page} from './Page.js';
import {defaultNavigationTimeout, runAndSettle, runNavigation, type SettleResult} from './settle.js';

/** How long a failed navigation may take to show Chrome's error page. */
const ERROR_PAGE_WAIT_MS = 1_000;

/** Navigates the main frame and waits for the new document's load. Failures come back as `error`. */
export async function navigate(
  page: Page,
  url: string,
  options: {timeout?: number; handleDialog?: DialogPolicy},
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult & {error?: string}> {
  const timeout = options.timeout ?? defaultNavigationTimeout(page);
  const {signal, progress} = control;
  if (!(await page.urlPolicy.isAllowed(url))) {
    return {error: `Navigation to ${url} is blocked by blocklist/allowlist rules`};
  }
  let handledDialog: SettleResult['handledDialog'];
  try {
    const {settle} = await runAndSettle(
      page,
      async watcher => {
        progress(`Navigating to ${url}`);
        const response = await page.session.send('Page.navigate', {url}, {timeout, signal});
        if (response.isDownload) {
          page.downloadsExpected++;
        }
        if (response.errorText) {
          // Chrome commits its error page right after: let it, so that the page
          // list shows where the tab really is (bounded; never an error itself).
          if (response.errorText !== 'net::ERR_ABORTED') {
            await abortable(
              withTimeout(watcher.finished.promise, ERROR_PAGE_WAIT_MS, 'error page').catch(() => undefined),
              signal,
            );
          }
          throw new Error(`${response.errorText} at ${url}`);
        }
        if (response.loaderId) {
          watcher.expectLoader(response.loaderId);
          watcher.started.resolve();
        }
      },
      {
        timeout,
        handleDialog: options.handleDialog,
        navigationMustFinish: true,
        waitForStableDom: false,
        onDialogHandled: (dialog, action) => (handledDialog = {dialog, action}),
        signal,
        progress,
      },
    );
    return settle;
  } catch (error) {
    if (error instanceof CancelledError) {
      throw error;
    }
    return {error: asNavigationError(error, timeout), ...(handledDialog ? {handledDialog} : {})};
  }
}

export function asNavigationError(error: unknown, timeout: number): string {
  return error instanceof TimeoutError || error instanceof CdpTimeoutError
    ? `Navigation timeout of ${timeout} ms exceeded`
    : errorMessage(error);
}

/** What navigate_page asks for. */
export type NavigationRequest =
  {type: 'url'; url: string} | {type: 'back' | 'forward'} | {type: 'reload'; ignoreCache: boolean};

export interface NavigationOptions {
  /** Bound of the navigation; defaults to the page's (emulation-aware) navigation timeout. */
  timeout?: number;
  /** How to answer a beforeunload prompt the navigation triggers. */
  beforeUnload: 'accept' | 'dismiss';
  /** Script run in every new document of this navigation before the page's own scripts. */
  initScript?: string;
}

export interface NavigationOutcome {
  /** Why the navigation failed, as the reference words it; undefined on success. */
  error?: string;
  /** The beforeunload (or other) dialog answered on the way, if any. */
  handledDialog?: {dialog: OpenDialog; action: string};
}

/** Performs one navigate_page request. Never throws for navigation failures: they come back as `error`. */
export async function performNavigation(
  page: Page,
  request: NavigationRequest,
  options: NavigationOptions,
  control: CallControl = NO_CALL_CONTROL,
): Promise<NavigationOutcome> {
  const timeout = options.timeout ?? defaultNavigationTimeout(page);
  const policy = {beforeunload: options.beforeUnload};
  const {signal, progress} = control;
  let scriptId: string | undefined;
  if (options.initScript) {
    ({identifier: scriptId} = await page.session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: options.initScript,
    }));
  }
  let handledDialog: NavigationOutcome['handledDialog'];
  const onDialogHandled = (dialog: OpenDialog, action: string) => (handledDialog = {dialog, action});
  try {
    if (request.type === 'url') {
      const result = await navigate(page, request.url, {timeout, handleDialog: policy}, control);
      handledDialog = result.handledDialog ?? handledDialog;
      return {error: result.error, handledDialog};
    }
    try {
      if (request.type === 'reload') {
        progress('Reloading the page');
        await runNavigation(
          page,
          () => page.session.send('Page.reload', {ignoreCache: request.ignoreCache}, {timeout, signal}),
          {timeout, handleDialog: policy, onDialogHandled, signal, progress},
        );
      } else {
        await historyStep(page, request.type === 'back' ? -1 : 1, timeout, onDialogHandled, control);
      }
      return {handledDialog};
    } catch (error) {
      if (error instanceof CancelledError) {
        throw error;
      }
      return {error: asNavigationError(error, timeout), handledDialog};
    }
  } finally {
    if (scriptId) {
      await page.session.trySend('Page.removeScriptToEvaluateOnNewDocument', {identifier: scriptId});
    }
  }
}

async function historyStep(
  page: Page,
  delta: -1 | 1,
  timeout: number,
  onDialogHandled: (dialog: OpenDialog, action: string) => void,
  {signal, progress}: CallControl,
): Promise<SettleResult> {
  const {currentIndex, entries} = await page.session.send('Page.getNavigationHistory');
  const entry = entries[currentIndex + delta];
  if (!entry) {
    throw new Error('History entry to navigate to not found.');
  }
  progress(`Going ${delta < 0 ? 'back' : 'forward'} to ${entry.url}`);
  // History steps always leave the page: a beforeunload prompt is accepted (as the reference).
  return runNavigation(
    page,
    () => page.session.send('Page.navigateToHistoryEntry', {entryId: entry.id}, {timeout, signal}),
    {timeout, handleDialog: {beforeunload: 'accept'}, onDialogHandled, signal, progress, commitExpected: true},
  );
}
