import {formatDialog, formatEmulation, formatPages} from './format.js';
import {formatBlocked, formatStartedDownloads} from './formatDownloads.js';
import {
  PAGE_SECTIONS,
  renderMarkedSections,
  renderSections,
  type SectionName,
  type Sections,
  type ToolPageContent,
  type ToolSectionName,
} from './sections.js';
import {serverPartsJson} from './serverParts.js';
import type {ResponseState} from './state.js';
import {type SectionDataArgs, toolPartJson, withUntrustedKeys} from './structured.js';

export interface ImageContent {
  data: string;
  mimeType: string;
}

/** take_snapshot's aimed views (snapshot/views.ts); all off: the whole tree, as the reference prints it. */
export interface SnapshotViewRequest {
  uid?: string;
  depth?: number;
  interactive?: boolean;
  /** Start with the line naming the open modal dialog, menu or listbox (also with interactive, when one is open). */
  openLayer?: boolean;
}

export interface SnapshotRequest {
  verbose: boolean;
  /** Only part of the tree, or the open-layer line (undefined: the whole tree). */
  view?: SnapshotViewRequest;
  /** Save the snapshot text to this (sandbox-checked) path instead of inlining it. */
  filePath?: string;
  /** Only what changed since the page's previous snapshot. */
  sinceLast?: boolean;
  /** Cut the inline snapshot after this many characters (at a line boundary). */
  maxChars?: number;
  /** A snapshot the tool already took for this response (its uids are in the tool's own lines): shown as is. */
  text?: string;
}

export type {ToolPageContent, ToolSectionName} from './sections.js';
export type {ResponseState, WorkerSummary} from './state.js';

/** What a response needs from the server beyond what the tool filled in. */
export interface ResponseWants {
  pages: boolean;
  snapshot: SnapshotRequest | undefined;
}

/**
 * What a tool handler fills in: it declares what the response needs and never
 * formats the whole text itself. The pipeline resolves what the response
 * wants (page list, snapshot) and the page state, then calls render.
 */
export class ResponseBuilder<S extends ToolSectionName = ToolSectionName> {
  readonly #lines: string[] = [];
  /** Which of #lines quote the page (pageLine). */
  readonly #pageLines = new Set<number>();
  readonly #images: ImageContent[] = [];
  readonly #sections = new Map<ToolSectionName, {lines: string[]; data: unknown}>();
  #includePages = false;
  #navigatedToUrl: string | undefined;
  #snapshot: SnapshotRequest | undefined;

  line(...text: string[]): this {
    this.#lines.push(...text);
    return this;
  }

  /**
   * Lines of the tool's own that quote the page (the control an event went
   * to, what an action changed): with --untrustedContentMarkers they are
   * marked, the tool's other lines are not, so a response without such a line
   * or other page content has no block.
   */
  pageLine(...text: string[]): this {
    for (const line of text) {
      this.#pageLines.add(this.#lines.length);
      this.#lines.push(line);
    }
    return this;
  }

  image(data: string, mimeType: string): this {
    this.#images.push({data, mimeType});
    return this;
  }

  /**
   * Sets one named part of the response (replacing what it held): its lines,
   * and for parts with structured content the data they show.
   */
  section<N extends S>(name: N, lines: string[], ...data: SectionDataArgs<N>): this {
    this.#sections.set(name, {lines, data: data[0]});
    return this;
  }

  includeSnapshot(request: SnapshotRequest): this {
    this.#snapshot = request;
    return this;
  }

  includePages(): this {
    this.#includePages = true;
    return this;
  }

  /** Records the effect of an action: the URL it navigated to, if it did (the last action's wins). */
  attachSettle(result: {navigatedToUrl?: string}): this {
    this.#navigatedToUrl = result.navigatedToUrl;
    return this;
  }

  get wants(): ResponseWants {
    return {pages: this.#includePages, snapshot: this.#snapshot};
  }

  get images(): readonly ImageContent[] {
    return this.#images;
  }

  /** The lines of the tool's own response (`lines`), as slim responses show them. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  /** The response text, in the reference's section order. Pure. */
  render(state: ResponseState): string {
    return renderSections(this.#parts(state));
  }

  /**
   * The response text with what the page controls in marked blocks
   * (--untrustedContentMarkers): the page parts, and the tool's own lines or
   * error when it declares them page content. Also returns the blocks' id.
   */
  renderMarked(state: ResponseState, toolPageContent: readonly ToolPageContent[]): {text: string; id?: string} {
    const {text, id} = renderMarkedSections(this.#parts(state), pagePartsWith(toolPageContent), this.#pageLines);
    return id === undefined ? {text} : {text, id};
  }

  #parts(state: ResponseState): Sections {
    const own = [...this.#sections].map(([name, part]) => [name, part.lines] as const);
    const sections: Sections = {notes: state.notes, lines: this.#lines, ...Object.fromEntries(own)};
    if (this.#navigatedToUrl) {
      sections.navigation = [`Page navigated to ${this.#navigatedToUrl}.`];
    }
    if (state.emulation) {
      sections.emulation = formatEmulation(state.emulation.state, state.emulation.navigationTimeoutMs);
    }
    if (state.dialog) {
      sections.dialog = formatDialog(state.dialog);
    }
    if (state.pages) {
      const {note, items, extensionPages = [], serviceWorkers = []} = state.pages;
      sections.pages = [...(note ? [note] : []), ...formatPages(items)];
      if (extensionPages.length) {
        sections.extensionPages = formatPages(extensionPages, '## Extension Pages');
      }
      if (serviceWorkers.length) {
        sections.serviceWorkers = ['## Extension Service Workers', ...serviceWorkers.map(w => `${w.id}: ${w.url}`)];
      }
    }
    if (state.snapshot) {
      sections.snapshot = state.snapshot;
    }
    if (state.downloads?.length) {
      sections.downloadsStarted = formatStartedDownloads(state.downloads);
    }
    if (state.blocked?.length) {
      sections.blocked = formatBlocked(state.blocked);
    }
    if (state.error !== undefined) {
      sections.error = [`Error: ${state.error}`];
    }
    return sections;
  }

  /** The structured content of the response: every part's keys, in the reference's key names. Pure. */
  structured(state: ResponseState, toolPageContent?: readonly ToolPageContent[]): Record<string, unknown> {
    const own = [...this.#sections].map(([name, {lines, data}]) => toolPartJson(name, lines, data as never));
    const server = serverPartsJson(state, this.#lines, this.#navigatedToUrl);
    // The reference's key order: reconnect, message, navigation, emulation, dialog, pages, then the tool's parts.
    const json = Object.assign({}, server.before, ...own, server.after) as Record<string, unknown>;
    const pageParts = pagePartsWith(
      this.#pageLines.size ? [...(toolPageContent ?? []), 'lines'] : (toolPageContent ?? []),
    );
    return toolPageContent ? withUntrustedKeys(json, pageParts) : json;
  }
}

/** The page parts, and the tool's own lines or error when it declares them page content. */
function pagePartsWith(toolPageContent: readonly ToolPageContent[]): ReadonlySet<SectionName> {
  return toolPageContent.length ? new Set([...PAGE_SECTIONS, ...toolPageContent]) : PAGE_SECTIONS;
}
