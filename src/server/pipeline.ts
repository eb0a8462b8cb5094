import PQueue from 'p-queue';
import * as v from 'valibot';

import type {Browser} from '../browser/Browser.js';
import type {BrowserManager} from '../browser/BrowserManager.js';
import {guardAgainstDialogs} from '../browser/dialogGuard.js';
import type {Page} from '../browser/Page.js';
import type {Config} from '../cli/options.js';
import {type ImageContent, ResponseBuilder} from '../response/ResponseBuilder.js';
import type {ToolContext} from '../tools/context.js';
import {BrowserHandle, PageHandle} from '../tools/handles.js';
import type {RegisteredTool} from '../tools/registry.js';
import {abortable, CancelledError, errorMessage} from '../util/async.js';
import {debug, warn} from '../util/logger.js';
import {NO_PROGRESS, type ProgressReporter} from '../util/progress.js';
import type {PathSandbox} from '../util/sandbox.js';
import {resolveResponseState} from './responseState.js';

/** The result of one call, before it becomes an MCP CallToolResult. */
export interface ToolResult {
  text: string;
  images: ImageContent[];
  isError: boolean;
}

export interface PipelineOptions {
  tools: RegisteredTool[];
  config: Config;
  browsers: BrowserManager;
  files: PathSandbox;
  /** Resolves once the client's roots are known (or immediately when it has none). */
  rootsReady?: () => Promise<void>;
}

/** Options of one call besides its name and arguments. */
export interface CallOptions {
  progress?: ProgressReporter;
  /** Aborts when the client cancels the call: a queued call never runs, a running one stops waiting. */
  signal?: AbortSignal;
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
 * argument rejection, validation, then, under the server-wide serial lock,
 * lazy browser start, file sandbox, page routing, dialog gate, handler, and
 * response assembly. Failures become isError results that still carry the page state.
 */
export class Pipeline {
  readonly #byName: Map<string, RegisteredTool>;
  // Concurrency 1 is the serial lock. No p-queue `timeout`: it would start the
  // next call while the timed-out one still runs. Bounds live inside the calls.
  readonly #queue = new PQueue({concurrency: 1});

  constructor(readonly options: PipelineOptions) {
    this.#byName = new Map(options.tools.map(t => [t.tool.name, t]));
  }

  /** Enabled tools, sorted by name. */
  listed(): RegisteredTool[] {
    return this.options.tools.filter(t => !t.disabledReason);
  }

  async call(name: string, args: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const registered = this.#byName.get(name);
    if (!registered) {
      const names = this.listed().map(t => t.tool.name);
      const close = names.filter(n => n.includes(name) || name.includes(n) || n.split('_').some(w => name.includes(w)));
      return fail(
        `Unknown tool "${name}".${close.length ? ` Did you mean ${close.map(n => `"${n}"`).join(', ')}?` : ''} Call tools/list for the available tools.`,
      );
    }
    if (registered.disabledReason) {
      return fail(registered.disabledReason);
    }
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
      return fail(`Arguments for tool "${name}" must be a JSON object.`);
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
      );
    }
    const parsed = v.safeParse(registered.schema, given);
    if (!parsed.success) {
      return fail(
        `Invalid arguments for tool "${name}": ${parsed.issues.map(describeIssue).join('; ')}. Fix ${parsed.issues.length > 1 ? 'them' : 'it'} and retry.`,
      );
    }
    const params = parsed.output as Record<string, unknown>;
    const signal = options.signal ?? new AbortController().signal;
    const progress = options.progress ?? NO_PROGRESS;
    return this.#enqueue(() => this.#execute(registered, params, progress, signal), signal);
  }

  /**
   * Runs `work` under the lock. A call cancelled while queued is dropped
   * without running. Once running, cancellation is the work's business (the
   * signal reaches every wait): p-queue would otherwise free the lock at once
   * while the work still runs.
   */
  async #enqueue(work: () => Promise<ToolResult>, signal: AbortSignal): Promise<ToolResult> {
    if (signal.aborted) {
      return fail(CANCELLED_TEXT);
    }
    const whileQueued = new AbortController();
    const forward = () => whileQueued.abort();
    signal.addEventListener('abort', forward, {once: true});
    try {
      return await this.#queue.add(
        () => {
          signal.removeEventListener('abort', forward);
          return work();
        },
        {signal: whileQueued.signal},
      );
    } catch (error) {
      if (whileQueued.signal.aborted) {
        debug('a queued call was cancelled before it ran');
        return fail(CANCELLED_TEXT);
      }
      throw error;
    } finally {
      signal.removeEventListener('abort', forward);
    }
  }

  /** The page a page-scoped tool acts on. */
  #pageFor(params: Record<string, unknown>, browser: Browser): Page {
    return this.options.config.pageIdRouting
      ? browser.getPageById(params['pageId'] as number)
      : browser.getSelectedPage();
  }

  async #execute(
    registered: RegisteredTool,
    params: Record<string, unknown>,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const {tool} = registered;
    const {browsers, files, config} = this.options;
    if (signal.aborted) {
      return fail(CANCELLED_TEXT);
    }
    let browser;
    try {
      browser = await browsers.get();
    } catch (error) {
      const cause = error instanceof Error && error.cause ? `\nCause: ${errorMessage(error.cause)}` : '';
      return fail(`${errorMessage(error)}${cause}`);
    }
    const handles = new BrowserHandle(browser, config, files, {signal, progress});
    const context: ToolContext = {browser: handles, config, files, progress, signal};
    const response = new ResponseBuilder();
    let error: string | undefined;
    let page: Page | undefined;
    try {
      for (const key of tool.filePaths ?? []) {
        const value = params[key];
        if (typeof value === 'string') {
          await this.options.rootsReady?.();
          params[key] = await files.validate(value);
        }
      }
      let work: Promise<void>;
      if (tool.pageScoped) {
        page = this.#pageFor(params, browser);
        if (page.crashed && !tool.worksOnCrashedPage) {
          throw new Error(
            `Page ${page.id} has crashed. Reload it with navigate_page (type=reload) or close it with close_page.`,
          );
        }
        if (tool.blockedByDialog) {
          page.throwIfDialogOpen();
        }
        const handlerWork = tool.handler({params, page: new PageHandle(page, handles)}, response, context);
        work = guardAgainstDialogs(browser, page, handlerWork, tool.name);
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
      browser,
      page,
      wants: response.wants,
      files,
      notes: [browsers.takeNote()].filter((n): n is string => Boolean(n)),
      error,
    });
    return {
      text: response.render(state),
      images: state.error ? [] : [...response.images],
      isError: state.error !== undefined,
    };
  }
}

/** Waits for cancelled work to unwind, but not for longer than `ms`. */
async function settleWithin(work: Promise<unknown>, ms: number, toolName: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>(resolve => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === 'late') {
    warn(`${toolName} was cancelled but did not stop within ${ms} ms; the next call runs anyway.`);
  }
}

function fail(text: string): ToolResult {
  return {text, images: [], isError: true};
}
