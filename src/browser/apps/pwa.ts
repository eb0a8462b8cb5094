/**
 * Progressive Web Apps through the `PWA` domain, which Chrome offers only
 * over its debugging pipe: so only for a Chrome this server launched.
 */
import type {CdpConnection} from '../../cdp/CdpConnection.js';
import {CdpProtocolError} from '../../cdp/errors.js';
import {sleep} from '../../util/async.js';
import type {Browser} from '../core/Browser.js';
import type {Page} from '../core/Page.js';
import {pagesOfTab} from '../core/tabs.js';

/**
 * Chrome answers PWA.uninstall before it has closed the app's windows; the
 * page list printed with the answer must not show them (the reference's does
 * not), so uninstall waits for them, this long at most.
 */
const APP_WINDOWS_CLOSE_MS = 2_000;
const APP_WINDOWS_POLL_MS = 25;
/**
 * Bound of an install: Chrome fetches the manifest and its icons and writes
 * the app to the profile first, which on a busy machine takes well over the
 * default 30 s of a command.
 */
const PWA_INSTALL_TIMEOUT_MS = 120_000;

declare module '../core/Browser.js' {
  interface BrowserSlots {
    /** The windows launch_pwa opened, per manifest id. */
    appWindows?: Map<string, Set<Page>>;
  }
}

function windowsOf(browser: Browser, manifestId: string): Set<Page> {
  const byManifest = (browser.slots.appWindows ??= new Map<string, Set<Page>>());
  let pages = byManifest.get(manifestId);
  if (!pages) {
    pages = new Set();
    byManifest.set(manifestId, pages);
  }
  return pages;
}

/** Chrome's refusal worded as the reference words it (`Protocol error (PWA.install): …`). */
async function refusal<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof CdpProtocolError) {
      throw new Error(`Protocol error (${error.method}): ${error.protocolMessage}`, {cause: error});
    }
    throw error;
  }
}

/** The connection, when it is the launched Chrome's debugging pipe (Chrome offers PWA nowhere else). */
function pipeOf(browser: Browser): CdpConnection {
  if (!browser.endpoint.transport.pipe) {
    throw new Error(
      'PWA tools need a Chrome this server launches (Chrome offers them over its debugging pipe only): restart without --browserUrl/--wsEndpoint/--autoConnect.',
    );
  }
  return browser.connection;
}

export async function installPwa(
  browser: Browser,
  manifestId: string,
  installUrlOrBundleUrl: string,
  displayMode: 'standalone' | 'browser' | undefined,
): Promise<void> {
  const pipe = pipeOf(browser);
  await refusal(pipe.send('PWA.install', {manifestId, installUrlOrBundleUrl}, undefined, PWA_INSTALL_TIMEOUT_MS));
  if (displayMode) {
    // Apps installed over CDP open in a browser tab until told otherwise.
    await refusal(pipe.send('PWA.changeAppUserSettings', {manifestId, displayMode}));
  }
}

export async function uninstallPwa(browser: Browser, manifestId: string): Promise<void> {
  await refusal(pipeOf(browser).send('PWA.uninstall', {manifestId}));
  const windows = windowsOf(browser, manifestId);
  const deadline = Date.now() + APP_WINDOWS_CLOSE_MS;
  while ([...windows].some(page => !page.closed) && Date.now() < deadline) {
    await sleep(APP_WINDOWS_POLL_MS);
  }
  windows.clear();
}

/** Opens the app (at `url` when given) and returns its page once it is set up. */
export async function launchPwa(browser: Browser, manifestId: string, url: string | undefined): Promise<Page> {
  const {targetId} = await refusal(pipeOf(browser).send('PWA.launch', {manifestId, ...(url ? {url} : {})}));
  // Chrome answers with the app window's tab target; the page is the tab's child.
  const {targetInfo} = await browser.connection.send('Target.getTargetInfo', {targetId});
  const [pageTargetId = targetId] = targetInfo.type === 'tab' ? await pagesOfTab(browser.connection, targetId) : [];
  const page = await browser.pageForTarget(pageTargetId);
  windowsOf(browser, manifestId).add(page);
  await appLoaded(page);
  return page;
}

/** Bound of waiting for a launched app window's first document (the reference's navigation default). */
const APP_LOAD_TIMEOUT_MS = 10_000;

/**
 * Waits until the app window shows its document: a window Chrome has just
 * opened may not have committed its navigation yet (on a busy machine it
 * answers with a blank URL). As the reference, a window that does not load
 * within the bound is returned as it is.
 */
async function appLoaded(page: Page): Promise<void> {
  const deadline = Date.now() + APP_LOAD_TIMEOUT_MS;
  const loaded = () =>
    page.closed || (page.url !== '' && page.url !== 'about:blank' && page.loadedLoaders.has(page.loaderId));
  while (!loaded() && Date.now() < deadline) {
    await sleep(APP_WINDOWS_POLL_MS);
  }
}

export interface OsAppState {
  badgeCount: number;
  fileHandlers: unknown[];
}

export async function osAppState(browser: Browser, manifestId: string): Promise<OsAppState> {
  const {badgeCount, fileHandlers} = await refusal(pipeOf(browser).send('PWA.getOsAppState', {manifestId}));
  return {badgeCount, fileHandlers};
}
