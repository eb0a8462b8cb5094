/**
 * The objects handlers receive (context.ts contracts) over the browser model
 * and the input layer. Glue only: each member delegates to the layer that
 * knows how; no CDP here.
 */
import {extname} from 'node:path';

import {
  installExtension,
  listExtensions,
  reloadExtension,
  triggerExtensionAction,
  uninstallExtension,
} from '../browser/apps/extensions.js';
import {installPwa, launchPwa, osAppState, uninstallPwa} from '../browser/apps/pwa.js';
import {
  discoverThirdPartyTools,
  executeThirdPartyTool,
  findThirdPartyTool,
  withElementUids,
} from '../browser/apps/thirdParty.js';
import {webMcpOf} from '../browser/apps/webmcp.js';
import type {ConsoleEntry, IssueEntry} from '../browser/console/ConsoleCollector.js';
import {type DetailContext, entryArguments, entryStack, issueAffectedLines} from '../browser/console/consoleDetails.js';
import type {Browser} from '../browser/core/Browser.js';
import type {BrowserScope} from '../browser/core/BrowserScope.js';
import {captureHeapSnapshot, type HeapSnapshotProgress} from '../browser/core/heapSnapshot.js';
import {
  type NavigationOptions,
  type NavigationOutcome,
  type NavigationRequest,
  performNavigation,
} from '../browser/core/navigation.js';
import type {OpenDialog, Page} from '../browser/core/Page.js';
import {type RawOutcome, type RawTarget, sendRawCommand} from '../browser/rawCdp/send.js';
import {captureScreenshot, type ScreenshotRequest} from '../browser/core/screenshot.js';
import {tabTargetIdOf} from '../browser/core/tabs.js';
import {resizeContent} from '../browser/core/window.js';
import type {DownloadRecord} from '../browser/downloads/downloads.js';
import {emulatePage} from '../browser/emulation/emulatePage.js';
import type {EmulationState} from '../browser/emulation/emulationState.js';
import {requestBody, responseBody} from '../browser/network/bodies.js';
import type {NetworkRecord} from '../browser/network/NetworkCollector.js';
import {extractPageText, type PageText, type PageTextFormat} from '../browser/pageText/pageText.js';
import {startRecording, stopRecording} from '../browser/recording/screencast.js';
import {
  evaluateInPage,
  evaluateInWorker,
  type EvaluationRequest,
  type EvaluationResult,
} from '../browser/script/evaluate.js';
import {waitForText} from '../browser/script/waitForText.js';
import {parseStorageText} from '../browser/storage/storageFormat.js';
import {applyStorageState, captureStorageState} from '../browser/storage/storageState.js';
import type {Config} from '../config/options.js';
import {cssStylesText} from '../devtools/css/styles.js';
import {type LighthouseRun, runLighthouse} from '../devtools/lighthouse/runLighthouse.js';
import {formatInsight} from '../devtools/trace/analysis.js';
import {deviceScopeOf, type StopResult, tracerFor} from '../devtools/trace/PerformanceTracer.js';
import {
  clickElement,
  clickPoint,
  dragElement,
  fillValue,
  hoverElement,
  pressKeyCombination,
  typeIntoFocused,
  uploadToElement,
} from '../input/perform.js';
import {snapshotState, takeSnapshot} from '../snapshot/PageSnapshot.js';
import {type CallControl, NO_CALL_CONTROL, type ProgressReporter} from '../util/progress.js';
import type {
  ToolBrowser,
  ToolConsole,
  ToolExtensions,
  ToolFiles,
  ToolInput,
  ToolNetwork,
  ToolPage,
  ToolPwa,
  ToolScreencast,
  ToolStorage,
  ToolThirdParty,
  ToolTracing,
  ToolWebMcp,
} from './context.js';
import {rawSwitches} from './rawSwitches.js';

export class BrowserHandle implements ToolBrowser {
  readonly extensions: ToolExtensions;
  readonly pwa: ToolPwa;

  constructor(
    /** The calling session's view of the browser: its pages only. */
    readonly scope: BrowserScope,
    readonly config: Config,
    readonly files: ToolFiles,
    /** The running call's signal and progress, handed to every wait below. */
    readonly control: CallControl = NO_CALL_CONTROL,
  ) {
    const browser = scope.browser;
    this.extensions = browserExtensions(scope);
    this.pwa = {
      install: (manifestId, url, displayMode) => installPwa(browser, manifestId, url, displayMode),
      uninstall: manifestId => uninstallPwa(browser, manifestId),
      launch: async (manifestId, url) => {
        const page = await launchPwa(browser, manifestId, url);
        // The app window is the caller's page, whichever context Chrome opened it in.
        page.ownerId = scope.ownerId;
        return page.url;
      },
      osAppState: manifestId => osAppState(browser, manifestId),
    };
  }

  /** The browser the session's pages live in. */
  get browser(): BrowserScope['browser'] {
    return this.scope.browser;
  }

  serviceWorkerMessages(extensionId: string): readonly ConsoleEntry[] {
    return this.browser.extensionWorkers.log.list(extensionId);
  }

