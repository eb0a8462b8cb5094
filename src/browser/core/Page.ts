import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {type Deferred, deferred} from '../../util/async.js';
import {trackLive} from '../../util/liveObjects.js';
import {debug} from '../../util/logger.js';
import type {EmulationState} from '../emulation/emulationState.js';
import {MockSet} from '../network/networkMocks.js';
import {UrlPolicy} from '../network/urlPolicy.js';
import type {ScreenRecorder} from '../recording/ScreenRecorder.js';
import {dialogOpenError, type OpenDialog, PageDialogs} from './dialogs.js';
import {PageFrames} from './frames.js';
import {DEFAULT_PAGE_BOUNDS, type PageBounds} from './pageBounds.js';
import {PageInstrumentation} from './PageInstrumentation.js';
import {readTitle, TitleAhead} from './pageTitle.js';
import {listenPendingNavigation} from './pendingNavigation.js';
import {PROBE_SOURCE, probeCall} from './probe.js';

export type {DialogType, OpenDialog} from './dialogs.js';

/** A crash of the page's renderer; `status` is Chrome's termination status when it said (oom, crashed, killed…). */
export interface PageCrash {
  status?: string;
}

/** The error of whatever was under way on a page when its renderer crashed. */
export function crashError(page: {id: number}, crash: PageCrash, during: string): Error {
  const status =
    crash.status === undefined ? '' : crash.status === 'oom' ? ': it ran out of memory' : ` (${crash.status})`;
  return new Error(
    `Page ${page.id} crashed while ${during}${status}. Reload it with navigate_page (type=reload) or close it with close_page.`,
  );
}

/** An element of the latest snapshot, resolved to a JS object in its frame. */
export interface ResolvedElement {
  session: CdpSession;
  /** Remote object of the element in its frame's main world. */
  objectId: string;
  backendNodeId?: number;
  /** Identifies the frame (document) the element lives in. */
  frameId: string;
  /** resolve(uid, {checkAlongside}): its closed-shadow-root check, still running (act only once it resolved). */
  checking?: Promise<void>;
}

/** What input tools need to know about a snapshot node besides its element. */
export interface ElementSummary {
  role: string;
  /** The node's `option` children (a select or listbox), with their uids. */
  options: Array<{name: string; uid: string | undefined}>;
}

/**
 * Why a uid no longer names the element its snapshot showed: the element left
 * the page or its document (`stale`), or it moved into a closed shadow root
 * after the snapshot (`moved`: a page hides it from script on purpose).
 */
export type GoneReason = 'stale' | 'moved';

const GONE_TEXT: Record<GoneReason, string> = {
  stale: 'no longer exists on the page',
  moved: 'moved into a closed shadow root after the snapshot, so it is not the element the snapshot showed',
};

/** The error for a uid whose element is gone (see GoneReason); the agent needs a new snapshot. */
export class ElementGoneError extends Error {
  constructor(
    readonly uid: string,
    readonly reason: GoneReason,
    cause?: unknown,
  ) {
    super(
      `Element with uid ${uid} ${GONE_TEXT[reason]}. Take a new snapshot to get current uids.`,
      cause === undefined ? undefined : {cause},
    );
  }
}

/** The error for a uid whose element left the page (or its document). */
export function staleElementError(uid: string, cause?: unknown): ElementGoneError {
  return new ElementGoneError(uid, 'stale', cause);
}

/** Maps snapshot uids to live elements; provided by the snapshot layer. */
export interface ElementResolver {
  resolve(uid: string, options?: {checkAlongside?: boolean}): Promise<ResolvedElement>;
  /** Role and options of the node behind a uid; throws the unknown-uid error. */
  describe(uid: string): ElementSummary;
  /** The uid a DOM node has in the latest snapshot, if any (links DevTools issues to elements). */
  uidForBackendNodeId?(backendNodeId: number): string | undefined;
  /** Where a uid's DOM node was at the snapshot, not asking the page (resolve does); throws for unknown uids. */
  locate?(uid: string): {session: CdpSession; backendNodeId: number} | undefined;
  /** Whether the element of a uid, now in the closed shadow root of this host (backend node id), got there after its snapshot. */
  movedIntoClosedRoot?(uid: string, closedHost: number): boolean;
}

