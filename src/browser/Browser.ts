import type {Protocol} from '../../protocol/index.js';
import type {BrowserEndpoint} from '../cdp/browserEndpoint.js';
import {CdpConnection, type CdpSession} from '../cdp/CdpConnection.js';
import {DEFAULT_DOWNLOADS_DIR} from '../cli/flagTable.js';
import {type Deferred, deferred, withTimeout} from '../util/async.js';
import {debug} from '../util/logger.js';
import {canonicalPath} from '../util/sandbox.js';
import {DownloadTracker, type FolderCheck} from './downloads.js';
import {ExtensionWorkers} from './extensionWorkers.js';
import {BrowserMocks} from './networkMocks.js';
import {Page} from './Page.js';
import {UrlPolicy} from './urlPolicy.js';

/** Where downloads go and how their folder is checked against the allowed roots. */
export interface DownloadOptions {
  dir: string;
  /** By default any folder that can be resolved. */
  check?: FolderCheck;
}

/** The check when no sandbox is given (embedding, tests): any existing or creatable folder. */
async function canonicalFolder(dir: string): Promise<string> {
  const path = await canonicalPath(dir);
  if (!path) {
    throw new Error(`cannot resolve ${dir}`);
  }
  return path;
}

/** Process-wide page id counter: ids are never reused, not even across reconnects. */
let nextPageId = 1;

/**
 * The URL our own helper tabs open with (writing localStorage of origins no
 * page has open): they are never tracked as pages nor shown to tools.
 */
const INTERNAL_PAGE_URL = 'about:blank?cdp-mcp-internal';
/** Bound of a helper tab's attach. */
const INTERNAL_ATTACH_TIMEOUT_MS = 10_000;

/** Browser-level worker targets; they load URLs on their own. */
const WORKER_TYPES = new Set(['service_worker', 'shared_worker', 'worker']);

/** Targets that are browser chrome rather than web content. */
function isHiddenUrl(url: string): boolean {
  return (
    (url.startsWith('chrome://') && !url.startsWith('chrome://newtab')) ||
    url.startsWith('chrome-untrusted://') ||
    url.startsWith('devtools://')
  );
}

/**
 * The browser we drive: one CDP connection, every page target auto-attached
 * through a flat session (paused on start, so nothing runs before we listen),
 * the selected page, and named isolated contexts.
 */
export class Browser {
  readonly #pages = new Map<string, Page>();
  readonly #waiters = new Map<string, Deferred<Page>>();
  readonly #contextNames = new Map<string, string>();
  /** Helper tabs by target id: their session once attached. */
  readonly #internal = new Map<string, Deferred<CdpSession>>();
  #selected: Page | undefined;
  #selectionNote: string | undefined;
  #disconnected = false;
  #autoContextCounter = 1;
  #defaultContextId: string | undefined;

  /** Extension service workers (shown in page lists with --categoryExtensions). */
  readonly extensionWorkers: ExtensionWorkers;
  /** Network mocks, per browser context. */
  readonly mocks: BrowserMocks;
  /** Downloads of every context, into --downloadsDir. */
  readonly downloads: DownloadTracker;

  private constructor(
    readonly connection: CdpConnection,
    readonly endpoint: BrowserEndpoint,
    readonly urlPolicy: UrlPolicy,
    downloads: DownloadOptions,
  ) {
    this.extensionWorkers = new ExtensionWorkers(connection);
    this.mocks = new BrowserMocks(urlPolicy);
    this.downloads = new DownloadTracker(connection, downloads.dir, downloads.check ?? canonicalFolder, frameId =>
      this.#pageOfFrame(frameId),
    );
  }

