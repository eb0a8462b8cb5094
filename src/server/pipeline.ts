import PQueue from 'p-queue';
import * as v from 'valibot';

import type {Browser} from '../browser/Browser.js';
import type {BrowserManager} from '../browser/BrowserManager.js';
import type {Page} from '../browser/Page.js';
import {defaultNavigationTimeout} from '../browser/settle.js';
import type {Config} from '../cli/options.js';
import {formatEmulation} from '../response/format.js';
import {type ImageContent, renderResponse, ResponseBuilder, type SnapshotRequest} from '../response/ResponseBuilder.js';
import type {ToolContext} from '../tools/defineTool.js';
import type {RegisteredTool} from '../tools/registry.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import type {PathSandbox} from '../util/sandbox.js';

/** The result of one call, before it becomes an MCP CallToolResult. */
export interface ToolResult {
  text: string;
  images: ImageContent[];
  isError: boolean;
}

/** Renders a snapshot section for a page; provided by the snapshot layer. */
export type SnapshotProvider = (page: Page, request: SnapshotRequest, context: ToolContext) => Promise<string[]>;

export interface CallOptions {
  /** Receives progress messages of long tools; set when the client asked (progressToken). */
  progress?: (message: string) => void;
}

const noProgress = (): void => {};

export interface PipelineOptions {
  tools: RegisteredTool[];
  config: Config;
  browsers: BrowserManager;
  files: PathSandbox;
  /** Resolves once the client's roots are known (or immediately when it has none). */
  rootsReady?: () => Promise<void>;
  snapshot?: SnapshotProvider;
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
    return this.#queue.add(() =>
      this.#execute(registered, parsed.output as Record<string, unknown>, options.progress ?? noProgress),
    );
  }

  async #execute(
    registered: RegisteredTool,
    params: Record<string, unknown>,
    progress: (message: string) => void,
  ): Promise<ToolResult> {
    const {tool} = registered;
    const {browsers, files, config} = this.options;
    let browser;
    try {
      browser = await browsers.get();
    } catch (error) {
      const cause = error instanceof Error && error.cause ? `\nCause: ${errorMessage(error.cause)}` : '';
      return fail(`${errorMessage(error)}${cause}`);
    }
    const context: ToolContext = {browser, config, files, progress};
    const response = new ResponseBuilder();
    let page: Page | undefined;
    let error: string | undefined;
    try {
      for (const key of tool.filePaths ?? []) {
        const value = params[key];
        if (typeof value === 'string') {
          await this.options.rootsReady?.();
          params[key] = await files.validate(value);
        }
      }
      if (tool.pageScoped) {
        page = config.pageIdRouting ? browser.getPageById(params['pageId'] as number) : browser.getSelectedPage();
        if (page.crashed && !tool.worksOnCrashedPage) {
          throw new Error(
            `Page ${page.id} has crashed. Reload it with navigate_page (type=reload) or close it with close_page.`,
          );
        }
        if (tool.blockedByDialog) {
          page.throwIfDialogOpen();
        }
        await raceDialog(browser, page, tool.handler({params, page}, response, context), tool.name);
      } else {
        await tool.handler({params}, response, context);
      }
      if (response.snapshot) {
        const target = page ?? browser.getSelectedPage();
        if (!this.options.snapshot) {
          throw new Error('Snapshots are not available in this build.');
        }
        response.section(10, await this.options.snapshot(target, response.snapshot, context));
      }
      for (const finish of response.finishers) {
        await finish();
      }
    } catch (e) {
      error = errorMessage(e);
      debug(`${tool.name} failed`, e);
    }
    const text = renderResponse({
      notes: [browsers.takeNote()].filter((n): n is string => Boolean(n)),
      lines: response.lines,
      navigatedToUrl: response.navigatedToUrl,
      emulation: page ? formatEmulation(page.emulation, defaultNavigationTimeout(page)) : [],
      dialog: page?.dialog,
      pages: response.includePages
        ? {
            note: browser.takeSelectionNote(),
            items: await Promise.all(
              browser.pages().map(async (p, _, all) => ({
                id: p.id,
                // A dialog pauses its renderer, which other pages may share:
                // then only the titles Chrome already reported are safe to use.
                title: all.some(other => other.dialog) ? p.displayTitle : await p.fetchTitle(),
                url: p.url,
                selected: p === browser.findSelectedPage(),
                isolatedContext: p.contextName,
              })),
            ),
          }
        : undefined,
      sections: response.sections,
      error,
    });
    return {text, images: error ? [] : response.images, isError: error !== undefined};
  }
}

/** How long a handler may still finish on its own once its page shows a dialog. */
const DIALOG_GRACE_MS = 200;
/** How long a handler may stall while another page shows a dialog (renderers can be shared). */
const FOREIGN_DIALOG_STALL_MS = 1_500;
const DIALOG_POLL_MS = 25;

/**
 * A dialog pauses its renderer, and renderers can be shared between pages, so
 * CDP calls that need one (screenshot, evaluate, …) would hang until their
 * timeout. Stop waiting for the handler once a dialog stays open on its page
 * (dialogs a handler answers itself close within milliseconds), or when it
 * stalls while another page shows one, and say which dialog to answer.
 */
async function raceDialog(browser: Browser, page: Page, work: Promise<void>, toolName: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const blocked = new Promise<Error>(resolve => {
    let ownSince: number | undefined;
    let otherSince: number | undefined;
    timer = setInterval(() => {
      const now = Date.now();
      ownSince = page.dialog ? (ownSince ?? now) : undefined;
      const other = browser.pages().find(p => p !== page && p.dialog);
      otherSince = other ? (otherSince ?? now) : undefined;
      if (ownSince !== undefined && now - ownSince >= DIALOG_GRACE_MS) {
        resolve(
          new Error(
            `${capitalize(withArticle(page.dialog?.type ?? 'JavaScript'))} dialog opened while ${toolName} was running and the page is paused until it is answered. Call handle_dialog, then retry.`,
          ),
        );
      } else if (other && otherSince !== undefined && now - otherSince >= FOREIGN_DIALOG_STALL_MS) {
        resolve(
          new Error(
            `Page ${page.id} did not respond while page ${other.id} shows ${withArticle(other.dialog?.type ?? 'JavaScript')} dialog ("${other.dialog?.message}"), which pauses every page sharing its renderer. Answer it with handle_dialog on page ${other.id}, then retry.`,
          ),
        );
      }
    }, DIALOG_POLL_MS);
  });
  try {
    const outcome = await Promise.race([work.then(() => undefined), blocked]);
    if (outcome) {
      work.catch(error => debug(`${toolName} ended after a dialog blocked it`, errorMessage(error)));
      throw outcome;
    }
  } finally {
    clearInterval(timer);
  }
}

function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fail(text: string): ToolResult {
  return {text, images: [], isError: true};
}