/**
 * What the features keep per page, each slot created by its owner on first
 * use and gone with the page. The slots are listed here, so that this file
 * shows all the state a page carries; each owner adds its slot's type where
 * that type lives (`declare module` declaration merging: the page cannot
 * import the types of the layers above it):
 * - `snapshot` (snapshot/PageSnapshot.ts): the latest snapshot's uids and what resolves them;
 * - `latestSnapshotText` (snapshot/section.ts): the text `sinceLast` compares with;
 * - `styles` (devtools/css/PageStyles.ts): DevTools' CSS model of the page;
 * - `webMcp` (browser/apps/webmcp.ts): the page's WebMCP tools;
 * - `thirdPartyTools` (browser/apps/thirdParty.ts): the third-party developer tools it offered last.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface PageSlots {}

/**
 * One browser tab we track: its flat CDP session, the main frame's current
 * document, its open dialog and the state tools keep per page.
 */
export class Page {
  /** Per-feature state (PageSlots above). */
  readonly slots: PageSlots = {};
  url: string;
  title: string;
  /** The main frame's current document (changes on every cross-document navigation). */
  loaderId = '';
  /** Loader ids whose `load` lifecycle event has fired. */
  readonly loadedLoaders = new Set<string>();
  /** The URL of a cross-document navigation of the main frame not committed yet (Chrome holds the page's commands meanwhile). */
  navigatingTo: string | undefined;
  closed = false;
  readonly emulation: EmulationState = {};
  /**
   * Downloads the page's actions are known to have started (a link with a
   * `download` attribute clicked, a navigation that turned into a download),
   * counted since the page opened: responses wait for them to begin.
   */
  downloadsExpected = 0;
  /** Extra sessions to this page being attached (DevTools' own models use one): their attach events are not new pages. */
  auxiliaryAttaches = 0;
  /** Set once a snapshot has been taken on this page. */
  elements: ElementResolver | undefined;
  /** The screencast being recorded on this page (screencast_start to screencast_stop). */
  recording: ScreenRecorder | undefined;
  /** Console and network collectors, source maps, frame and worker sessions. */
  readonly instrumentation: PageInstrumentation;
  /** Out-of-process iframes and per-frame execution contexts. */
  readonly frames: PageFrames;
  /** The JavaScript dialogs open in the tab, as Chrome's events say. */
  readonly dialogs: PageDialogs;
  readonly #titleAhead = new TitleAhead();
  readonly #ready: Deferred<void> = deferred<void>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #crashListeners = new Set<(crash: PageCrash) => void>();
  #crash: PageCrash | undefined;
  #probeLoader = '';

  constructor(
    readonly id: number,
    readonly session: CdpSession,
    targetInfo: Protocol.Target.TargetInfo,
    /** Name of the isolated context the page is in, as its session knows it (undefined: the session's own). */
    public contextName: string | undefined,
    readonly urlPolicy: UrlPolicy = new UrlPolicy([], []),
    /** The network mocks of the page's browser context. */
    readonly mocks: MockSet = new MockSet(urlPolicy),
    /** How long calls wait for the page when it does not answer (--pageCallTimeout; its commands' default bound). */
    readonly bounds: PageBounds = DEFAULT_PAGE_BOUNDS,
  ) {
    trackLive('page', this);
    session.defaultTimeoutMs = bounds.answerMs;
    this.url = targetInfo.url;
    this.title = targetInfo.title;
    this.browserContextId = targetInfo.browserContextId;
    this.instrumentation = new PageInstrumentation(session, session.targetId, urlPolicy, () => this.emulation, mocks);
    this.frames = new PageFrames(session);
    this.dialogs = new PageDialogs(session);
    this.#listen();
  }

