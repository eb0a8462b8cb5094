import * as v from 'valibot';

import type {Config} from '../config/options.js';
import type {ResponseBuilder, ToolPageContent} from '../response/ResponseBuilder.js';
import type {ToolSectionName} from '../response/structured.js';
import type {ToolCategory, ToolCondition} from './categories.js';
import type {ToolContext, ToolPage} from './context.js';

export {CATEGORIES, type ToolCategory, type ToolCondition} from './categories.js';
export type {ToolContext, ToolPage} from './context.js';

type Entries = v.ObjectEntries;

export interface ToolRequest<E extends Entries> {
  params: v.InferOutput<v.ObjectSchema<E, undefined>>;
}

export interface PageToolRequest<E extends Entries> extends ToolRequest<E> {
  page: ToolPage;
}

/**
 * The MCP hints of a tool that changes something: each set deliberately
 * (MCP's defaults, destructive and open-world, would make clients ask before
 * every hover). Destructive: it may undo or overwrite state (a click, a
 * navigation, a closed page). Idempotent: calling it again with the same
 * arguments changes nothing more. Open world: the page it drives may reach
 * the network or run code in response.
 */
interface WriteHints {
  readOnlyHint: false;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A read-only tool: not destructive, idempotent, closed world unless it says so. */
interface ReadHints {
  readOnlyHint: true;
  openWorldHint?: boolean;
}

export type ToolAnnotations = {
  category: ToolCategory;
  /** Flags that must be on for the tool to be offered (besides its category's). */
  conditions?: readonly ToolCondition[];
} & (ReadHints | WriteHints);

interface BaseTool<E extends Entries, S extends ToolSectionName> {
  name: string;
  /** A short human name (tools/list `title`), e.g. "Take screenshot". */
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** Not a tool of chrome-devtools-mcp 1.11 (docs/beyond.md): tool-name parity checks leave it out. */
  beyondReference?: boolean;
  /** In the `--slim` set: offered only with --slim (every other tool only without it). */
  slim?: boolean;
  /** Parameters: every entry carries a v.description. */
  schema: E;
  /** Params holding file paths to check against the sandbox before the handler runs. */
  filePaths?: Array<keyof E & string>;
  /**
   * Set on tools that touch state every browser context shares (a trace, the
   * browser's download behaviour, browser-level emulation or raw CDP on the
   * browser target), saying which. With --parallelSessions such a call waits
   * until no other call runs and holds every session back while it runs;
   * without it every call is serial anyway.
   */
  browserWide?: string;
  /**
   * With --lanes page: where a call of this tool queues, and why (the why is
   * for the reader; src/server/lanes.ts says what each kind does). Unset: a
   * page tool queues in its page's lane, any other tool (and a `browserWide`
   * one) takes the browser-wide exclusive lane.
   */
  lane?: ToolLane;
  /**
   * The named response parts the handler fills itself (`response.section`).
   * They make the tool's outputSchema; a handler can only fill the ones listed.
   */
  sections?: readonly S[];
  /** How to get what --maxOutputChars cut off this tool's output (the note names it). */
  outputHint?: string;
  /**
   * The tool's own lines (`lines`) or its error (`error`) quote the page
   * (a script's result, CSS, a page-defined tool's answer, the URL a
   * navigation ended on): --untrustedContentMarkers wraps them as it wraps the
   * page parts of every response (response/sections.ts). A page tool's error
   * always counts as page content.
   */
  pageContent?: readonly ToolPageContent[];
}

/**
 * Where a call queues with --lanes page:
 * - `free`: no queue, no lock: reads state the server keeps (it waits for no page);
 * - `selection`: in the calling session's order of page choices (select_page), no lock;
 * - `browser`: alone in the whole browser, after the session's earlier page choices;
 * - `session`: in a queue of the calling session's own, no lock (it never touches the browser).
 */
export interface ToolLane {
  kind: 'free' | 'selection' | 'browser' | 'session';
  why: string;
}

/** The hint for output that a cap cut, when the tool names none. */
export const DEFAULT_OUTPUT_HINT =
  'Narrow the request, or restart the server with a larger --maxOutputChars (0 turns the cap off).';

export {SNAPSHOT_OUTPUT_HINT} from '../response/truncate.js';

export interface GlobalTool<E extends Entries = Entries, S extends ToolSectionName = ToolSectionName> extends BaseTool<
  E,
  S
> {
  pageScoped: false;
  handler(request: ToolRequest<E>, response: ResponseBuilder<S>, context: ToolContext): Promise<void>;
}

export interface PageTool<E extends Entries = Entries, S extends ToolSectionName = ToolSectionName> extends BaseTool<
  E,
  S
> {
  pageScoped: true;
  /** Refuse to run while the page shows an unanswered dialog. */
  blockedByDialog: boolean;
  /** Runs on a crashed page too (navigation brings a crashed tab back). */
  worksOnCrashedPage?: boolean;
  /** Its work is answering the page's dialogs: one open while it runs is no stall (handle_dialog). */
  answersDialogs?: boolean;
  handler(request: PageToolRequest<E>, response: ResponseBuilder<S>, context: ToolContext): Promise<void>;
}

export type Tool = GlobalTool | PageTool;
/** A tool, or a factory of one that depends on the configuration. */
export type ToolSource = Tool | ((config: Config) => Tool);

export function defineTool<E extends Entries, const S extends ToolSectionName = never>(
  tool: Omit<GlobalTool<E, S>, 'pageScoped'>,
): Tool {
  return {...tool, pageScoped: false} as unknown as Tool;
}

export function definePageTool<E extends Entries, const S extends ToolSectionName = never>(
  tool: Omit<PageTool<E, S>, 'pageScoped'>,
): Tool {
  return {...tool, pageScoped: true};
}

/** Shared parameter: a navigation/wait bound in milliseconds. */
export const timeoutEntry = {
  timeout: v.optional(v.pipe(v.number(), v.integer(), v.description('Max wait in ms; 0 or omitted: the default.'))),
};

/** Normalises the shared timeout parameter: 0 or negative means "use the default". */
export function timeoutOrDefault(timeout: number | undefined): number | undefined {
  return timeout !== undefined && timeout > 0 ? timeout : undefined;
}

export const includeSnapshotEntry = {
  includeSnapshot: v.optional(v.pipe(v.boolean(), v.description('Also return a snapshot.'))),
};

export const pageIdEntry = {
  pageId: v.pipe(v.number(), v.description('Page id, from list_pages.')),
};

/** pageId on the CLI: optional, the selected page when omitted. */
export const optionalPageIdEntry = {
  pageId: v.optional(
    v.pipe(
      v.number(),
      v.description('The id of the page to act on, as shown by list_pages. Default: the selected page.'),
    ),
  ),
};

/** Shared parameters of the paginated lists (console messages, network requests). */
export function paginationEntries(items: string) {
  return {
    pageSize: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.description(`${items} per page; omit for all.`)),
    ),
    pageIdx: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('0-based page. Default 0.'))),
  };
}
