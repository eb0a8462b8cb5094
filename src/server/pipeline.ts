import * as v from 'valibot';

import type {BrowserManager} from '../browser/core/BrowserManager.js';
import type {BrowserScope} from '../browser/core/BrowserScope.js';
import type {Page} from '../browser/core/Page.js';
import {guardPage} from '../browser/core/pageGuard.js';
import type {DownloadTracker} from '../browser/downloads/downloads.js';
import type {Config} from '../config/options.js';
import {heapOptions, HeapSnapshots} from '../devtools/heap/HeapSnapshots.js';
import {type ImageContent, ResponseBuilder, type ToolPageContent} from '../response/ResponseBuilder.js';
import {closeCutBlock, closeMarkerRoom, markPageContent} from '../response/untrusted.js';
import type {ToolContext} from '../tools/context.js';
import {DEFAULT_OUTPUT_HINT, type PageTool, SNAPSHOT_OUTPUT_HINT} from '../tools/defineTool.js';
import {BrowserHandle, PageHandle, tracingHandle} from '../tools/handles.js';
import type {RegisteredTool} from '../tools/registry.js';
import {abortable, CancelledError, errorMessage, settleWithin} from '../util/async.js';
import {debug} from '../util/logger.js';
import {NO_PROGRESS, type ProgressReporter} from '../util/progress.js';
import {PathSandbox} from '../util/sandbox.js';
import {sandboxOptions} from './filePolicy.js';
import {boundNote, explainStuck} from './laneNotes.js';
import type {BoundPage} from './lanes.js';
import {capOutput} from './outputCap.js';
import {resolveResponseState} from './responseState.js';
import {CallScheduler} from './scheduler.js';
import {ScopeHolder} from './scopeHolder.js';
import {UnknownToolError} from './unknownTool.js';

/** The result of one call, before it becomes an MCP CallToolResult. */
export interface ToolResult {
  text: string;
  images: ImageContent[];
  isError: boolean;
  /** The same facts as JSON (clients get it with --experimentalStructuredContent). */
  structured: Record<string, unknown>;
}

/** A result, how to ask its tool for less should the output cap cut it, and the id of its page-content blocks. */
type Outcome = ToolResult & {hint?: string; markerId?: string};

/** The MCP session a call comes from: its file sandbox, its view of the browser. */
export interface CallSession {
  /** Scheduling key (one queue per session with --parallelSessions). */
  readonly id: number;
  readonly files: PathSandbox;
  /** The heap snapshots this session took and loaded (memory tools). */
  readonly heap: HeapSnapshots;
  /** Resolves once the client's roots are known (or immediately when it has none). */
  rootsReady(): Promise<void>;
  /** The session's BrowserScope (starts the browser on first use). */
  scope(): Promise<BrowserScope>;
  /** A one-shot note for the next response (the browser was restarted). */
  takeNote(): string | undefined;
}

export interface PipelineOptions {
  tools: RegisteredTool[];
  config: Config;
  browsers: BrowserManager;
  /** Shared by every session of the server; a serial one by default. */
  scheduler?: CallScheduler;
  /** For calls that name no session (a server with one client): its sandbox, heap snapshots... */
  files?: PathSandbox;
  heap?: HeapSnapshots;
  /** ...and its roots. */
  rootsReady?: () => Promise<void>;
}

/** Options of one call besides its name and arguments. */
export interface CallOptions {
  progress?: ProgressReporter;
  /** Aborts when the client cancels the call: a queued call never runs, a running one stops waiting. */
  signal?: AbortSignal;
  /** The calling session; calls without one share a default session in the browser's default context. */
  session?: CallSession;
}

/**
 * How long a cancelled handler may take to unwind (its waits stop at once;
 * this bounds work that ignores the signal) before the lock goes to the next call.
 */
const CANCEL_GRACE_MS = 1_000;

const CANCELLED_TEXT = 'The call was cancelled by the client.';

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map(p => String(p.key)).join('.') ?? '';
  if (issue.kind === 'schema' && issue.type === 'object' && issue.input === undefined && path) {
    return `"${path}" is required`;
  }
  return path ? `"${path}": ${issue.message}` : issue.message;
}

/**
 * Every tool call goes through here, in one order: lookup, gating, unknown
 * argument rejection, validation, then, when the scheduler lets it run (the
 * server-wide serial lock by default), lazy browser start, the session's
 * scope, file sandbox, page routing, dialog gate, handler, and response
 * assembly. Failures become isError results that still carry the page state.
 */
