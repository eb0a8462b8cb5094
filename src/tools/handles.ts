/**
 * The objects handlers receive (context.ts contracts) over the browser model
 * and the input layer. Glue only: each member delegates to the layer that
 * knows how; no CDP here. The facets (console, network, storage, recording,
 * input, apps, tracing) live in handles/, one file per folder of browser/.
 */
import {extname} from 'node:path';

import type {ConsoleEntry} from '../browser/console/ConsoleCollector.js';
import type {BrowserScope} from '../browser/core/BrowserScope.js';
import {captureHeapSnapshot, type HeapSnapshotProgress} from '../browser/core/heapSnapshot.js';
import {
  type NavigationOptions,
  type NavigationOutcome,
  type NavigationRequest,
  performNavigation,
} from '../browser/core/navigation.js';
import type {OpenDialog, Page} from '../browser/core/Page.js';
import {captureScreenshot, type ScreenshotRequest} from '../browser/core/screenshot.js';
import type {SettleResult} from '../browser/core/settle.js';
import {tabTargetIdOf} from '../browser/core/tabs.js';
import {resizeContent} from '../browser/core/window.js';
import type {DownloadRecord} from '../browser/downloads/downloads.js';
import {emulatePage} from '../browser/emulation/emulatePage.js';
import type {EmulationState} from '../browser/emulation/emulationState.js';
import {extractPageText, type PageText, type PageTextFormat} from '../browser/pageText/pageText.js';
import {type RawOutcome, type RawTarget, sendRawCommand} from '../browser/rawCdp/send.js';
import {stopRecording} from '../browser/recording/screencast.js';
import {
  evaluateInPage,
  evaluateInWorker,
  type EvaluationRequest,
  type EvaluationResult,
} from '../browser/script/evaluate.js';
import {waitForText} from '../browser/script/waitForText.js';
import type {Config} from '../config/options.js';
import {cssStylesText} from '../devtools/css/styles.js';
import {type LighthouseRun, runLighthouse} from '../devtools/lighthouse/runLighthouse.js';
import {currentLines, describeEffect} from '../snapshot/effect.js';
import {type ElementQuery, findElements} from '../snapshot/find.js';
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
  ToolWebMcp,
} from './context.js';
import {browserExtensions, browserPwa, pageThirdParty, pageWebMcp} from './handles/apps.js';
import {pageConsole} from './handles/console.js';
import {pageInput} from './handles/input.js';
import {pageNetwork} from './handles/network.js';
import {pageScreencast} from './handles/recording.js';
import {pageStorage} from './handles/storage.js';
import {pageInsight, startPageTrace} from './handles/tracing.js';
import {rawSwitches} from './rawSwitches.js';

export {tracingHandle} from './handles/tracing.js';

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
    this.extensions = browserExtensions(scope);
    this.pwa = browserPwa(scope);
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

  async closePage(pageId: number): Promise<{lastPage?: true; savedRecording?: string}> {
    this.scope.refuseForeignPage(pageId);
    if (this.pageCount() <= 1) {
      return {lastPage: true};
    }
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

  downloadsFolder(): string | undefined {
    return this.scope.downloadsFolder();
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
    return captureScreenshot(this.page, request, this.#control);
  }

  sendCdp(method: string, params: Record<string, unknown>, target: RawTarget): Promise<RawOutcome> {
    const {scope, config, files} = this.owner;
    const switches = rawSwitches(config, files, url => scope.browser.urlPolicy.isAllowed(url));
    return sendRawCommand({scope, page: this.page, method, params, target, switches});
  }

  async observeEffect(acted: readonly string[] = []): Promise<(settle: SettleResult) => Promise<string>> {
    const {page, owner} = this;
    const pagesBefore = new Set(owner.scope.pages().map(p => p.id));
    const {signal} = this.#control;
    const before = await currentLines(page, signal);
    return async settle => {
      const after =
        settle.dialog || settle.navigatedToUrl || page.dialog ? undefined : await currentLines(page, signal);
      const newPages = owner.scope
        .pages()
        .filter(p => !pagesBefore.has(p.id))
        .map(p => p.id);
      return describeEffect({before, after, settle, newPages, acted});
    };
  }

  findElements(query: ElementQuery): Promise<string[]> {
    return findElements(this.page, query, this.#control.signal);
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
    return startPageTrace(this.owner.scope, this.page, options, progress);
  }

  analyzeInsight(insightSetId: string, insightName: string): string | undefined {
    return pageInsight(this.owner.scope, this.page, insightSetId, insightName);
  }

  get thirdParty(): ToolThirdParty {
    return pageThirdParty(this.page, this.#control.signal);
  }

  get webmcp(): ToolWebMcp {
    return pageWebMcp(this.page, this.#control.signal);
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
}
