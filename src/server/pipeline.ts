import PQueue from 'p-queue';
import * as v from 'valibot';

import type {BrowserManager} from '../browser/BrowserManager.js';
import type {Page} from '../browser/Page.js';
import {defaultNavigationTimeout} from '../browser/settle.js';
import type {Config} from '../cli/options.js';
import {formatEmulation} from '../response/format.js';
import {renderResponse, ResponseBuilder, type ImageContent, type SnapshotRequest} from '../response/ResponseBuilder.js';
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

  get pendingCalls(): number {
    return this.#queue.size + this.#queue.pending;
  }

  async call(name: string, args: unknown): Promise<ToolResult> {
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
    return this.#queue.add(() => this.#execute(registered, parsed.output as Record<string, unknown>));
  }

  async #execute(registered: RegisteredTool, params: Record<string, unknown>): Promise<ToolResult> {
    const {tool} = registered;
    const {browsers, files, config} = this.options;
    let browser;
    try {
      browser = await browsers.get();
    } catch (error) {
      const cause = error instanceof Error && error.cause ? `\nCause: ${errorMessage(error.cause)}` : '';
      return fail(`${errorMessage(error)}${cause}`);
    }
    const context: ToolContext = {browser, config, files};
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
        if (page.crashed) {
          throw new Error(
            `Page ${page.id} has crashed. Reload it with navigate_page (type=reload) or close it with close_page.`,
          );
        }
        if (tool.blockedByDialog) {
          page.throwIfDialogOpen();
        }
        await raceDialog(page, tool.handler({params, page}, response, context), tool.name);
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
              browser.pages().map(async p => ({
                id: p.id,
                title: await p.fetchTitle(),
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

  /** Waits for queued calls to finish (used at shutdown). */
  async idle(): Promise<void> {
    await this.#queue.onIdle();
  }
}

/** How long a handler may still finish on its own once a dialog opened. */
const DIALOG_GRACE_MS = 200;

/**
 * A dialog pauses the page's renderer, so CDP calls that need it (screenshot,
 * evaluate, …) would hang until their timeout. Stop waiting for the handler
 * once a dialog opens and stays open (dialogs a handler answers itself are
 * closed within the same event dispatch), after a short grace.
 */
async function raceDialog(page: Page, work: Promise<void>, toolName: string): Promise<void> {
  let off: (() => void) | undefined;
  const opened = new Promise<void>(resolve => {
    off = page.session.on('Page.javascriptDialogOpening', () => {
      setImmediate(() => {
        if (page.dialog) {
          resolve();
        }
      });
    });
  });
  try {
    const first = await Promise.race([work.then(() => 'done' as const), opened.then(() => 'dialog' as const)]);
    if (first === 'done') {
      return;
    }
    const late = await Promise.race([
      work.then(() => 'done' as const),
      new Promise<'dialog'>(resolve => setTimeout(() => resolve('dialog'), DIALOG_GRACE_MS)),
    ]);
    if (late === 'done') {
      return;
    }
    work.catch(error => debug(`${toolName} ended after a dialog opened`, errorMessage(error)));
    const dialog = page.dialog;
    throw new Error(
      `A ${dialog?.type ?? 'JavaScript'} dialog opened while ${toolName} was running and the page is paused until it is answered. Call handle_dialog, then retry.`,
    );
  } finally {
    off?.();
  }
}

function fail(text: string): ToolResult {
  return {text, images: [], isError: true};
}
