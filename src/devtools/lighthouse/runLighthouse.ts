import type {Page} from '../../browser/core/Page.js';
import {reapplyEmulation} from '../../browser/emulation/emulatePage.js';
import {errorMessage, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import type {ProgressReporter} from '../../util/progress.js';
import {type Lhr, type LighthouseBundle, type LighthouseFlags, type LighthousePage, loadLighthouse} from './bundle.js';
import {LighthouseSessions} from './LighthouseSession.js';

export type AuditMode = 'navigation' | 'snapshot';
export type AuditDevice = 'desktop' | 'mobile';

/** What lighthouse_audit audits (performance has its own tools: traces). */
export const LIGHTHOUSE_CATEGORIES = ['accessibility', 'seo', 'best-practices', 'agentic-browsing'];
/** Lighthouse's own bound on the audited page load (the reference's value). */
const MAX_WAIT_FOR_LOAD_MS = 30_000;
/** Bound of a whole run: the page load above plus gathering and auditing. */
export const LIGHTHOUSE_RUN_TIMEOUT_MS = 120_000;
/** Progress messages are at most this frequent (Lighthouse reports dozens of steps). */
const PROGRESS_INTERVAL_MS = 250;
/** How often the audited page is checked for what stops an audit (closed, crashed, a dialog). */
const PAGE_CHECK_INTERVAL_MS = 50;
/**
 * A dialog open this long stops the audit (Lighthouse answers dialogs in
 * navigation mode within milliseconds; in snapshot mode the page is stuck).
 */
const DIALOG_STOP_MS = 500;

export interface LighthouseRunOptions {
  mode: AuditMode;
  device: AuditDevice;
  timeoutMs?: number;
  progress?: ProgressReporter;
}

export interface LighthouseRun {
  lhr: Lhr;
  /** The report in Lighthouse's json and html formats. */
  reports: {json: string; html: string};
  /** The audit navigated the page (navigation mode reloads it), so snapshot uids are stale. */
  navigated: boolean;
}

/** The flags the reference passes: four categories, both report formats, and the device preset. */
export function lighthouseFlags(bundle: LighthouseBundle, device: AuditDevice): LighthouseFlags {
  return {
    onlyCategories: LIGHTHOUSE_CATEGORIES,
    output: ['json', 'html'],
    maxWaitForLoad: MAX_WAIT_FOR_LOAD_MS,
    formFactor: device,
    screenEmulation: {...bundle.screenEmulationMetrics[device]},
    emulatedUserAgent: bundle.userAgents[device],
    // Lighthouse's own log goes to our logger (status lines also become progress).
    logLevel: 'silent',
  };
}

/**
 * Runs Lighthouse on `page` over our own CDP connection: Lighthouse gets a
 * page adapter whose session is a second flat session to the tab, so its
 * domain state (enables, disables, detach) never touches ours. Lighthouse
 * emulates the device and (in navigation mode) reloads the page; afterwards
 * its sessions are detached and the page's own emulation is applied again,
 * on every path.
 */
export async function runLighthouse(page: Page, options: LighthouseRunOptions): Promise<LighthouseRun> {
  const report = throttledProgress(options.progress);
  report('Loading Lighthouse', true);
  const lighthouse = await loadLighthouse();
  const flags = lighthouseFlags(lighthouse, options.device);
  const sessions = new LighthouseSessions(page.session.connection);
  const lhPage: LighthousePage = {
    url: () => page.url,
    target: () => ({createCDPSession: () => sessions.attach(page)}),
  };
  const loaderBefore = page.loaderId;
  const stopFollowing = followLighthouseLog(lighthouse, report);
  const timeoutMs = options.timeoutMs ?? LIGHTHOUSE_RUN_TIMEOUT_MS;
  const watcher = watchPage(page);
  let result: {lhr: Lhr} | undefined;
  let restoreError: unknown;
  try {
    report(`Running Lighthouse (${options.mode}, ${options.device})`, true);
    const run =
      options.mode === 'navigation'
        ? lighthouse.navigation(lhPage, page.url, {flags})
        : lighthouse.snapshot(lhPage, {flags});
    run.catch(error => debug('Lighthouse run ended with', errorMessage(error)));
    result = await withTimeout(
      Promise.race([run, watcher.stopped]),
      timeoutMs,
      `Lighthouse did not finish within ${timeoutMs / 1000} s; the audit was stopped. Check that the page loads (navigate_page), or try mode "snapshot".`,
    );
  } finally {
    watcher.dispose();
    stopFollowing();
    // Detaching also ends a run that timed out: its commands fail from here on.
    await sessions.dispose();
    if (!page.closed) {
      report('Restoring the page state', true);
      // Reported below, unless the audit failed: then its own error is the one to see.
      await reapplyEmulation(page).catch((error: unknown) => (restoreError = error));
    }
  }
  if (restoreError !== undefined) {
    throw new Error(
      `Lighthouse finished, but the page's emulation could not be restored (${errorMessage(restoreError)}). Call emulate to set it again.`,
      {cause: restoreError},
    );
  }
  if (!result) {
    throw new Error('Lighthouse audit failed.');
  }
  report('Writing reports', true);
  const {lhr} = result;
  return {
    lhr,
    reports: {json: lighthouse.generateReport(lhr, 'json'), html: lighthouse.generateReport(lhr, 'html')},
    navigated: page.loaderId !== loaderBefore,
  };
}

/** Lighthouse's status lines become progress, its warnings go to the debug log, until the returned function is called. */
function followLighthouseLog(lighthouse: LighthouseBundle, report: (message: string) => void): () => void {
  const logger = lighthouse.lighthouseLogger;
  const onStatus = ([, message]: unknown[]) => typeof message === 'string' && report(message);
  const onWarning = (args: unknown[]) => debug('Lighthouse warning:', ...args);
  logger.events.on('status', onStatus);
  logger.events.on('warning', onWarning);
  return () => {
    logger.events.off('status', onStatus);
    logger.events.off('warning', onWarning);
  };
}

/** Rejects `stopped` when the page can no longer be audited: it closed, crashed or shows a dialog. */
function watchPage(page: Page): {stopped: Promise<never>; dispose(): void} {
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<never>((_, reject) => {
    let dialogSince: number | undefined;
    timer = setInterval(() => {
      const now = Date.now();
      dialogSince = page.dialog ? (dialogSince ?? now) : undefined;
      if (page.closed) {
        reject(new Error('The page closed during the Lighthouse audit; nothing was audited.'));
      } else if (page.crashed) {
        reject(new Error('The page crashed during the Lighthouse audit. Reload it with navigate_page, then retry.'));
      } else if (page.dialog && dialogSince !== undefined && now - dialogSince >= DIALOG_STOP_MS) {
        reject(
          new PageQuoteError(
            `The page opened a ${page.dialog.type} dialog ("${page.dialog.message}") during the Lighthouse audit, which stopped it. Answer it with handle_dialog, then retry.`,
          ),
        );
      }
    }, PAGE_CHECK_INTERVAL_MS);
  });
  stopped.catch(() => {});
  return {stopped, dispose: () => clearInterval(timer)};
}

/**
 * Forwards our own steps always and Lighthouse's status lines at most once per
 * interval (a burst of them shows its first).
 */
function throttledProgress(progress: ProgressReporter | undefined): (message: string, always?: boolean) => void {
  let last = 0;
  let lastMessage = '';
  return (message, always = false) => {
    debug('lighthouse:', message);
    const now = Date.now();
    if (!progress || message === lastMessage || (!always && now - last < PROGRESS_INTERVAL_MS)) {
      return;
    }
    last = now;
    lastMessage = message;
    progress(message);
  };
}
