import type {BrowserManager} from '../browser/core/BrowserManager.js';
import type {BrowserScope} from '../browser/core/BrowserScope.js';
import type {Page} from '../browser/core/Page.js';
import type {CallDownloads} from '../browser/downloads/callDownloads.js';
import type {Config} from '../config/options.js';
import {heapOptions, HeapSnapshots} from '../devtools/heap/HeapSnapshots.js';
import {type ImageContent, ResponseBuilder} from '../response/ResponseBuilder.js';
import {closeMarkerRoom} from '../response/untrusted.js';
import type {ToolContext} from '../tools/context.js';
import {DEFAULT_OUTPUT_HINT, SNAPSHOT_OUTPUT_HINT, type Tool} from '../tools/defineTool.js';
import type {BrowserHandle} from '../tools/handles.js';
import type {RegisteredTool} from '../tools/registry.js';
import {abortable, CancelledError, errorMessage, settleWithin} from '../util/async.js';
import {debug} from '../util/logger.js';
import {quotesPage} from '../util/pageQuote.js';
import {NO_PROGRESS, type ProgressReporter} from '../util/progress.js';
import {PathSandbox} from '../util/sandbox.js';
import {validateArguments} from './arguments.js';
import {checkFilePaths, sandboxOptions} from './filePolicy.js';
import {boundNote, explainStuckError} from './laneNotes.js';
import type {BoundPage} from './lanes.js';
import {type CallParts, loadCallParts} from './loadCallParts.js';
import {capOutput} from './outputCap.js';
import {closeCut, imagesOf, pageContentOf, redacted, slimText} from './outputPasses.js';
import {CallScheduler} from './scheduler.js';
import {ScopeHolder} from './scopeHolder.js';
import {UnknownToolError} from './unknownTool.js';

