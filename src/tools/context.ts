/**
 * The whole surface tool handlers see of the browser, the configuration and
 * the file system. These are contracts, not the model: the pipeline hands
 * handlers objects that implement them (tools/handles.ts) over the browser
 * model, the input and snapshot layers.
 *
 * Only add a member here when a tool needs it. Keep CDP out: a member says
 * what a tool wants done ("navigate", "click uid"), the layers below say how.
 */
import type {ExtensionInfo} from '../browser/apps/extensions.js';
import type {OsAppState} from '../browser/apps/pwa.js';
import type {ThirdPartyGroup, ThirdPartyTool} from '../browser/apps/thirdParty.js';
import type {WebMcpResult, WebMcpTool} from '../browser/apps/webmcp.js';
import type {ConsoleEntry, IssueEntry} from '../browser/console/ConsoleCollector.js';
import type {HeapSnapshotProgress} from '../browser/core/heapSnapshot.js';
import type {NavigationOptions, NavigationOutcome, NavigationRequest} from '../browser/core/navigation.js';
import type {OpenDialog} from '../browser/core/Page.js';
import type {ScreenshotRequest} from '../browser/core/screenshot.js';
import type {SettleResult} from '../browser/core/settle.js';
import type {DownloadRecord} from '../browser/downloads/downloads.js';
import type {EmulationState} from '../browser/emulation/emulationState.js';
import type {MockSpec, NetworkMock} from '../browser/network/networkMocks.js';
import type {NetworkRecord} from '../browser/network/networkRecord.js';
import type {PageText, PageTextFormat} from '../browser/pageText/pageText.js';
import type {RawOutcome, RawTarget} from '../browser/rawCdp/send.js';
import type {VideoContainer} from '../browser/recording/ffmpegRecorder.js';
import type {EvaluationRequest, EvaluationResult} from '../browser/script/evaluate.js';
import type {ArgumentText, SymbolizedStack} from '../browser/script/stacks.js';
import type {StorageState} from '../browser/storage/storageFormat.js';
import type {StorageLoadReport} from '../browser/storage/storageState.js';
import type {Config} from '../config/options.js';
import type {HeapSnapshots} from '../devtools/heap/HeapSnapshots.js';
import type {AuditDevice, AuditMode, LighthouseRun} from '../devtools/lighthouse/runLighthouse.js';
import type {StopResult} from '../devtools/trace/PerformanceTracer.js';
import type {ActionResult} from '../input/perform.js';
import type {ElementQuery} from '../snapshot/find.js';
import type {ProgressReporter} from '../util/progress.js';
import type {OpenedFile} from '../util/safeOpen.js';

/** File access for tools: every path goes through the sandbox (MCP roots, the temp dir). */
export interface ToolFiles {
  /** The canonical path, when it is inside the allowed roots; throws with what to do otherwise. */
  validate(path: string): Promise<string>;
  /** Writes `data` to `path` with its extension forced to `ext`; returns the path written. */
  save(data: Uint8Array | string, path: string, ext: string): Promise<string>;
  /** Reads a file inside the allowed roots, up to `maxBytes`; throws with what to do otherwise. */
  read(path: string, maxBytes: number): Promise<Buffer>;
  /** Writes `data` to a new file in a fresh temp folder; returns its path. */
  saveTemporary(data: Uint8Array | string, filename: string): Promise<string>;
  /** Like save, for content produced chunk by chunk (removed again if producing fails). */
  saveStreamed(path: string, ext: string, produce: (write: (chunk: string) => void) => Promise<void>): Promise<string>;
  /** A path for `filename` in a fresh temp folder, for a file written later. */
  temporaryPath(filename: string): Promise<string>;
  /** Removes the temp folder temporaryPath made for `path`. */
  discardTemporary(path: string): Promise<void>;
  /** Opens a file inside the allowed roots for reading (regular, one link, never through a link); close it. */
  openRead(path: string): Promise<OpenedFile>;
  /** A private copy of a file inside the allowed roots (for Chrome to read later); returns its path. */
  privateCopy(path: string): Promise<string>;
  /** The session's own folder (private, inside its roots, removed when the session ends). */
  outputDir(): Promise<string>;
}

