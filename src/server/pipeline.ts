import PQueue from 'p-queue';
import * as v from 'valibot';

import type {BrowserManager} from '../browser/BrowserManager.js';
import {guardAgainstDialogs} from '../browser/dialogGuard.js';
import type {Page} from '../browser/Page.js';
import type {Config} from '../cli/options.js';
import type {HeapSnapshots} from '../devtools/heap/HeapSnapshots.js';
import {type ImageContent, ResponseBuilder} from '../response/ResponseBuilder.js';
import {capText} from '../response/truncate.js';
import type {ToolContext} from '../tools/context.js';
import {DEFAULT_OUTPUT_HINT, SNAPSHOT_OUTPUT_HINT} from '../tools/defineTool.js';
import {BrowserHandle, PageHandle, tracingHandle} from '../tools/handles.js';
import type {RegisteredTool} from '../tools/registry.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {NO_PROGRESS, type ProgressReporter} from '../util/progress.js';
import type {PathSandbox} from '../util/sandbox.js';
import {resolveResponseState} from './responseState.js';

/** The result of one call, before it becomes an MCP CallToolResult. */
export interface ToolResult {
  text: string;
  images: ImageContent[];
  isError: boolean;
  /** The same facts as JSON (clients get it with --experimentalStructuredContent). */
  structured: Record<string, unknown>;
}

export interface PipelineOptions {
  tools: RegisteredTool[];
  config: Config;
  browsers: BrowserManager;
  files: PathSandbox;
  heap: HeapSnapshots;
  /** Resolves once the client's roots are known (or immediately when it has none). */
  rootsReady?: () => Promise<void>;
}

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

  async call(name: string, args: unknown, progress: ProgressReporter = NO_PROGRESS): Promise<ToolResult> {
    const registered = this.#byName.get(name);
    if (!registered) {
      const names = this.listed().map(t => t.tool.name);
      const close = names.filter(n => n.includes(name) || name.includes(n) || n.split('_').some(w => name.includes(w)));
      return fail(
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
    return this.#queue.add(() => this.#execute(registered, parsed.output as Record<string, unknown>, progress));
  }

  async #execute(
    registered: RegisteredTool,
    params: Record<string, unknown>,
    progress: ProgressReporter,
  ): Promise<ToolResult> {
    const {tool} = registered;
    const {browsers, files, config, heap} = this.options;
    let browser;
    try {
      browser = await browsers.get();
    } catch (error) {
      const cause = error instanceof Error && error.cause ? `\nCause: ${errorMessage(error.cause)}` : '';
      return fail(`${errorMessage(error)}${cause}`, tool.slim);
    }
    // The downloads folder must be inside the roots, which the client may have changed.
    await this.options.rootsReady?.();
    await browser.downloads.refresh();
    const downloadsMark = browser.downloads.mark();
    const handles = new BrowserHandle(browser, config, files);
    const tracing = tracingHandle(browser, files);
    const context: ToolContext = {browser: handles, config, files, heap, progress, tracing};
    const response = new ResponseBuilder();
    let page: Page | undefined;
    let error: string | undefined;
    let downloadsExpectedBefore: number | undefined;
    try {
      for (const key of tool.filePaths ?? []) {
        const value = params[key];
        if (typeof value === 'string') {
          await this.options.rootsReady?.();
          params[key] = await files.validate(value);
        }
      }
      if (tool.pageScoped) {
        const pageId = params['pageId'];
        page = typeof pageId === 'number' ? browser.getPageById(pageId) : browser.getSelectedPage();
        if (page.crashed && !tool.worksOnCrashedPage) {
          throw new Error(
            `Page ${page.id} has crashed. Reload it with navigate_page (type=reload) or close it with close_page.`,
          );
        }
        if (tool.blockedByDialog) {
          page.throwIfDialogOpen();
        }
        downloadsExpectedBefore = page.downloadsExpected;
        const work = tool.handler({params, page: new PageHandle(page, handles)}, response, context);
        await guardAgainstDialogs(browser, page, work, tool.name);
      } else {
        await tool.handler({params}, response, context);
      }
    } catch (e) {
      error = errorMessage(e);
      debug(`${tool.name} failed`, e);
    }
    const state = await resolveResponseState({
      browser,
      page,
      wants: response.wants,
      files,
      notes: [browsers.takeNote()].filter((n): n is string => Boolean(n)),
      error,
      extensions: config.categoryExtensions,
      downloadsMark,
      downloadsExpectedBefore,
    });
    const isError = state.error !== undefined;
    if (tool.slim) {
      // Slim responses are the tool's own lines only (and the error), as the reference's.
      const text = [...response.lines, ...(isError ? [`Error: ${state.error}`] : [])].join('\n');
      return {text, images: [], isError, structured: {type: 'text', text}};
    }
    const text = response.render(state);
    return {
      text: config.maxOutputChars ? capText(text, config.maxOutputChars, outputHint(tool, response)) : text,
      images: isError ? [] : [...response.images],
      isError,
      structured: response.structured(state),
    };
  }
}

/** How to get what the server cap cut: the tool's own hint, the snapshot's, or the generic one. */
function outputHint(tool: RegisteredTool['tool'], response: ResponseBuilder): string {
  return tool.outputHint ?? (response.wants.snapshot ? SNAPSHOT_OUTPUT_HINT : DEFAULT_OUTPUT_HINT);
}

/** A call refused or failed before its handler ran; the structured content fits the tool's outputSchema. */
function fail(text: string, slim?: boolean): ToolResult {
  return {text, images: [], isError: true, structured: slim ? {type: 'text', text} : {errorMessage: text}};
}