  #pageOfFrame(frameId: string): Page | undefined {
    return this.pages().find(p => p.mainFrameId === frameId || p.frames.oopif(frameId) !== undefined);
  }

  static async connect(
    endpoint: BrowserEndpoint,
    wsHeaders?: Record<string, string>,
    urlPolicy: UrlPolicy = new UrlPolicy([], []),
    downloads: DownloadOptions = {dir: DEFAULT_DOWNLOADS_DIR},
  ): Promise<Browser> {
    const connection = await CdpConnection.connect(endpoint.wsUrl, wsHeaders);
    const browser = new Browser(connection, endpoint, urlPolicy, downloads);
    try {
      await browser.#init();
    } catch (error) {
      await connection.close();
      throw error;
    }
    return browser;
  }

  get connected(): boolean {
    return !this.#disconnected && !this.connection.closed;
  }

  async #init(): Promise<void> {
    const c = this.connection;
    c.onClose(() => {
      this.#disconnected = true;
      for (const page of this.#pages.values()) {
        page.dispose();
      }
    });
    c.on('Target.attachedToTarget', params => this.#onAttached(params));
    c.on('Target.detachedFromTarget', ({sessionId, targetId}) => {
      const page = targetId
        ? this.#pages.get(targetId)
        : [...this.#pages.values()].find(p => p.session.id === sessionId);
      if (page && page.session.id === sessionId) {
        this.#removePage(page);
      }
    });
    c.on('Target.targetInfoChanged', ({targetInfo}) => {
      this.#pages.get(targetInfo.targetId)?.updateTargetInfo(targetInfo);
    });
    c.on('Target.targetDestroyed', ({targetId}) => {
      const page = this.#pages.get(targetId);
      if (page) {
        this.#removePage(page);
      }
    });
    c.on('Target.targetCrashed', ({targetId}) => {
      const page = this.#pages.get(targetId);
      if (page) {
        page.crashed = true;
      }
    });
    const contexts = await c.send('Target.getBrowserContexts').catch(() => undefined);
    this.#defaultContextId = contexts?.defaultBrowserContextId;
    await this.downloads.addContext(undefined);
    await c.send('Target.setDiscoverTargets', {discover: true});
    await c.send('Target.setAutoAttach', {autoAttach: true, waitForDebuggerOnStart: true, flatten: true});
    // Existing pages are attached by setAutoAttach; wait until they are set up.
    const {targetInfos} = await c.send('Target.getTargets');
    const pages = targetInfos.filter(t => t.type === 'page' && !isHiddenUrl(t.url));
    await Promise.all(pages.map(t => this.#waitForPage(t.targetId, 10_000).catch(() => undefined)));
    this.#selected = this.pages()[0];
  }

  #onAttached({sessionId, targetInfo, waitingForDebugger}: Protocol.Target.AttachedToTargetEvent): void {
    const c = this.connection;
    if (this.urlPolicy.active && WORKER_TYPES.has(targetInfo.type)) {
      // Workers fetch on their own: they stay attached so the URL policy applies to them.
      const session = c.session(sessionId, targetInfo.targetId, targetInfo.type);
      void Promise.all([
        session.trySend('Network.enable'),
        session
          .send('Network.emulateNetworkConditionsByRule', {matchedNetworkConditions: this.urlPolicy.rules(undefined)})
          .catch((error: unknown) => debug(`URL policy not applied to ${targetInfo.type} ${targetInfo.url}`, error)),
        waitingForDebugger ? session.trySend('Runtime.runIfWaitingForDebugger') : undefined,
      ]);
      return;
    }
    if (targetInfo.type === 'tab') {
      // Auto-attach never yields tabs (its default filter leaves them out): this is a
      // session someone on our side asked for (browser/tabs.ts), theirs to close.
      return;
    }
    if (targetInfo.type === 'page' && targetInfo.url === INTERNAL_PAGE_URL) {
      let waiter = this.#internal.get(targetInfo.targetId);
      if (!waiter) {
        waiter = deferred<CdpSession>();
        this.#internal.set(targetInfo.targetId, waiter);
      }
      waiter.resolve(c.session(sessionId, targetInfo.targetId, targetInfo.type));
      return;
    }
    const tracked = this.#pages.get(targetInfo.targetId);
    if (tracked && tracked.auxiliaryAttaches > 0 && tracked.session.id !== sessionId) {
      // A second session someone on our side asked for (DevTools' CSS model, Lighthouse): not a new page.
      tracked.auxiliaryAttaches--;
      return;
    }
    if (targetInfo.type !== 'page' || isHiddenUrl(targetInfo.url)) {
      // Not ours to drive: let it run and let go of it.
      void (async () => {
        if (waitingForDebugger) {
          await c.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
        }
        await c.send('Target.detachFromTarget', {sessionId}).catch(() => undefined);
      })();
      return;
    }
    const session = c.session(sessionId, targetInfo.targetId, targetInfo.type);
    const contextName = this.#contextNameFor(targetInfo.browserContextId);
    if (contextName) {
      void this.downloads.addContext(targetInfo.browserContextId);
    }
    const page = new Page(
      nextPageId++,
      session,
      targetInfo,
      contextName,
      this.urlPolicy,
      this.mocks.forContext(targetInfo.browserContextId),
    );
    this.#pages.set(targetInfo.targetId, page);
    void page.init(waitingForDebugger).then(() => {
      const waiter = this.#waiters.get(targetInfo.targetId);
      this.#waiters.delete(targetInfo.targetId);
      waiter?.resolve(page);
    });
    debug(`page ${page.id} attached: ${targetInfo.url}`);
  }

  #contextNameFor(browserContextId: string | undefined): string | undefined {
    if (!browserContextId || browserContextId === this.#defaultContextId || !this.#defaultContextId) {
      return undefined;
    }
    for (const [name, id] of this.#contextNames) {
      if (id === browserContextId) {
        return name;
      }
    }
    // A context created outside this server gets a generated name.
    const name = `isolated-context-${this.#autoContextCounter++}`;
    this.#contextNames.set(name, browserContextId);
    return name;
  }

  #removePage(page: Page): void {
    if (this.#pages.get(page.targetId) !== page) {
      return;
    }
    this.#pages.delete(page.targetId);
    page.dispose();
    if (this.#selected === page) {
      this.#selected = undefined;
      const next = this.pages()[0];
      if (next) {
        this.#selected = next;
        this.#selectionNote = `Note: the previously selected page was closed. Page ${next.id} is now selected.`;
      }
    }
  }

  #waitForPage(targetId: string, timeoutMs: number): Promise<Page> {
    const existing = this.#pages.get(targetId);
    if (existing) {
      return existing.ready.then(() => existing);
    }
    let waiter = this.#waiters.get(targetId);
    if (!waiter) {
      waiter = deferred<Page>();
      this.#waiters.set(targetId, waiter);
    }
    return withTimeout(waiter.promise, timeoutMs, `The new page did not attach within ${timeoutMs} ms.`);
  }

  /** Open pages in id order. */
  pages(): Page[] {
    return [...this.#pages.values()].filter(p => !p.closed).sort((a, b) => a.id - b.id);
  }

  /** The page tools act on when no pageId is given. */
  getSelectedPage(): Page {
    if (this.#selected && !this.#selected.closed) {
      return this.#selected;
    }
    const first = this.pages()[0];
    if (first) {
      this.#selected = first;
      return first;
    }
    throw new Error('No page is open. Call new_page to open one.');
  }

  findSelectedPage(): Page | undefined {
    return this.#selected && !this.#selected.closed ? this.#selected : undefined;
  }

  getPageById(id: number): Page {
    const page = this.pages().find(p => p.id === id);
    if (!page) {
      const ids = this.pages().map(p => p.id);
      throw new Error(
        `No page found with id ${id}. Open pages: ${ids.length ? ids.join(', ') : 'none'}. Call list_pages to see them.`,
      );
    }
    return page;
  }

  selectPage(page: Page): void {
    this.#selected = page;
  }

  /** One-shot note about a selection fallback, shown before the next page list. */
  takeSelectionNote(): string | undefined {
    const note = this.#selectionNote;
    this.#selectionNote = undefined;
    return note;
  }

  /** The page of a target Chrome opened itself (a launched app window), once it is set up. */
  pageForTarget(targetId: string): Promise<Page> {
    return this.#waitForPage(targetId, 10_000);
  }

  async newPage(options: {background?: boolean; isolatedContext?: string}): Promise<Page> {
    let browserContextId: string | undefined;
    if (options.isolatedContext) {
      browserContextId = this.#contextNames.get(options.isolatedContext);
      if (!browserContextId) {
        ({browserContextId} = await this.connection.send('Target.createBrowserContext', {}));
        this.#contextNames.set(options.isolatedContext, browserContextId);
        await this.downloads.addContext(browserContextId);
      }
    }
    const {targetId} = await this.connection.send('Target.createTarget', {
      url: 'about:blank',
      background: options.background ?? false,
      ...(browserContextId ? {browserContextId} : {}),
    });
    const page = await this.#waitForPage(targetId, 10_000);
    this.#selected = page;
    return page;
  }

  async closePage(page: Page): Promise<void> {
    await this.connection.send('Target.closeTarget', {targetId: page.targetId});
    this.#removePage(page);
  }

  /**
   * Runs `work` in a hidden helper tab of a browser context (paused until
   * `work` resumes it), and closes the tab afterwards whatever happens.
   */
  async withInternalPage<T>(
    browserContextId: string | undefined,
    work: (session: CdpSession) => Promise<T>,
  ): Promise<T> {
    const {targetId} = await this.connection.send('Target.createTarget', {
      url: INTERNAL_PAGE_URL,
      background: true,
      ...(browserContextId ? {browserContextId} : {}),
    });
    let waiter = this.#internal.get(targetId);
    if (!waiter) {
      waiter = deferred<CdpSession>();
      this.#internal.set(targetId, waiter);
    }
    try {
      const session = await withTimeout(
        waiter.promise,
        INTERNAL_ATTACH_TIMEOUT_MS,
        `A helper tab did not attach within ${INTERNAL_ATTACH_TIMEOUT_MS} ms.`,
      );
      return await work(session);
    } finally {
      this.#internal.delete(targetId);
      await this.connection.send('Target.closeTarget', {targetId}).catch(() => undefined);
    }
  }

  /** Whether a session is one the server drives (a page's, a frame's, a worker's, a helper tab's). */
  ownsSession(sessionId: string): boolean {
    return this.connection.findSession(sessionId) !== undefined;
  }

  /** Closes the connection; the browser itself is killed only when we launched it. */
  async close(): Promise<void> {
    await this.connection.close();
    await this.endpoint.kill();
  }
}