/** Heap snapshots loaded for analysis (in the heap host process) and those taken in this session. */
export type ToolHeapSnapshots = Pick<
  HeapSnapshots,
  'noteTaken' | 'pathOrLatest' | 'pairOrLatest' | 'query' | 'diff' | 'close'
>;

/** What a handler gets besides its params. */
export interface ToolContext {
  readonly browser: ToolBrowser;
  readonly config: Config;
  readonly files: ToolFiles;
  readonly heap: ToolHeapSnapshots;
  /**
   * Reports a step of a long call (an MCP progress notification when the
   * client asked for them; at most one per 500 ms, the latest step wins).
   */
  readonly progress: ProgressReporter;
  /**
   * Aborts when the client cancels the call (or its session ends). The page
   * methods here already stop their waits on it; long work of a handler's
   * own (polling, streaming) should stop too and let the CancelledError out.
   */
  readonly signal: AbortSignal;
  /** Performance traces: one at a time for the whole server. */
  readonly tracing: ToolTracing;
}

/** The server's performance trace (started on a page with ToolPage.startTrace). */
export interface ToolTracing {
  readonly running: boolean;
  /** Resolves once the traced page is done loading (bounded), for an auto-stopped trace. */
  waitForPageDone(progress: ProgressReporter): Promise<void>;
  /** Stops, saves (when a path is given), parses and keeps the trace; the server can trace again after. */
  stop(filePath: string | undefined, progress: ProgressReporter): Promise<StopResult>;
}

/** The browser as page-less tools use it. */
export interface ToolBrowser {
  /** Open pages (the last one cannot be closed). */
  pageCount(): number;
  /** Makes a page the selected one; throws for unknown ids. */
  selectPage(pageId: number, options: {bringToFront: boolean}): Promise<void>;
  /**
   * Closes a page; a screencast it was recording is stopped and saved first
   * (its path is returned). The session's last page stays open (`lastPage`);
   * another session's page id is refused before that.
   */
  closePage(pageId: number): Promise<{lastPage?: true; savedRecording?: string}>;
  /** Opens and selects a new page (optionally in a named isolated context). */
  newPage(options: {background?: boolean; isolatedContext?: string}): Promise<ToolPage>;
  readonly extensions: ToolExtensions;
  readonly pwa: ToolPwa;
  /** Console messages of an extension's service workers, by extension id (none for ids never seen). */
  serviceWorkerMessages(extensionId: string): readonly ConsoleEntry[];
  /** Every download of this browser session, oldest first. */
  downloads(): readonly DownloadRecord[];
  /** Where this session's downloads are saved (undefined while they are refused). */
  downloadsFolder(): string | undefined;
}

/** Installed web apps (`--categoryPwa`), by manifest id. */
export interface ToolPwa {
  install(manifestId: string, installUrlOrBundleUrl: string, displayMode?: 'standalone' | 'browser'): Promise<void>;
  uninstall(manifestId: string): Promise<void>;
  /** Opens the app; resolves with its page's URL. */
  launch(manifestId: string, url?: string): Promise<string>;
  osAppState(manifestId: string): Promise<OsAppState>;
}

/** Tools a page offers through its `devtoolstooldiscovery` listener. */
export interface ToolThirdParty {
  /** Asks the page for its tool groups now (and keeps them for find and execute). */
  discover(): Promise<ThirdPartyGroup[]>;
  /** A tool of the last discovery; throws `Tool <name> not found`. */
  find(name: string): ThirdPartyTool;
  /**
   * Runs the tool; `{uid}` parameters reach it as elements. Its result made
   * JSON-safe; elements in it become `{uid}` of a snapshot taken to show them
   * (then the page's latest, its text returned too).
   */
  execute(name: string, params: Record<string, unknown>): Promise<{value: unknown; snapshot?: string}>;
}

/** The tools a page registers through WebMCP. */
export interface ToolWebMcp {
  list(): Promise<WebMcpTool[]>;
  /** Runs the page's tool; throws `Tool <name> not found` for names the page did not register. */
  invoke(name: string, input: Record<string, unknown>): Promise<WebMcpResult>;
}