export class Pipeline {
  readonly #byName: Map<string, RegisteredTool>;
  readonly scheduler: CallScheduler;
  #defaultSession: CallSession | undefined;

  constructor(readonly options: PipelineOptions) {
    this.#byName = new Map(options.tools.map(t => [t.tool.name, t]));
    this.scheduler = options.scheduler ?? new CallScheduler(false);
  }

  /** The session of calls that name none: the browser's default context, the configured sandbox. */
  get defaultSession(): CallSession {
    this.#defaultSession ??= singleSession(
      this.options.browsers,
      this.options.files ?? new PathSandbox(sandboxOptions(this.options.config, 'owner')),
      this.options.heap ?? new HeapSnapshots(heapOptions(this.options.config)),
      this.options.rootsReady,
    );
    return this.#defaultSession;
  }

  /** Enabled tools, sorted by name. */
  listed(): RegisteredTool[] {
    return this.options.tools.filter(t => !t.disabledReason);
  }

  /** Throws UnknownToolError for a name that is no tool; every other failure is an isError result. */
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const session = options.session ?? this.defaultSession;
    const {hint, markerId, ...outcome} = await this.#call(name, args, {...options, session});
    const result = redacted(outcome, this.options.config);
    const maxChars = this.options.config.maxOutputChars;
    if (!maxChars) {
      return result;
    }
    const tool = this.#byName.get(name)?.tool;
    const capped = await capOutput(result, {
      // Room for the line that closes a page-content block the cut went through.
      maxChars: markerId ? Math.max(1, maxChars - closeMarkerRoom()) : maxChars,
      toolName: tool?.name ?? 'unknown_tool',
      hint: hint ?? tool?.outputHint ?? DEFAULT_OUTPUT_HINT,
      slim: tool?.slim === true,
      files: session.files,
    });
    return markerId && capped !== result ? closeCut(capped, markerId) : capped;
  }

  async #call(name: string, args: unknown, options: CallOptions & {session: CallSession}): Promise<Outcome> {
    const registered = this.#byName.get(name);
    if (!registered) {
      const names = this.listed().map(t => t.tool.name);
      const close = names.filter(n => n.includes(name) || name.includes(n) || n.split('_').some(w => name.includes(w)));
      throw new UnknownToolError(
        `Unknown tool "${name}".${close.length ? ` Did you mean ${close.map(n => `"${n}"`).join(', ')}?` : ''} Call tools/list for the available tools.`,
      );
    }
    if (registered.disabledReason) {
      return fail(registered.disabledReason, registered.tool.slim);
    }
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      return fail(`Arguments for tool "${name}" must be a JSON object.`, registered.tool.slim);
    }
    const given = (args ?? {}) as Record<string, unknown>;
    const expected = Object.keys(registered.schema.entries);
    const unknown = Object.keys(given).filter(k => !expected.includes(k));
    if (unknown.length) {
      const plural = unknown.length > 1;
      const list = unknown.map(k => `"${k}"`).join(', ');
      const expectation = expected.length
        ? `Expected arguments: ${expected.map(k => `"${k}"`).join(', ')}.`
        : 'This tool does not accept any arguments.';
      return fail(
        `Unknown argument${plural ? 's' : ''} for tool "${name}": ${list}. ${expectation} Remove ${plural ? 'them' : 'it'} and retry.`,
        registered.tool.slim,
      );
    }
    // valibot takes an array for a record (index keys); JSON Schema does not.
    const properties = (registered.inputSchema['properties'] ?? {}) as Record<string, {type?: unknown}>;
    const arrayForObject = Object.keys(given).find(k => properties[k]?.type === 'object' && Array.isArray(given[k]));
    if (arrayForObject) {
      return fail(
        `Invalid arguments for tool "${name}": "${arrayForObject}": Invalid type: Expected Object but received Array. Fix it and retry.`,
      );
    }
    const parsed = v.safeParse(registered.schema, given);
    if (!parsed.success) {
      return fail(
        `Invalid arguments for tool "${name}": ${parsed.issues.map(describeIssue).join('; ')}. Fix ${parsed.issues.length > 1 ? 'them' : 'it'} and retry.`,
        registered.tool.slim,
      );
    }
    const params = parsed.output as Record<string, unknown>;
    const signal = options.signal ?? new AbortController().signal;
    const progress = options.progress ?? NO_PROGRESS;
    const {session} = options;
    try {
      return await this.#scheduled(registered, params, {progress, signal, session});
    } catch (error) {
      if (error instanceof CancelledError) {
        debug(`${name} was cancelled before it ran`);
        return fail(CANCELLED_TEXT);
      }
      throw error;
    }
  }

  /** Runs the call when its turn comes: the serial lock (per session with --parallelSessions), or its lane. */
  #scheduled(
    registered: RegisteredTool,
    params: Record<string, unknown>,
    call: {progress: ProgressReporter; signal: AbortSignal; session: CallSession},
  ): Promise<Outcome> {
    const {lanes} = this.scheduler;
    const {tool} = registered;
    if (lanes) {
      const {signal, session} = call;
      return lanes.run({tool, params, session, signal}, bound => this.#execute(registered, params, {...call, bound}));
    }
    return this.scheduler.run(call.session.id, tool.browserWide !== undefined, call.signal, () =>
      this.#execute(registered, params, call),
    );
  }

  /** The page a page-scoped tool acts on. */
  #pageFor(params: Record<string, unknown>, scope: BrowserScope): Page {
    const pageId = params['pageId'];
    return typeof pageId === 'number' ? scope.getPageById(pageId) : scope.getSelectedPage();
  }

  async #execute(
    registered: RegisteredTool,
    params: Record<string, unknown>,
    call: {progress: ProgressReporter; signal: AbortSignal; session: CallSession; bound?: BoundPage},
  ): Promise<Outcome> {
    const {tool} = registered;
    const {config} = this.options;
    const {progress, signal, session} = call;
    const {files, heap} = session;
    if (signal.aborted) {
      return fail(CANCELLED_TEXT);
    }
    debug(`${tool.name} runs (session ${session.id})`);
    let scope;
    try {
      scope = await session.scope();
    } catch (error) {
      const cause = error instanceof Error && error.cause ? `\nCause: ${errorMessage(error.cause)}` : '';
      return fail(`${errorMessage(error)}${cause}`, tool.slim);
    }
    await session.rootsReady();
    const {downloads} = scope.browser;
    await judgeDownloadsDir(downloads, files);
    const marks = {downloadsMark: downloads.mark(), blockedMark: scope.browser.urlPolicy.blocked.mark()};
    const handles = new BrowserHandle(scope, config, files, {signal, progress});
    const context: ToolContext = {
      browser: handles,
      config,
      files,
      heap,
      progress,
      signal,
      tracing: tracingHandle(scope, files),
    };
    const response = new ResponseBuilder();
    let error: string | undefined;
    let page: Page | undefined;
    let downloadsExpectedBefore: number | undefined;
    try {
      for (const key of tool.filePaths ?? []) {
        const value = params[key];
        if (typeof value === 'string') {
          params[key] = await files.validate(value);
        }
      }
      let work: Promise<void>;
      if (tool.pageScoped) {
        page = call.bound?.page ?? this.#pageFor(params, scope);
        throwIfUnusable(page, tool);
        downloadsExpectedBefore = page.downloadsExpected;
        work = pageGuard(
          scope,
          page,
          tool,
        )(tool.handler({params, page: new PageHandle(page, handles)}, response, context));
      } else {
        work = tool.handler({params}, response, context);
      }
      await abortable(work, signal).catch(async (e: unknown) => {
        if (e instanceof CancelledError) {
          await settleWithin(work, CANCEL_GRACE_MS, tool.name);
        }
        throw e;
      });
    } catch (e) {
      error = errorMessage(e);
      debug(`${tool.name} failed`, e);
    }
    if (signal.aborted) {
      // Nobody reads this (the SDK drops answers to cancelled requests): skip the page state.
      return fail(CANCELLED_TEXT);
    }
    const state = await resolveResponseState({
      scope,
      page,
      guard: page && tool.pageScoped ? pageGuard(scope, page, tool) : undefined,
      wants: response.wants,
      files,
      notes: [session.takeNote(), boundNote(call.bound)].filter((n): n is string => Boolean(n)),
      error: error && page && call.bound ? await explainStuck(page, error, tool.name) : error,
      extensions: config.categoryExtensions,
      ...marks,
      downloadsExpectedBefore,
    });
    const isError = state.error !== undefined;
    // --untrustedContentMarkers: what the page controls goes in marked blocks (response/untrusted.ts).
    const pageContent = config.untrustedContentMarkers ? pageContentOf(tool) : undefined;
    if (tool.slim) {
      // Slim responses are the tool's own lines only (and the error), as the reference's.
      const {text, id} = slimText(response.lines, state.error, pageContent);
      return {text, images: [], isError, structured: {type: 'text', text}, markerId: id};
    }
    const {text, id} = pageContent ? response.renderMarked(state, pageContent) : {text: response.render(state)};
    return {
      text,
      images: isError ? [] : [...response.images],
      isError,
      structured: response.structured(state, pageContent),
      hint: outputHint(tool, response),
      markerId: id,
    };
  }
}

