/**
 * Reading and restoring a browser context's login state: its cookies, and
 * the localStorage and sessionStorage of the origins its pages have open.
 */
import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {debug} from '../../util/logger.js';
import type {Browser} from '../core/Browser.js';
import type {Page} from '../core/Page.js';
import {cookieToParam, cookieToState, type StateOrigin, type StorageItem, type StorageState} from './storageFormat.js';
import {writeLocalStorage} from './storageWriter.js';

/** Bound of one storage read; a page stuck on a dialog must not hold the save up. */
const STORAGE_READ_TIMEOUT_MS = 5_000;

/** What load_storage_state applied. */
export interface StorageLoadReport {
  cookies: number;
  localStorage: {origins: number; items: number};
  /** Seeded into the tab the tool acted on: now for frames already there, else when it opens the origin. */
  sessionStorage: {origins: number; items: number};
}

function contextParams(page: Page): {browserContextId?: string} {
  return page.browserContextId ? {browserContextId: page.browserContextId} : {};
}

/** Security origins of the frames a session hosts (http and https only: other schemes have no shareable storage). */
async function frameOrigins(session: CdpSession): Promise<string[] | undefined> {
  const result = await session.trySend('Page.getFrameTree', {}, STORAGE_READ_TIMEOUT_MS);
  if (!result) {
    return undefined;
  }
  const origins: string[] = [];
  const walk = (tree: Protocol.Page.FrameTree) => {
    const origin = tree.frame.securityOrigin;
    if (/^https?:\/\//.test(origin) && !origins.includes(origin)) {
      origins.push(origin);
    }
    tree.childFrames?.forEach(walk);
  };
  walk(result.frameTree);
  return origins;
}

/** The items of one storage area, or undefined when this session has no frame of the origin. */
async function readArea(session: CdpSession, origin: string, local: boolean): Promise<StorageItem[] | undefined> {
  const result = await session.trySend(
    'DOMStorage.getDOMStorageItems',
    {storageId: {securityOrigin: origin, isLocalStorage: local}},
    STORAGE_READ_TIMEOUT_MS,
  );
  return result?.entries.map(([name = '', value = '']) => ({name, value}));
}

/**
 * The state of `page`'s browser context: all its cookies, and the storage of
 * every origin open in its pages. sessionStorage belongs to a tab: `page`'s
 * own is taken first, other tabs fill in origins it does not have.
 * `unanswered`: the ids of pages that did not say which origins they show
 * within STORAGE_READ_TIMEOUT_MS (scripts that never yield): what only they
 * hold is not in the state.
 */
export async function captureStorageState(
  browser: Browser,
  page: Page,
): Promise<{state: StorageState; unanswered: number[]}> {
  const {cookies} = await browser.connection.send('Storage.getCookies', contextParams(page));
  const pages = [page, ...browser.pages().filter(p => p !== page && p.browserContextId === page.browserContextId)];
  const byOrigin = new Map<string, {local?: StorageItem[]; session?: StorageItem[]}>();
  const unanswered = new Set<number>();
  for (const p of pages) {
    for (const session of [p.session, ...p.frames.oopifSessions()]) {
      const open = await frameOrigins(session);
      if (!open) {
        unanswered.add(p.id);
      }
      for (const origin of open ?? []) {
        const entry = byOrigin.get(origin) ?? {};
        byOrigin.set(origin, entry);
        entry.local ??= await readArea(session, origin, true);
        entry.session ??= await readArea(session, origin, false);
      }
    }
  }
  const origins: StateOrigin[] = [];
  for (const [origin, {local = [], session = []}] of [...byOrigin].sort(([a], [b]) => a.localeCompare(b))) {
    if (local.length || session.length) {
      origins.push({origin, localStorage: local, ...(session.length ? {sessionStorage: session} : {})});
    }
  }
  return {state: {cookies: cookies.map(cookieToState), origins}, unanswered: [...unanswered]};
}

/**
 * Restores a checked state into `page`'s browser context. localStorage is
 * written first (from a hidden helper tab, so origins no page has open get
 * theirs too), then the cookies in one command; when either fails, the
 * localStorage already written is put back, so a failed load changes nothing.
 * sessionStorage, which belongs to a tab, goes to `page`.
 */
export async function applyStorageState(browser: Browser, page: Page, state: StorageState): Promise<StorageLoadReport> {
  const local = state.origins.filter(o => o.localStorage.length > 0);
  const cookies = state.cookies.map(cookieToParam);
  const setCookies = async () => {
    if (cookies.length) {
      await browser.connection.send('Storage.setCookies', {cookies, ...contextParams(page)});
    }
  };
  if (local.length) {
    await browser.withInternalPage(page.browserContextId, session => writeLocalStorage(session, local, setCookies));
  } else {
    await setCookies();
  }
  const seeded = state.origins.filter(o => o.sessionStorage?.length);
  for (const origin of seeded) {
    await seedSessionStorage(page, origin.origin, origin.sessionStorage ?? []);
  }
  return {
    cookies: cookies.length,
    localStorage: {origins: local.length, items: local.reduce((n, o) => n + o.localStorage.length, 0)},
    sessionStorage: {origins: seeded.length, items: seeded.reduce((n, o) => n + (o.sessionStorage?.length ?? 0), 0)},
  };
}

/** Sets sessionStorage items in the frames of `page` that show `origin` now. */
async function setInOpenFrames(page: Page, origin: string, items: StorageItem[]): Promise<void> {
  for (const session of [page.session, ...page.frames.oopifSessions()]) {
    if (!(await frameOrigins(session))?.includes(origin)) {
      continue;
    }
    for (const {name, value} of items) {
      await session.send('DOMStorage.setDOMStorageItem', {
        storageId: {securityOrigin: origin, isLocalStorage: false},
        key: name,
        value,
      });
    }
  }
}

/**
 * sessionStorage can only be written from a document of its origin in its
 * tab: frames already there get the items now; otherwise a script set for the
 * tab's next documents writes them when the origin loads, and is removed once
 * the tab's main frame has been there.
 */
async function seedSessionStorage(page: Page, origin: string, items: StorageItem[]): Promise<void> {
  await setInOpenFrames(page, origin, items);
  if (page.url.startsWith(`${origin}/`)) {
    return;
  }
  const entries = JSON.stringify(items.map(i => [i.name, i.value]));
  const source = `if (location.origin === ${JSON.stringify(origin)}) { try { for (const [k, v] of ${entries}) sessionStorage.setItem(k, v); } catch {} }`;
  const {identifier} = await page.session.send('Page.addScriptToEvaluateOnNewDocument', {source});
  const done = () => {
    off();
    offDetached();
    void page.session.trySend('Page.removeScriptToEvaluateOnNewDocument', {identifier});
  };
  const off = page.session.on('Page.frameNavigated', ({frame}) => {
    if (frame.parentId === undefined && frame.securityOrigin === origin) {
      done();
    }
  });
  const offDetached = page.session.onDetached(() => off());
  debug(`sessionStorage of ${origin} waits for page ${page.id} to open it`);
}