/** The result of one call, before it becomes an MCP CallToolResult. */
export interface ToolResult {
  text: string;
  images: ImageContent[];
  isError: boolean;
  /**
   * The same facts as JSON: made only with --experimentalStructuredContent (the only
   * time clients get it), as a snapshot's tree made again as JSON costs its size.
   */
  structured?: Record<string, unknown>;
  /** A text part to put before each image (--untrustedContentMarkers: an image shows the page). */
  imageNote?: string;
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

/** A call whose arguments passed, waiting for or having its turn: its progress, cancel signal, session and (page lanes) bound page. */
interface Turn {
  progress: ProgressReporter;
  signal: AbortSignal;
  session: CallSession;
  bound?: BoundPage;
}

/** What a call that got its turn runs with: the session's scope, the handler's context, the marks of what it may cause. */
interface Running {
  turn: Turn;
  parts: CallParts;
  scope: BrowserScope;
  handles: BrowserHandle;
  context: ToolContext;
  downloads: CallDownloads;
  /** What the URL policy blocked from this mark on happened during the call. */
  blockedMark: number;
}

/** How the handler ended: the page it acted on (as far as routing got) and its error. */
interface Ran {
  page?: Page;
  error?: string;
  /** Whether the error quotes the page (util/pageQuote.ts). */
  errorQuotesPage?: boolean;
}

/**
 * Every tool call goes through here, in the steps of one request's lifecycle:
 * gate (the tool exists and is on), validate (its arguments), lock (the
 * scheduler's turn: the server-wide serial lock by default), context (the
 * session's browser, started on first use, and the handler's context),
 * response, files (sandboxed paths), page (routing; a crashed page refused),
 * dialog (an open one refused; the guard during the work), handler, and
 * assemble (page state, text, structured content). Failures become isError
 * results that still carry the page state.
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
      maxChars,
      // Room for the line that closes a page-content block the cut went through.
      reserve: markerId ? closeMarkerRoom() : 0,
      toolName: tool?.name ?? 'unknown_tool',
      hint: hint ?? tool?.outputHint ?? DEFAULT_OUTPUT_HINT,
      slim: tool?.slim === true,
      files: session.files,
    });
    return markerId && capped !== result ? closeCut(capped, markerId) : capped;
  }

  /** Gate and validate (before any lock: they need no browser), then the call when its turn comes. */
  async #call(name: string, args: unknown, options: CallOptions & {session: CallSession}): Promise<Outcome> {
    const registered = this.#gate(name);
    if (registered.disabledReason) {
      return fail(registered.disabledReason, registered.tool.slim);
    }
    const checked = validateArguments(registered, args);
    if ('refusal' in checked) {
      return fail(checked.refusal, registered.tool.slim && !checked.unslim);
    }
    const turn: Turn = {
      progress: options.progress ?? NO_PROGRESS,
      signal: options.signal ?? new AbortController().signal,
      session: options.session,
    };
    try {
      return await this.#scheduled(registered, checked.params, turn);
    } catch (error) {
      if (error instanceof CancelledError) {
        debug(`${name} was cancelled before it ran`);
        return fail(CANCELLED_TEXT);
      }
      throw error;
    }
  }

  /** Gate: the tool of that name (an UnknownToolError naming close ones when there is none). */
  #gate(name: string): RegisteredTool {
    const registered = this.#byName.get(name);
    if (registered) {
      return registered;
    }
    const names = this.listed().map(t => t.tool.name);
    const close = names.filter(n => n.includes(name) || name.includes(n) || n.split('_').some(w => name.includes(w)));
    throw new UnknownToolError(
      `Unknown tool "${name}".${close.length ? ` Did you mean ${close.map(n => `"${n}"`).join(', ')}?` : ''} Call tools/list for the available tools.`,
    );
  }

  /** Lock: runs the call when its turn comes: the serial lock (per session with --parallelSessions), or its lane. */
  #scheduled(registered: RegisteredTool, params: Record<string, unknown>, turn: Turn): Promise<Outcome> {
    const {lanes} = this.scheduler;
    const {tool} = registered;
    if (lanes) {
      const {signal, session} = turn;
      return lanes.run({tool, params, session, signal}, bound => this.#execute(tool, params, {...turn, bound}));
    }
    return this.scheduler.run(turn.session.id, tool.browserWide !== undefined, turn.signal, () =>
      this.#execute(tool, params, turn),
    );
  }

  /**
   * A call that got its turn: context, response, then files, page, dialog and
   * handler (what fails there is the response's error), then assemble.
   */
  async #execute(tool: Tool, params: Record<string, unknown>, turn: Turn): Promise<Outcome> {
    if (turn.signal.aborted) {
      return fail(CANCELLED_TEXT);
    }
    const pageId = turn.bound?.page.id ?? params['pageId'];
    debug(`${tool.name} runs (session ${turn.session.id}${typeof pageId === 'number' ? `, page ${pageId}` : ''})`);
    const running = await this.#context(turn);
    if (typeof running === 'string') {
      return fail(running, tool.slim);
    }
    const response = new ResponseBuilder();
    const ran = await this.#run(tool, params, running, response);
    if (turn.signal.aborted) {
      // Nobody reads this (the SDK drops answers to cancelled requests): skip the page state.
      return fail(CANCELLED_TEXT);
    }
    return this.#assemble(tool, response, running, ran);
  }

  /**
   * Context: the session's scope (the browser starts on first use; the text
   * of a failed start), its roots, the downloads bookkeeping and the
   * blocked-request mark of the call, the handler's context.
   */
  async #context(turn: Turn): Promise<Running | string> {
    const {config} = this.options;
    const {progress, signal, session} = turn;
    const {files, heap} = session;
    let scope: BrowserScope;
    try {
      scope = await session.scope();
    } catch (error) {
      const cause = error instanceof Error && error.cause ? `\nCause: ${errorMessage(error.cause)}` : '';
      return `${errorMessage(error)}${cause}`;
    }
    await session.rootsReady();
    const parts = await loadCallParts();
    const downloads = await scope.watchDownloads(files);
    const blockedMark = scope.browser.urlPolicy.blocked.mark();
    const handles = new parts.BrowserHandle(scope, config, files, {signal, progress});
    const context: ToolContext = {
      browser: handles,
      config,
      files,
      heap,
      progress,
      signal,
      tracing: parts.tracingHandle(scope, files),
    };
    return {turn, parts, scope, handles, context, downloads, blockedMark};
  }

  /** Files, page, dialog, handler: a failure on the way is the call's error, with the page it had got to. */
  async #run(tool: Tool, params: Record<string, unknown>, running: Running, response: ResponseBuilder): Promise<Ran> {
    const {scope, turn} = running;
    const {pageFor, pageGuard, PageHandle, throwIfUnusable} = running.parts;
    let page: Page | undefined;
    try {
      await checkFilePaths(tool, params, turn.session.files);
      let work: Promise<void>;
      if (tool.pageScoped) {
        page = turn.bound?.page ?? pageFor(params, scope);
        throwIfUnusable(page, tool);
        running.downloads.watch(page);
        const request = {params, page: new PageHandle(page, running.handles)};
        work = pageGuard(scope, page, tool)(tool.handler(request, response, running.context));
        // From here a crash or a dialog is this call's ("crashed while <tool> was running").
        debug(`${tool.name} works on page ${page.id}`);
      } else {
        work = tool.handler({params}, response, running.context);
      }
      await untilCancelled(work, turn.signal, tool.name);
      return {page};
    } catch (e) {
      debug(`${tool.name} failed`, e);
      return {page, error: errorMessage(e), errorQuotesPage: quotesPage(e)};
    }
  }

  /** Assemble: the page state the response shows, then its text (a slim tool's own lines only), images and structured content. */
  async #assemble(tool: Tool, response: ResponseBuilder, running: Running, ran: Ran): Promise<Outcome> {
    const {config} = this.options;
    const {scope, turn} = running;
    const {page} = ran;
    const {pageGuard, resolveResponseState} = running.parts;
    const state = await resolveResponseState({
      ...ran,
      scope,
      guard: page && tool.pageScoped ? pageGuard(scope, page, tool) : undefined,
      wants: response.wants,
      files: turn.session.files,
      notes: [turn.session.takeNote(), boundNote(turn.bound)].filter((n): n is string => Boolean(n)),
      extensions: config.categoryExtensions,
      downloads: running.downloads,
      blockedMark: running.blockedMark,
      signal: turn.signal,
    });
    if (turn.signal.aborted) {
      return fail(CANCELLED_TEXT);
    }
    if (page) {
      // The handler's error or the response snapshot's: either may be a wait that ran out on a stuck page.
      await explainStuckError(page, state, tool.name, this.scheduler.lanes ? 'page' : 'server');
    }
    const isError = state.error !== undefined;
    // --untrustedContentMarkers: what the page controls goes in marked blocks (response/untrusted.ts).
    const pageContent = config.untrustedContentMarkers ? pageContentOf(tool, state.errorQuotesPage) : undefined;
    if (tool.slim) {
      // Slim responses are the tool's own lines only (and the error), as the reference's.
      const {text, id} = slimText(response.lines, state.error, pageContent);
      return {text, images: [], isError, structured: {type: 'text', text}, markerId: id};
    }
    const {text, id} = pageContent ? response.renderMarked(state, pageContent) : {text: response.render(state)};
    return {
      text,
      ...imagesOf(response.images, isError, pageContent),
      isError,
      structured: config.experimentalStructuredContent ? response.structured(state, pageContent) : undefined,
      hint: outputHint(tool, response),
      markerId: id,
    };
  }
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

/** Waits for the handler's work until the client cancels; then gives it CANCEL_GRACE_MS to unwind before the lock moves on. */
async function untilCancelled(work: Promise<void>, signal: AbortSignal, toolName: string): Promise<void> {
  await abortable(work, signal).catch(async (e: unknown) => {
    if (e instanceof CancelledError) {
      await settleWithin(work, CANCEL_GRACE_MS, toolName);
    }
    throw e;
  });
}
