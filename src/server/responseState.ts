import type {BrowserScope} from '../browser/core/BrowserScope.js';
import type {Page} from '../browser/core/Page.js';
import {defaultNavigationTimeout} from '../browser/core/settle.js';
import type {CallDownloads} from '../browser/downloads/callDownloads.js';
import type {ResponseState, ResponseWants} from '../response/ResponseBuilder.js';
import {snapshotSection} from '../snapshot/section.js';
import {abortable, following} from '../util/async.js';
import {quotesPage} from '../util/pageQuote.js';
import type {PathSandbox} from '../util/sandbox.js';

/**
 * Resolves what a finished call's response shows besides the tool's own
 * parts: the response page's emulation and open dialog, and the page list
 * and snapshot when the tool asked for them. A failure while taking the
 * snapshot becomes the response's error (the rest is still shown).
 */
export async function resolveResponseState(options: {
  scope: BrowserScope;
  page?: Page;
  wants: ResponseWants;
  files: PathSandbox;
  notes: string[];
  error?: string;
  /** Whether the error quotes the page (util/pageQuote.ts). */
  errorQuotesPage?: boolean;
  /** --categoryExtensions: extension pages apart, and the extensions' service workers. */
  extensions?: boolean;
  /** The downloads bookkeeping of the call (none: no downloads shown). */
  downloads?: CallDownloads;
  /** What the URL policy blocked from this mark on happened during the call. */
  blockedMark?: number;
  /** Stops work on the call's page when it crashes or a dialog pauses it (as the handler's). */
  guard?: <T>(work: Promise<T>) => Promise<T>;
  /** The call's: its cancellation stops the snapshot and the wait for it (the caller then answers "cancelled"). */
  signal?: AbortSignal;
}): Promise<ResponseState> {
  const {scope, page, wants} = options;
  let {error, errorQuotesPage} = options;
  let snapshot: string[] | undefined;
  if (wants.snapshot && error === undefined) {
    const guard = options.guard ?? (<T>(work: Promise<T>) => work);
    // Bounded by the snapshot's own CDP bounds (about 30 s on a page whose scripts never yield:
    // src/snapshot/engine.ts). A cancelled call stops waiting at once and frees its lane or the
    // lock; the snapshot stops too (none of its requests is sent after, those in flight are
    // dropped), as it does when the guard gives up on the page (a dialog, a crash).
    const {stop, unfollow} = following(options.signal);
    try {
      const section = snapshotSection(page ?? scope.getSelectedPage(), wants.snapshot, options.files, stop.signal);
      snapshot = await abortable(guard(section), options.signal);
    } catch (e) {
      stop.abort();
      error = e instanceof Error ? e.message : String(e);
      errorQuotesPage = quotesPage(e);
    } finally {
      unfollow();
    }
  }
  const downloads = options.downloads ? await options.downloads.collect() : [];
  return {
    notes: options.notes,
    downloads,
    blocked: options.blockedMark === undefined ? [] : blockedDuring(scope, options.blockedMark),
    emulation: page ? {state: page.emulation, navigationTimeoutMs: defaultNavigationTimeout(page)} : undefined,
    dialog: page?.dialog,
    pages: wants.pages ? await pageList(scope, options.extensions ?? false) : undefined,
    snapshot,
    error,
    errorQuotesPage,
  };
}

/** What the URL policy blocked since `mark` in this session's pages (and workers of no page, for the default session). */
function blockedDuring(scope: BrowserScope, mark: number): Array<{kind: string; url: string}> {
  const pages = new Set(scope.pages().map(p => p.targetId));
  return scope.browser.urlPolicy.blocked
    .since(mark)
    .filter(e => (e.pageTargetId === undefined ? scope.browser.isDefaultOwner(scope) : pages.has(e.pageTargetId)))
    .map(({kind, url}) => ({kind, url}));
}

type PageList = NonNullable<ResponseState['pages']>;

async function pageList(scope: BrowserScope, extensions: boolean): Promise<PageList> {
  const note = scope.takeSelectionNote();
  const all = await pageSummaries(scope);
  if (!extensions) {
    return {note, items: all};
  }
  const isExtension = (url: string) => url.startsWith('chrome-extension://');
  return {
    note,
    items: all.filter(p => !isExtension(p.url)),
    extensionPages: all.filter(p => isExtension(p.url)),
    serviceWorkers: scope.browser.extensionWorkers.list().map(({id, url}) => ({id, url})),
  };
}

async function pageSummaries(scope: BrowserScope): Promise<NonNullable<ResponseState['pages']>['items']> {
  const pages = scope.pages();
  // A dialog pauses its renderer, which other pages may share: then only the
  // titles Chrome already reported are safe to use.
  const paused = pages.some(p => p.dialog);
  const selected = scope.findSelectedPage();
  return Promise.all(
    pages.map(async p => ({
      id: p.id,
      title: paused ? p.displayTitle : await p.fetchTitle(),
      url: p.url,
      selected: p === selected,
      isolatedContext: p.contextName,
    })),
  );
}