  pageCount(): number {
    return this.scope.pages().length;
  }

  async selectPage(pageId: number, options: {bringToFront: boolean}): Promise<void> {
    const page = this.scope.getPageById(pageId);
    this.scope.selectPage(page);
    if (options.bringToFront) {
      await page.bringToFront();
    }
  }

  async closePage(pageId: number): Promise<{savedRecording?: string}> {
    const page = this.scope.getPageById(pageId);
    let savedRecording: string | undefined;
    if (page.recording) {
      // Closing the tab would lose the video: finish it first.
      const {filePath, data} = await stopRecording(page);
      savedRecording = await this.files.save(data, filePath, extname(filePath));
    }
    await this.scope.closePage(page);
    return savedRecording ? {savedRecording} : {};
  }

  async newPage(options: {background?: boolean; isolatedContext?: string}): Promise<ToolPage> {
    return new PageHandle(await this.scope.newPage(options), this);
  }

  downloads(): readonly DownloadRecord[] {
    return this.scope.downloads();
  }
}

export class PageHandle implements ToolPage {
  readonly input: ToolInput;
  readonly console: ToolConsole;
  readonly network: ToolNetwork;
  readonly screencast: ToolScreencast;
  readonly storage: ToolStorage;

  constructor(
    readonly page: Page,
    readonly owner: BrowserHandle,
  ) {
    this.input = pageInput(page, owner.control);
    this.console = pageConsole(page, owner.files, owner.config);
    this.network = pageNetwork(page);
    this.screencast = pageScreencast(page);
    this.storage = pageStorage(page, owner.browser);
    this.#connection = () => owner.browser.connection;
    this.#control = owner.control;
  }

  readonly #connection: () => BrowserScope['browser']['connection'];
  readonly #control: CallControl;

  get id(): number {
    return this.page.id;
  }

  get url(): string {
    return this.page.url;
  }

  get dialog(): OpenDialog | undefined {
    return this.page.dialog;
  }

  get emulation(): Readonly<EmulationState> {
    return this.page.emulation;
  }

  get contextLabel(): string {
    return this.page.contextName ? `isolated context "${this.page.contextName}"` : 'the default browser context';
  }