  readonly browserContextId: string | undefined;
  /** The session (BrowserScope) the page belongs to; undefined while nobody owns it. */
  ownerId: number | undefined;

  /** The dialog that pauses the page now, if any. */
  get dialog(): OpenDialog | undefined {
    return this.dialogs.current;
  }

  /** Whether the page's renderer crashed (and no navigation brought it back yet). */
  get crashed(): boolean {
    return this.#crash !== undefined;
  }

  /**
   * Records a crash of the page's renderer (Inspector.targetCrashed on its
   * session, Target.targetCrashed on the browser's: the first one counts) and
   * tells whoever waits on the page. Its dialogs went with the renderer.
   */
  markCrashed(status?: string): void {
    if (this.#crash) {
      return;
    }
    this.#crash = {status};
    this.dialogs.clear();
    for (const listener of this.#crashListeners) {
      listener(this.#crash);
    }
  }

  /** Told when the page's renderer crashes; returns the unsubscriber. */
  onCrash(listener: (crash: PageCrash) => void): () => void {
    this.#crashListeners.add(listener);
    return () => this.#crashListeners.delete(listener);
  }

  get targetId(): string {
    return this.session.targetId;
  }

  /** For page targets the main frame id equals the target id. */
  get mainFrameId(): string {
    return this.session.targetId;
  }

  /** Resolves once the session is set up (domains enabled, frame tree read). */
  get ready(): Promise<void> {
    return this.#ready.promise;
  }

  /**
   * Enables what we need, then lets a target that waits for the debugger run.
   * Page.enable must precede the resume: a dialog opened before it wedges the page.
   */
  async init(waitingForDebugger: boolean): Promise<void> {
    const s = this.session;
    try {
      const enabled = Promise.all([
        s.send('Page.enable', {}),
        s.send('Page.setLifecycleEventsEnabled', {enabled: true}),
        s.send('Runtime.enable'),
        s.trySend('Emulation.setFocusEmulationEnabled', {enabled: true}),
        s.trySend('Page.addScriptToEvaluateOnNewDocument', {source: PROBE_SOURCE}),
        ...this.instrumentation.setUp(),
      ]);
      const tree = s.send('Page.getFrameTree');
      if (waitingForDebugger) {
        void s.trySend('Runtime.runIfWaitingForDebugger');
      }
      await enabled;
      const {frameTree} = await tree;
      const treeUrl = frameTree.frame.url + (frameTree.frame.urlFragment ?? '');
      // A tree of the initial empty document (a popup) is older than a
      // navigation seen while we waited: keep that navigation's URL.
      const navigatedMeanwhile = this.loaderId !== '' && (treeUrl === '' || treeUrl === 'about:blank');
      this.loaderId ||= frameTree.frame.loaderId;
      if (!navigatedMeanwhile) {
        this.url = treeUrl;
      }
      this.#ready.resolve();
    } catch (error) {
      debug(`page ${this.id} init failed`, error);
      this.#ready.resolve();
      if (waitingForDebugger) {
        void s.trySend('Runtime.runIfWaitingForDebugger');
      }
    }
  }

  /** Updates from Target.targetInfoChanged. */
  updateTargetInfo(info: Protocol.Target.TargetInfo): void {
    // Once the frame tree is known it is the source of truth (the target's URL
    // is the address-bar one: an error page would show the failed URL).
    if (!this.loaderId) {
      this.url = info.url;
    }
    this.title = info.title;
  }

  /** Label used in page lists: `<title> (<url>)`, or the URL when there is no real title. */
  get displayTitle(): string {
    const title = this.title;
    if (!title || title === this.url || this.url.endsWith(title) || title === 'about:blank') {
      return '';
    }
    return title;
  }

  /**
   * The document title, read from the page (target info lags behind). Falls
   * back to the target's title when the page cannot answer quickly (a dialog
   * is open, the renderer is busy).
   */
  async fetchTitle(): Promise<string> {
    const ahead = this.#titleAhead.take();
    const title = !this.dialog && !this.crashed ? await (ahead ?? readTitle(this.session)) : undefined;
    return title ?? this.displayTitle;
  }

  /** Accepts or dismisses the open dialog (as handle_dialog asks); throws when none is open. */
  async answerDialog(accept: boolean, promptText: string | undefined): Promise<void> {
    const title = this.dialog ? readTitle(this.session) : undefined; // for the page list after the answer (TitleAhead)
    await this.dialogs.answer(accept, promptText);
    if (title) {
      this.#titleAhead.set(title);
    }
  }

  /** Focuses the tab and brings it to the front. */
  async bringToFront(): Promise<void> {
    await this.session.send('Page.bringToFront');
  }

  /** Throws when an unanswered dialog blocks the page. */
  throwIfDialogOpen(): void {
    if (this.dialog) {
      throw dialogOpenError(this.dialog);
    }
  }

  /**
   * Makes sure the in-page probe (mutation counter used to notice DOM changes
   * after an action) exists in the current document, and returns its mutation
   * count. Pages we attached to after load lack the on-new-document script.
   */
  async markMutations(): Promise<number | undefined> {
    const install = this.#probeLoader === this.loaderId ? '' : `${PROBE_SOURCE};`;
    const result = await this.session.trySend(
      'Runtime.evaluate',
      {expression: `${install}${probeCall('mark')}`, returnByValue: true},
      2_000,
    );
    if (result && !result.exceptionDetails) {
      this.#probeLoader = this.loaderId;
      return result.result.value as number | undefined;
    }
    return undefined;
  }

  /** The uid resolver of the latest snapshot, or the error telling the agent to take one. */
  getElements(): ElementResolver {
    if (!this.elements) {
      throw new Error(`No snapshot found for page ${this.id}. Use take_snapshot to capture one.`);
    }
    return this.elements;
  }

  /** Resolves uids for evaluate_script args: all must live in one frame. */
  async resolveElementsForEvaluation(uids: string[]): Promise<{session: CdpSession; objectIds: string[]}> {
    const elements = this.getElements();
    const resolved = await Promise.all(uids.map(uid => elements.resolve(uid)));
    const frames = new Set(resolved.map(r => r.frameId));
    if (frames.size > 1) {
      throw new Error("Elements from different frames can't be evaluated together.");
    }
    return {session: resolved[0]?.session ?? this.session, objectIds: resolved.map(r => r.objectId)};
  }

  dispose(): void {
    this.closed = true;
    // The tab is gone and its recording with it: stop whatever still runs for it.
    this.recording?.abandon();
    this.instrumentation.dispose();
    this.frames.dispose();
    for (const off of this.#unsubscribe) {
      off();
    }
    this.#unsubscribe.length = 0;
  }

  #listen(): void {
    const s = this.session;
    this.#unsubscribe.push(
      s.on('Page.frameNavigated', ({frame}) => {
        if (frame.parentId === undefined && frame.id === this.mainFrameId) {
          this.loaderId = frame.loaderId;
          this.url = frame.url + (frame.urlFragment ?? '');
          // A navigation closes any dialog of the previous document and
          // brings a crashed tab back with a new renderer.
          this.dialogs.clear();
          this.#crash = undefined;
        }
      }),
      s.on('Page.navigatedWithinDocument', ({frameId, url}) => {
        if (frameId === this.mainFrameId) {
          this.url = url;
        }
      }),
      s.on('Page.lifecycleEvent', ({frameId, loaderId, name}) => {
        if (frameId === this.mainFrameId && name === 'load') {
          this.loadedLoaders.add(loaderId);
          const first = this.loadedLoaders.values().next().value;
          if (this.loadedLoaders.size > 20 && first !== undefined) {
            this.loadedLoaders.delete(first);
          }
        }
      }),
      ...listenPendingNavigation(s, this.mainFrameId, url => (this.navigatingTo = url)),
      ...this.dialogs.listen(),
      s.on('Inspector.targetCrashed', () => this.markCrashed()),
    );
  }
}
