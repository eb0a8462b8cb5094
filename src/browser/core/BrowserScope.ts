import {errorMessage} from '../../util/async.js';
import {trackLive} from '../../util/liveObjects.js';
import {debug} from '../../util/logger.js';
import type {PathSandbox} from '../../util/sandbox.js';
import {CallDownloads} from '../downloads/callDownloads.js';
import type {DownloadRecord} from '../downloads/downloads.js';
import type {Browser, PageOwner} from './Browser.js';
import type {Page} from './Page.js';
import {resizeContent} from './window.js';

/** Scope ids are process-wide, like page ids. */
let nextOwnerId = 1;

export interface ScopeOptions {
  /**
   * Work in the browser's default context (the stdio client, --sharedContext,
   * a user profile) instead of a fresh context of the session's own.
   */
  defaultContext: boolean;
  /** Contexts this session had on an earlier connection to the same browser: taken over when they still exist. */
  previous?: ScopeContexts;
  /** Content size of the session's first page (--viewport), when the scope opens one. */
  viewport?: {width: number; height: number};
  /** The session's own downloads folder: the contexts it creates download there (else into --downloadsDir). */
  downloadsDir?: string;
}

/** The contexts a scope owns, by name (undefined: its main one). */
export type ScopeContexts = Array<{id: string; name: string | undefined}>;

/**
 * One MCP session's view of the browser: its pages only, its selected page,
 * its main browser context (own cookies, storage, cache, permissions) unless
 * it shares the default one, and the named isolated contexts it opened
 * (`new_page` isolatedContext names are per session). Closing the scope
 * closes its contexts with their pages, and the pages it opened elsewhere.
 */
export class BrowserScope implements PageOwner {
  readonly ownerId = nextOwnerId++;
  /** The session's own context; undefined when it works in the default context. */
  #mainContext: string | undefined;
  readonly #named = new Map<string, string>();
  /** Pages this scope opened in contexts it does not own (closed with the scope). */
  readonly #opened = new Set<Page>();
  #selected: Page | undefined;
  #selectionNote: string | undefined;
  #closed = false;

  private constructor(
    readonly browser: Browser,
    /** Where the contexts this scope creates download to (undefined: --downloadsDir). */
    readonly downloadsDir: string | undefined,
  ) {
    trackLive('browserScope', this);
  }

  /** Registers the scope with the browser and makes sure it has a page to act on. */
  static async open(browser: Browser, options: ScopeOptions): Promise<BrowserScope> {
    const scope = new BrowserScope(browser, options.downloadsDir);
    browser.addOwner(scope, {defaultContext: options.defaultContext});
    try {
      await scope.#init(options);
    } catch (error) {
      await scope.close();
      throw new Error(`Could not set up a browser context for this session: ${errorMessage(error)}`, {cause: error});
    }
    return scope;
  }

