import type {Protocol} from '../../../protocol/index.js';
import type {BrowserEndpoint} from '../../cdp/browserEndpoint.js';
import {CdpConnection, type CdpSession} from '../../cdp/CdpConnection.js';
import {DEFAULT_DOWNLOADS_DIR} from '../../config/flagTable.js';
import {type Deferred, deferred, withTimeout} from '../../util/async.js';
import {debug} from '../../util/logger.js';
import {ExtensionWorkers} from '../apps/extensionWorkers.js';
import {canonicalFolder, type DownloadOptions, DownloadTracker} from '../downloads/downloads.js';
import {BrowserMocks} from '../network/networkMocks.js';
import {UrlPolicy} from '../network/urlPolicy.js';
import {adoptNonPage, InternalPages, letGo} from './attachedTargets.js';
import {BrowserContexts} from './browserContexts.js';
import {Page} from './Page.js';
import {DEFAULT_PAGE_BOUNDS, type PageBounds} from './pageBounds.js';
import {isPageTarget, type PageTargetOptions} from './pageTargets.js';

/** Process-wide page id counter: ids are never reused, not even across reconnects. */
let nextPageId = 1;

/** Bound of a new page attaching (and setting up) after Target.createTarget. */
const NEW_PAGE_ATTACH_MS = 10_000;
/** Bound of closing a browser context (and its pages) when a session ends. */
const DISPOSE_CONTEXT_MS = 5_000;
/** Bound of the wait, after a context is disposed, for Chrome to drop its targets. */
const CONTEXT_TARGETS_GONE_MS = 2_000;

/**
 * Who a page belongs to: an MCP session's view of the browser (BrowserScope).
 * The browser knows owners only by id and tells them when their pages go.
 */
export interface PageOwner {
  readonly ownerId: number;
  pageRemoved(page: Page): void;
}

/** Per-browser state of the features (Browser.slots). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface BrowserSlots {}

/**
 * The browser we drive: one CDP connection, every page target auto-attached
 * through a flat session (paused on start, so nothing runs before we listen),
 * the browser contexts we made or found, and who owns each page. Each MCP
 * session sees only its own pages, through its BrowserScope.
 *
 * Ownership: a page in a context a session owns is that session's; a page in
 * the default context (or one created outside this server) belongs to the
 * session that opened it, else to its opener's session, else to the
 * default-context owner (the stdio client, the first --sharedContext session).
 */