/** The browser's unpacked extensions (`--categoryExtensions`). */
export interface ToolExtensions {
  /** Loads the unpacked extension in the folder; returns its id. */
  install(path: string): Promise<string>;
  uninstall(id: string): Promise<void>;
  list(): Promise<ExtensionInfo[]>;
  /** Loads the extension again from its folder; throws when no extension has the id. */
  reload(id: string): Promise<void>;
  /** Clicks the extension's toolbar action on the selected page's tab. */
  triggerAction(id: string): Promise<void>;
}

/** One page, as page-scoped tools use it. */
export interface ToolPage {
  readonly id: number;
  readonly url: string;
  /** The unanswered dialog the page shows, if any. */
  readonly dialog: OpenDialog | undefined;
  readonly emulation: Readonly<EmulationState>;
  /** Its browser context, for messages: `the default browser context` or `isolated context "<name>"`. */
  readonly contextLabel: string;

  /** Navigates (URL, history, reload); failures come back in the outcome, not as throws. */
  navigate(request: NavigationRequest, options: NavigationOptions): Promise<NavigationOutcome>;
  /** Resolves once any of the texts shows on the page; throws after the timeout. */
  waitForText(texts: string[], timeoutMs: number | undefined): Promise<void>;
  /** Accepts or dismisses the open dialog; throws when there is none. */
  answerDialog(accept: boolean, promptText: string | undefined): Promise<void>;
  evaluate(request: EvaluationRequest): Promise<EvaluationResult>;
  /**
   * Runs the code in the extension service worker listed as `serviceWorkerId`
   * (`sw-<n>`), waiting on this page for what it caused; throws the
   * reference's texts for unknown or gone workers.
   */
  evaluateInServiceWorker(
    serviceWorkerId: string,
    request: Omit<EvaluationRequest, 'uids' | 'waitForStableDom'>,
  ): Promise<EvaluationResult>;
  /** A screenshot, base64-encoded, of the viewport, the full page or one element. */
  screenshot(request: ScreenshotRequest): Promise<string>;
  /** Makes `state` the page's whole emulation state. */
  emulate(state: EmulationState): Promise<void>;
  /**
   * Takes a snapshot before an action; the function it returns, given how
   * the action settled, says what the action did (`Effect: …`). Focus
   * moving to an element it acted on (`acted`, uids) goes without saying.
   */
  observeEffect(acted?: readonly string[]): Promise<(settle: SettleResult) => Promise<string>>;
  /** Takes a snapshot and returns its lines matching the query, under their ancestors (find_elements). */
  findElements(query: ElementQuery): Promise<string[]>;
  /** The page's readable content (or one element's, by uid) as markdown or text, frames included. */
  text(format: PageTextFormat, uid: string | undefined): Promise<PageText>;
  /** Sends one raw CDP command to the page's session or the browser; throws when it is refused. */
  sendCdp(method: string, params: Record<string, unknown>, target: RawTarget): Promise<RawOutcome>;
  /** Sets the size of the page's content area (CSS pixels). */
  resize(width: number, height: number): Promise<void>;
  /** A heap snapshot of the page's JS heap, handed to `write` chunk by chunk as Chrome sends it. */
  captureHeapSnapshot(write: (chunk: string) => void, onProgress?: HeapSnapshotProgress): Promise<void>;
  /**
   * Runs a Lighthouse audit of the page over a session of its own; Lighthouse
   * emulates the device (and reloads the page in navigation mode), after which
   * the page's own emulation is restored.
   */
  lighthouse(options: {mode: AuditMode; device: AuditDevice; progress: ProgressReporter}): Promise<LighthouseRun>;
  /** Starts the server's performance trace on this page (optionally of a fresh reload). */
  startTrace(options: {reload: boolean; ignoreCache: boolean}, progress: ProgressReporter): Promise<void>;
  /** One insight of the last trace in full (or the reference's answer); undefined when no trace was recorded. */
  analyzeInsight(insightSetId: string, insightName: string): string | undefined;
  /** The WebMCP tools the page registered (`--categoryExperimentalWebmcp`). */
  readonly webmcp: ToolWebMcp;
  /** Developer tools the page itself offers (`--categoryExperimentalThirdParty`). */
  readonly thirdParty: ToolThirdParty;
  /** The id of the tab target that holds the page (for tools that drive the same browser by tab). */
  tabId(): Promise<string>;
  /** get_css_styles' text: pagination lines, then one page of the element's cascade. */
  cssStyles(uid: string, pageSize: number, pageIdx: number): Promise<string[]>;