/** The result with the --secrets values replaced by their names, in its text and its structured content. */
function redacted(result: ToolResult, config: Config): ToolResult {
  const {secrets} = config;
  if (!secrets) {
    return result;
  }
  return {...result, text: secrets.redact(result.text), structured: secrets.redactDeep(result.structured)};
}

/**
 * What of a tool's own output is page content: what it declares, and the
 * error of every page tool (it can quote the page: a script's exception, a
 * dialog's message, the element covering a target).
 */
function pageContentOf(tool: RegisteredTool['tool']): ToolPageContent[] {
  return [...(tool.pageContent ?? []), ...(tool.pageScoped ? (['error'] as const) : [])];
}

/** A slim response: the tool's lines and the error, those the tool declares page content marked when asked. */
function slimText(
  lines: readonly string[],
  error: string | undefined,
  pageContent: readonly ToolPageContent[] | undefined,
): {text: string; id?: string} {
  const errorLines = error === undefined ? [] : [`Error: ${error}`];
  if (!pageContent) {
    return {text: [...lines, ...errorLines].join('\n')};
  }
  const marked = markPageContent([
    {lines, page: pageContent.includes('lines')},
    {lines: errorLines, page: pageContent.includes('error')},
  ]);
  return {text: marked.lines.join('\n'), id: marked.id};
}