export class Browser {
  /**
   * What the features keep per browser connection (a reconnect starts afresh),
   * created by their owner on first use; each owner adds its slot's type
   * where that type lives (as PageSlots in Page.ts):
   * - `appWindows` (browser/apps/pwa.ts): the windows launch_pwa opened, per manifest id;
   * - `tracer` (devtools/trace/PerformanceTracer.ts): the performance trace running or last taken.
   */
  readonly slots: BrowserSlots = {};
  readonly #pages = new Map<string, Page>();
  readonly #waiters = new Map<string, Deferred<Page>>();
  readonly #contexts = new BrowserContexts();
  readonly #owners = new Map<number, PageOwner>();
  #defaultOwner: number | undefined;
  /** Helper tabs by target id: their session once attached. */
  readonly #internal = new InternalPages();
  #disconnected = false;

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
    readonly pageTargets: PageTargetOptions,
    readonly pageBounds: PageBounds,
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
    pageTargets: PageTargetOptions = {},
    pageBounds: PageBounds = DEFAULT_PAGE_BOUNDS,
  ): Promise<Browser> {
    const {transport} = endpoint;
    const connection = transport.pipe
      ? new CdpConnection(transport.pipe)
      : await CdpConnection.connect(transport.wsUrl, wsHeaders);
    const browser = new Browser(connection, endpoint, urlPolicy, downloads, pageTargets, pageBounds);
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
    const gone = () => {
      this.#disconnected = true;
      for (const page of this.#pages.values()) {
        page.dispose();
      }
    };
    c.onClose(gone);
    // A launched Chrome that exits is gone even before its pipe's end is read:
    // the next call relaunches it instead of answering from what it last knew.
    void this.endpoint.exited.then(gone);
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
    c.on('Target.targetCreated', ({targetInfo}) => {
      this.#contexts.targetCreated(targetInfo.targetId, targetInfo.browserContextId);
    });
    c.on('Target.targetDestroyed', ({targetId}) => {
      this.#contexts.targetDestroyed(targetId);
      const page = this.#pages.get(targetId);
      if (page) {
        this.#removePage(page);
      }
    });
    c.on('Target.targetCrashed', ({targetId, status}) => this.#pages.get(targetId)?.markCrashed(status));
    const contexts = await c.send('Target.getBrowserContexts').catch(() => undefined);
    this.#contexts.defaultId = contexts?.defaultBrowserContextId;
    await this.downloads.addContext(undefined);
    await c.send('Target.setDiscoverTargets', {discover: true});
    await c.send('Target.setAutoAttach', {autoAttach: true, waitForDebuggerOnStart: true, flatten: true});
    // Existing pages are attached by setAutoAttach; wait until they are set up.
    const {targetInfos} = await c.send('Target.getTargets');
    const pages = targetInfos.filter(t => isPageTarget(t, this.pageTargets));
    await Promise.all(pages.map(t => this.#waitForPage(t.targetId, NEW_PAGE_ATTACH_MS).catch(() => undefined)));
  }

  /** A target attached: a page of ours, or a worker, helper tab, second session or other target to route. */
  #onAttached(event: Protocol.Target.AttachedToTargetEvent): void {
    const {sessionId, targetInfo, waitingForDebugger} = event;
    if (adoptNonPage(this.connection, this.urlPolicy, this.extensionWorkers, event)) {
      return;
    }
    if (this.#internal.adopt(this.connection, event)) {
      return;
    }
    const tracked = this.#pages.get(targetInfo.targetId);
    if (tracked && tracked.auxiliaryAttaches > 0 && tracked.session.id !== sessionId) {
      // A second session someone on our side asked for (DevTools' CSS model, Lighthouse): not a new page.
      tracked.auxiliaryAttaches--;
      return;
    }
    if (!isPageTarget(targetInfo, this.pageTargets)) {
      // Not ours to drive: let it run and let go of it.
      void letGo(this.connection, sessionId, waitingForDebugger);
      return;
    }
    this.#adoptPage(event);
  }

  /** A page target of ours: tracked, set up, handed to whoever waits for it. */
  #adoptPage({sessionId, targetInfo, waitingForDebugger}: Protocol.Target.AttachedToTargetEvent): void {
    const c = this.connection;
    const session = c.session(sessionId, targetInfo.targetId, targetInfo.type);
    const contextName = this.#contexts.nameFor(targetInfo.browserContextId);
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
      this.pageBounds,
    );
    page.ownerId = this.#ownerFor(targetInfo);
    this.#pages.set(targetInfo.targetId, page);
    void page.init(waitingForDebugger).then(() => {
      const waiter = this.#waiters.get(targetInfo.targetId);
      this.#waiters.delete(targetInfo.targetId);
      waiter?.resolve(page);
    });
    debug(`page ${page.id} attached: ${targetInfo.url}`);
  }

  #ownerFor(targetInfo: Protocol.Target.TargetInfo): number | undefined {
    const context = targetInfo.browserContextId ? this.#contexts.get(targetInfo.browserContextId) : undefined;
    if (context?.ownerId !== undefined) {
      return context.ownerId;
    }
    const opener = targetInfo.openerId ? this.#pages.get(targetInfo.openerId) : undefined;
    return opener?.ownerId ?? this.#defaultOwner;
  }

  #removePage(page: Page): void {
    if (this.#pages.get(page.targetId) !== page) {
      return;
    }
    this.#pages.delete(page.targetId);
    page.dispose();
    if (page.ownerId !== undefined) {
      this.#owners.get(page.ownerId)?.pageRemoved(page);
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

  /** Open pages of every session, in id order. */
  pages(): Page[] {
    // A page that navigated to devtools:// leaves the list (without --experimentalDevtools), as it
    // would not have joined it; one on other browser chrome (chrome://crash) stays, to be reloaded.
    return [...this.#pages.values()]
      .filter(p => !p.closed && (this.pageTargets.devtools || !p.url.startsWith('devtools://')))
      .sort((a, b) => a.id - b.id);
  }

  /** Open pages of one owner, in id order. */
  pagesOf(ownerId: number): Page[] {
    return this.pages().filter(p => p.ownerId === ownerId);
  }

  /** The page of a target Chrome opened itself (a launched app window), once it is set up. */
  pageForTarget(targetId: string): Promise<Page> {
    return this.#waitForPage(targetId, NEW_PAGE_ATTACH_MS);
  }

  /**
   * Registers a session's view. With `defaultContext`, the first one becomes
   * the default-context owner and takes every page nobody owns (the pages
   * Chrome started with, tabs opened outside this server).
   */
  addOwner(owner: PageOwner, options: {defaultContext: boolean}): void {
    this.#owners.set(owner.ownerId, owner);
    if (options.defaultContext && this.#defaultOwner === undefined) {
      this.#defaultOwner = owner.ownerId;
      for (const page of this.#pages.values()) {
        const context = page.browserContextId ? this.#contexts.get(page.browserContextId) : undefined;
        if (page.ownerId === undefined && context?.ownerId === undefined) {
          page.ownerId = owner.ownerId;
        }
      }
    }
  }

  /** Whether `owner` holds the default context's unowned pages. */
  isDefaultOwner(owner: PageOwner): boolean {
    return this.#defaultOwner === owner.ownerId;
  }

  /** Forgets a session's view; its pages become nobody's (the caller closes what it made). */
  removeOwner(owner: PageOwner): void {
    this.#owners.delete(owner.ownerId);
    if (this.#defaultOwner === owner.ownerId) {
      this.#defaultOwner = undefined;
    }
    for (const page of this.#pages.values()) {
      if (page.ownerId === owner.ownerId) {
        page.ownerId = undefined;
      }
    }
    for (const context of this.#contexts.values()) {
      if (context.ownerId === owner.ownerId) {
        context.ownerId = undefined;
      }
    }
  }

  /** A new browser context (own cookies, storage, cache, permissions) owned by `ownerId`. */
  async createContext(ownerId: number, name: string | undefined, downloadsDir?: string): Promise<string> {
    const {browserContextId} = await this.connection.send('Target.createBrowserContext', {});
    this.#contexts.set(browserContextId, {ownerId, name});
    await this.downloads.addContext(browserContextId, downloadsDir);
    return browserContextId;
  }

  /**
   * Takes over contexts a session owned on an earlier connection to this
   * browser (a reconnect), with the pages in them. Returns the ids that still exist.
   */
  async adoptContexts(
    ownerId: number,
    contexts: Array<{id: string; name: string | undefined}>,
    downloadsDir?: string,
  ): Promise<string[]> {
    if (!contexts.length) {
      return [];
    }
    const {browserContextIds} = await this.connection.send('Target.getBrowserContexts');
    const alive = contexts.filter(c => browserContextIds.includes(c.id));
    for (const {id, name} of alive) {
      this.#contexts.set(id, {ownerId, name});
      await this.downloads.addContext(id, downloadsDir);
      for (const page of this.#pages.values()) {
        if (page.browserContextId === id) {
          page.ownerId = ownerId;
          page.contextName = name;
        }
      }
    }
    return alive.map(c => c.id);
  }

  /** Closes a context and every page in it. */
  async disposeContext(browserContextId: string): Promise<void> {
    this.#contexts.delete(browserContextId);
    this.mocks.forget(browserContextId);
    this.downloads.forgetContext(browserContextId);
    const gone = this.#contexts.targetsGone(browserContextId);
    try {
      await this.connection.send('Target.disposeBrowserContext', {browserContextId}, undefined, DISPOSE_CONTEXT_MS);
      // Chrome answers before it has torn down the context's tab and page
      // targets; a session that ends should leave nothing behind when its
      // close returns (the next session, a leak check, a count of targets).
      await withTimeout(gone.promise, CONTEXT_TARGETS_GONE_MS, 'targets of a disposed context').catch(() =>
        debug(`targets of disposed context ${browserContextId} still listed after ${CONTEXT_TARGETS_GONE_MS} ms`),
      );
    } finally {
      gone.cancel();
    }
  }

  /** Opens a blank page (in `browserContextId`, else the default context) owned by `ownerId`. */
  async openPage(ownerId: number, options: {browserContextId?: string; background?: boolean}): Promise<Page> {
    const {targetId} = await this.connection.send('Target.createTarget', {
      url: 'about:blank',
      background: options.background ?? false,
      ...(options.browserContextId ? {browserContextId: options.browserContextId} : {}),
    });
    const page = await this.#waitForPage(targetId, NEW_PAGE_ATTACH_MS);
    // In the default context the attach came before we knew who asked for the page.
    page.ownerId = ownerId;
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
  withInternalPage<T>(browserContextId: string | undefined, work: (session: CdpSession) => Promise<T>): Promise<T> {
    return this.#internal.run(this.connection, browserContextId, work);
  }

  /** Closes the connection; the browser itself is killed only when we launched it. */
  async close(): Promise<void> {
    await this.connection.close();
    await this.endpoint.kill();
  }
}