  readonly input: ToolInput;
  readonly console: ToolConsole;
  readonly network: ToolNetwork;
  readonly screencast: ToolScreencast;
  readonly storage: ToolStorage;
}

/** The page's screencast (video) recording: one at a time per page. */
export interface ToolScreencast {
  /** Where the recording in progress will be saved; undefined when none is. */
  readonly filePath: string | undefined;
  /** Starts recording with Chrome's recorder (mp4), or with ffmpeg when `ffmpeg` is given. */
  start(options: {filePath: string; fps?: number; ffmpeg?: {container: VideoContainer; path?: string}}): Promise<void>;
  /** Stops the recording and returns its video; afterwards (also on failure) none is in progress. */
  stop(): Promise<{filePath: string; data: Uint8Array}>;
}

/** The login state (cookies and web storage) of the page's browser context. */
export interface ToolStorage {
  /** The context's cookies and the storage of the origins its pages have open; `unanswered`: pages that did not say which (ids). */
  save(): Promise<{state: StorageState; unanswered: number[]}>;
  /** Parses and checks a state file's text completely; throws saying what is wrong. */
  parse(text: string): StorageState;
  /** Applies a checked state to the context (all of it, or nothing when it fails). */
  load(state: StorageState): Promise<StorageLoadReport>;
}

/**
 * Input on the elements of the latest snapshot (by uid) and on the focused
 * element. Each action waits for what it caused and reports it.
 */
export interface ToolInput {
  click(uid: string, options: {dblClick: boolean}): Promise<ActionResult>;
  clickAt(x: number, y: number, options: {dblClick: boolean}): Promise<SettleResult>;
  hover(uid: string): Promise<ActionResult>;
  fill(uid: string, value: string): Promise<SettleResult>;
  drag(fromUid: string, toUid: string): Promise<SettleResult>;
  pressKey(key: string): Promise<SettleResult>;
  typeText(text: string, submitKey: string | undefined): Promise<SettleResult>;
  uploadFiles(uid: string, paths: string[]): Promise<SettleResult>;
}

/** The page's console messages and DevTools issues. */
export interface ToolConsole {
  list(includePreserved: boolean): ConsoleEntry[];
  find(id: number): ConsoleEntry | undefined;
  /** Where the entry was logged or thrown, source-mapped, with error causes. */
  stack(entry: ConsoleEntry): Promise<SymbolizedStack | undefined>;
  /** The entry's argument values, while the page still holds them. */
  arguments(entry: ConsoleEntry): Promise<ArgumentText[]>;
  /** One line per occurrence of an issue, linked to reqids and snapshot uids. */
  issueOccurrences(entry: IssueEntry): string[];
}

/** The page's network requests. */
export interface ToolNetwork {
  list(includePreserved: boolean): NetworkRecord[];
  find(id: number): NetworkRecord | undefined;
  /** The request body (undefined when there is none or it is gone). */
  requestBody(record: NetworkRecord): Promise<string | undefined>;
  /** The response body (undefined when it is gone, too large or never existed). */
  responseBody(record: NetworkRecord): Promise<Buffer | undefined>;
  /** Answers matching requests of the page's browser context from now on (newest mock first). */
  mock(spec: MockSpec): Promise<NetworkMock>;
  /** Removes the context's mocks with this exact pattern (all when undefined); returns them. */
  clearMocks(urlPattern: string | undefined): Promise<NetworkMock[]>;
  /** The context's active mocks, newest first. */
  mocks(): readonly NetworkMock[];
}