  navigate(request: NavigationRequest, options: NavigationOptions): Promise<NavigationOutcome> {
    return performNavigation(this.page, request, options, this.#control);
  }

  waitForText(texts: string[], timeoutMs: number | undefined): Promise<void> {
    return waitForText(this.page, texts, timeoutMs, this.#control);
  }

  answerDialog(accept: boolean, promptText: string | undefined): Promise<void> {
    return this.page.answerDialog(accept, promptText);
  }

  evaluate(request: EvaluationRequest): Promise<EvaluationResult> {
    return evaluateInPage(this.page, request, this.#control);
  }

  async evaluateInServiceWorker(
    serviceWorkerId: string,
    request: Omit<EvaluationRequest, 'uids' | 'waitForStableDom'>,
  ): Promise<EvaluationResult> {
    const worker = await this.owner.browser.extensionWorkers.contextOf(serviceWorkerId);
    return evaluateInWorker(this.page, worker, request, this.#control);
  }

  screenshot(request: ScreenshotRequest): Promise<string> {
    return captureScreenshot(this.page, request);
  }

  sendCdp(method: string, params: Record<string, unknown>, target: RawTarget): Promise<RawOutcome> {
    const {scope, config, files} = this.owner;
    const switches = rawSwitches(config, files, url => scope.browser.urlPolicy.isAllowed(url));
    return sendRawCommand({scope, page: this.page, method, params, target, switches});
  }

  text(format: PageTextFormat, uid: string | undefined): Promise<PageText> {
    return extractPageText(this.page, format, uid);
  }

  emulate(state: EmulationState): Promise<void> {
    return emulatePage(this.page, state);
  }

  resize(width: number, height: number): Promise<void> {
    return resizeContent(this.#connection(), this.page.targetId, width, height);
  }

  captureHeapSnapshot(write: (chunk: string) => void, onProgress?: HeapSnapshotProgress): Promise<void> {
    return captureHeapSnapshot(this.page, write, onProgress);
  }

  startTrace(options: {reload: boolean; ignoreCache: boolean}, progress: ProgressReporter): Promise<void> {
    return this.#tracer().start(this.page, {...options, progress});
  }

  analyzeInsight(insightSetId: string, insightName: string): string | undefined {
    const tracer = this.#tracer();
    // Another session's trace is not this session's to read.
    const trace = tracer.owner === this.owner.scope.ownerId ? tracer.lastTrace : undefined;
    return trace && formatInsight(trace, insightSetId, insightName, deviceScopeOf(this.page));
  }

  get thirdParty(): ToolThirdParty {
    const page = this.page;
    return {
      discover: () => discoverThirdPartyTools(page),
      find: name => findThirdPartyTool(page, name),
      execute: async (name, params) => {
        const {json, marker, elements} = await executeThirdPartyTool(page, name, params);
        const value: unknown = json === undefined ? undefined : JSON.parse(json);
        if (!elements.length) {
          return {value};
        }
        const snapshot = await takeSnapshot(page, false, elements);
        const uids = elements.map(element => snapshotState(page).uidForBackendNodeId(element.backendNodeId));
        return {value: withElementUids(value, marker, uids), snapshot};
      },
    };
  }

  get webmcp(): ToolWebMcp {
    return webMcpOf(this.page);
  }

  tabId(): Promise<string> {
    return tabTargetIdOf(this.owner.browser.connection, this.page.targetId, this.page.url);
  }

  cssStyles(uid: string, pageSize: number, pageIdx: number): Promise<string[]> {
    return cssStylesText(this.page, uid, pageSize, pageIdx);
  }

  lighthouse(options: Parameters<ToolPage['lighthouse']>[0]): Promise<LighthouseRun> {
    return runLighthouse(this.page, options);
  }

  readonly #tracer = () => tracerFor(this.#browser());
  readonly #browser: () => Browser = () => this.owner.browser;
}

function pageScreencast(page: Page): ToolScreencast {
  return {
    get filePath() {
      return page.recording?.filePath;
    },
    start: options => startRecording(page, options),
    stop: () => stopRecording(page),
  };
}

/**
 * The server's performance trace, over the browser's tracer: one trace at a
 * time in the whole browser (Chrome traces browser-wide), which only the
 * session that started it may wait for or stop.
 */
export function tracingHandle(scope: BrowserScope, files: ToolFiles): ToolTracing {
  const tracer = () => {
    const t = tracerFor(scope.browser);
    if (t.running && t.owner !== scope.ownerId) {
      throw new Error(
        'The performance trace running now was started by another MCP session; only that session can stop it. Try again once it has finished.',
      );
    }
    return t;
  };
  return {
    get running() {
      return tracerFor(scope.browser).running;
    },
    waitForPageDone: progress => tracer().waitForPageDone(progress),
    stop: (filePath, progress): Promise<StopResult> => tracer().stop({filePath, files, progress}),
  };
}

function pageInput(page: Page, control: CallControl): ToolInput {
  return {
    click: (uid, {dblClick}) => clickElement(page, uid, dblClick, control),
    clickAt: (x, y, {dblClick}) => clickPoint(page, x, y, dblClick, control),
    hover: uid => hoverElement(page, uid, control),
    fill: (uid, value) => fillValue(page, uid, value, control),
    drag: (fromUid, toUid) => dragElement(page, fromUid, toUid, control),
    pressKey: key => pressKeyCombination(page, key, control),
    typeText: (text, submitKey) => typeIntoFocused(page, text, submitKey, control),
    uploadFiles: (uid, paths) => uploadToElement(page, uid, paths, control),
  };
}

function pageConsole(page: Page, files: ToolFiles, config: Config): ToolConsole {
  const collector = () => page.instrumentation.console;
  // Stacks and arguments are symbolized through the page's source maps,
  // fetched within the URL policy and the file sandbox.
  const details = (): DetailContext => ({
    sourceMaps: page.instrumentation.sourceMaps,
    access: {
      policy: page.urlPolicy,
      files,
      session: page.session,
      frameId: page.mainFrameId,
      useMaps: config.sourceMaps,
    },
  });
  return {
    list: includePreserved => collector().list(includePreserved),
    find: id => collector().findById(id),
    stack: (entry: ConsoleEntry) => entryStack(entry, details()),
    arguments: async (entry: ConsoleEntry) => (entry.kind === 'console' ? entryArguments(entry, details()) : []),
    issueOccurrences: (entry: IssueEntry) =>
      issueAffectedLines(
        entry,
        page.instrumentation.network,
        page.elements?.uidForBackendNodeId?.bind(page.elements),
        config.redactNetworkHeaders,
      ),
  };
}

function pageNetwork(page: Page): ToolNetwork {
  const collector = () => page.instrumentation.network;
  return {
    list: includePreserved => collector().list(includePreserved),
    find: id => collector().findById(id),
    requestBody: (record: NetworkRecord) => requestBody(record),
    responseBody: (record: NetworkRecord) => responseBody(record),
    mock: spec => page.mocks.add(spec),
    clearMocks: urlPattern => page.mocks.clear(urlPattern),
    mocks: () => page.mocks.list(),
  };
}

function pageStorage(page: Page, browser: Browser): ToolStorage {
  return {
    save: () => captureStorageState(browser, page),
    parse: text => parseStorageText(text),
    load: state => applyStorageState(browser, page, state),
  };
}

function browserExtensions(scope: BrowserScope): ToolExtensions {
  const connection = scope.browser.connection;
  return {
    install: path => installExtension(connection, path),
    uninstall: id => uninstallExtension(connection, id),
    list: () => listExtensions(connection),
    reload: id => reloadExtension(connection, id),
    async triggerAction(id) {
      const page = scope.getSelectedPage();
      await triggerExtensionAction(connection, id, await tabTargetIdOf(connection, page.targetId, page.url));
    },
  };
}