/** A capped result whose cut went through a page-content block: the block closed before the cut note. */
function closeCut(result: ToolResult, id: string): ToolResult {
  const text = closeCutBlock(result.text, id);
  const {structured} = result;
  // The cap replaced the structured content by the cut text (under `text`, `message` or `errorMessage`).
  const key = ['text', 'message', 'errorMessage'].find(k => structured[k] === result.text);
  return {...result, text, structured: key ? {...structured, [key]: text} : structured};
}

/** Refuses a page tool on a page that cannot do its work: crashed, or paused by a dialog it would wait on. */
function throwIfUnusable(page: Page, tool: Pick<PageTool, 'worksOnCrashedPage' | 'blockedByDialog'>): void {
  if (page.crashed && !tool.worksOnCrashedPage) {
    throw new Error(
      `Page ${page.id} has crashed. Reload it with navigate_page (type=reload) or close it with close_page.`,
    );
  }
  if (tool.blockedByDialog) {
    page.throwIfDialogOpen();
  }
}

/** Stops work of `tool` on `page` when the page crashes or a dialog pauses it (not handle_dialog's own dialogs). */
function pageGuard(
  scope: BrowserScope,
  page: Page,
  tool: Pick<PageTool, 'name' | 'answersDialogs'>,
): <T>(work: Promise<T>) => Promise<T> {
  return work => guardPage(scope, page, work, tool.name, !tool.answersDialogs);
}

let nextSessionId = 1;

/** A CallSession for a server with one client (stdio, an embedder's transport): the default browser context. */
export function singleSession(
  browsers: BrowserManager,
  files: PathSandbox,
  heap: HeapSnapshots,
  rootsReady: (() => Promise<void>) | undefined,
  holder: ScopeHolder = new ScopeHolder(browsers, {defaultContext: true}),
): CallSession {
  return {
    id: nextSessionId++,
    files,
    heap,
    rootsReady: () => rootsReady?.() ?? Promise.resolve(),
    scope: () => holder.get(),
    takeNote: () => holder.takeNote(),
  };
}

/** How to get what the server cap cut: the tool's own hint, the snapshot's, or the generic one. */
function outputHint(tool: RegisteredTool['tool'], response: ResponseBuilder): string {
  return tool.outputHint ?? (response.wants.snapshot ? SNAPSHOT_OUTPUT_HINT : DEFAULT_OUTPUT_HINT);
}

/** A call refused or failed before its handler ran; the structured content fits the tool's outputSchema. */
function fail(text: string, slim?: boolean): ToolResult {
  return {text, images: [], isError: true, structured: slim ? {type: 'text', text} : {errorMessage: text}};
}

/**
 * --downloadsDir must be inside the calling session's roots, which its client
 * may have changed. A private session downloads into its own folder: it does
 * not judge the shared one.
 */
async function judgeDownloadsDir(downloads: DownloadTracker, files: PathSandbox): Promise<void> {
  if (!files.options.privateFolder) {
    await downloads.refresh(dir => files.validate(dir), files.roots.join('\0'));
  }
}