  async #init(options: ScopeOptions): Promise<void> {
    const previous = options.previous ?? [];
    const adopted = new Set(await this.browser.adoptContexts(this.ownerId, previous, this.downloadsDir));
    for (const {id, name} of previous) {
      if (!adopted.has(id)) {
        continue;
      }
      if (name === undefined) {
        this.#mainContext = id;
      } else {
        this.#named.set(name, id);
      }
    }
    if (!options.defaultContext && this.#mainContext === undefined) {
      this.#mainContext = await this.browser.createContext(this.ownerId, undefined, this.downloadsDir);
    }
    const defaultOwner = this.browser.isDefaultOwner(this);
    // The default-context owner has the pages Chrome started with (or none, as before sessions existed).
    if (!defaultOwner && this.pages().length === 0) {
      const page = await this.browser.openPage(this.ownerId, {browserContextId: this.#mainContext});
      if (!this.#mainContext) {
        this.#opened.add(page);
      }
      if (options.viewport) {
        await resizeContent(
          this.browser.connection,
          page.targetId,
          options.viewport.width,
          options.viewport.height,
        ).catch((error: unknown) => debug('could not apply --viewport to the session page', error));
      }
    }
    this.#selected = this.pages()[0];
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** What a later scope on a new connection to the same browser may take over. */
  contexts(): ScopeContexts {
    return [
      ...(this.#mainContext ? [{id: this.#mainContext, name: undefined}] : []),
      ...[...this.#named].map(([name, id]) => ({id, name})),
    ];
  }

  /**
   * Whether a download is this session's: begun by one of its pages (open or
   * closed since), or, for the session of the default context, by a frame
   * no page is known for. Other sessions' file names stay their business.
   */
  ownsDownload(record: DownloadRecord): boolean {
    return record.ownerId === undefined ? this.browser.isDefaultOwner(this) : record.ownerId === this.ownerId;
  }

  /** Starts the downloads bookkeeping of one call of this session (--downloadsDir judged against its roots). */
  watchDownloads(files: PathSandbox): Promise<CallDownloads> {
    return CallDownloads.begin(this.browser.downloads, record => this.ownsDownload(record), files);
  }

  /** Where this session's downloads go: its own folder, or --downloadsDir (undefined while denied). */
  downloadsFolder(): string | undefined {
    return this.browser.downloads.folderOf(this.#mainContext);
  }

  /** This session's downloads, oldest first. */
  downloads(): DownloadRecord[] {
    return this.browser.downloads.list().filter(r => this.ownsDownload(r));
  }

  /** This session's open pages in id order. */
  pages(): Page[] {
    return this.browser.pagesOf(this.ownerId);
  }

  /** The page tools act on when no pageId is given. */
  getSelectedPage(): Page {
    if (this.#selected && !this.#selected.closed && this.#selected.ownerId === this.ownerId) {
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
    const page = this.#selected;
    return page && !page.closed && page.ownerId === this.ownerId ? page : undefined;
  }

  getPageById(id: number): Page {
    const pages = this.pages();
    const page = pages.find(p => p.id === id);
    if (page) {
      return page;
    }
    this.refuseForeignPage(id);
    throw new Error(`No page found with id ${id}. ${openPagesText(pages)} Call list_pages to see them.`);
  }

  /**
   * Throws when `id` is another session's page: said before anything else a
   * tool would answer about the id (close_page's last-page note included).
   * Only that it is not ours: another session's page stays its business.
   */
  refuseForeignPage(id: number): void {
    if (this.browser.pages().some(p => p.id === id && p.ownerId !== this.ownerId)) {
      throw new Error(
        `Page ${id} is not a page of this MCP session (the pages of other sessions cannot be used). ${openPagesText(this.pages())} Call list_pages to see this session's pages.`,
      );
    }
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

  /** Opens and selects a page in the session's context, or in one of its named isolated contexts. */
  async newPage(options: {background?: boolean; isolatedContext?: string}): Promise<Page> {
    let browserContextId = this.#mainContext;
    if (options.isolatedContext) {
      browserContextId = this.#named.get(options.isolatedContext);
      if (!browserContextId) {
        browserContextId = await this.browser.createContext(this.ownerId, options.isolatedContext, this.downloadsDir);
        this.#named.set(options.isolatedContext, browserContextId);
      }
    }
    const page = await this.browser.openPage(this.ownerId, {browserContextId, background: options.background});
    if (!browserContextId) {
      this.#opened.add(page);
    }
    this.#selected = page;
    return page;
  }

  async closePage(page: Page): Promise<void> {
    await this.browser.closePage(page);
  }

  /** @internal the browser tells us a page of ours went away. */
  pageRemoved(page: Page): void {
    this.#opened.delete(page);
    if (this.#selected !== page) {
      return;
    }
    this.#selected = undefined;
    const next = this.pages()[0];
    if (next) {
      this.#selected = next;
      this.#selectionNote = `Note: the previously selected page was closed. Page ${next.id} is now selected.`;
    }
  }

  /**
   * Ends the session's hold on the browser: its contexts are disposed (with
   * their pages, cookies and storage) and the pages it opened in the default
   * context are closed. Pages it only took over (a user's own tabs) stay open.
   */
  async close(): Promise<void> {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    const contexts = this.contexts().map(c => c.id);
    const opened = [...this.#opened];
    this.browser.removeOwner(this);
    if (!this.browser.connected) {
      return;
    }
    const results = await Promise.allSettled([
      ...contexts.map(id => this.browser.disposeContext(id)),
      ...opened.filter(p => !p.closed).map(p => this.browser.closePage(p)),
    ]);
    for (const result of results) {
      if (result.status === 'rejected') {
        debug('closing a session context or page failed', errorMessage(result.reason));
      }
    }
  }
}

function openPagesText(pages: Page[]): string {
  return `Open pages: ${pages.length ? pages.map(p => p.id).join(', ') : 'none'}.`;
}
