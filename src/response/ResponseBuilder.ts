import {
  type DialogView,
  type EmulationView,
  formatDialog,
  formatEmulation,
  formatPages,
  type PageSummary,
} from './format.js';
import {type DownloadView, formatStartedDownloads} from './formatDownloads.js';
import {renderSections, type SectionName, type Sections} from './sections.js';

export interface ImageContent {
  data: string;
  mimeType: string;
}

export interface SnapshotRequest {
  verbose: boolean;
  /** Save the snapshot text to this (sandbox-checked) path instead of inlining it. */
  filePath?: string;
  /** Only what changed since the page's previous snapshot. */
  sinceLast?: boolean;
  /** Cut the inline snapshot after this many characters (at a line boundary). */
  maxChars?: number;
}

/** The parts a tool fills itself; the others come from the page state or the pipeline. */
export type ToolSectionName = Exclude<
  SectionName,
  'notes' | 'lines' | 'navigation' | 'downloadsStarted' | 'emulation' | 'dialog' | 'pages' | 'snapshot' | 'error'
>;

/** What the server resolved for a finished call: the page state the response shows. */
export interface ResponseState {
  notes: string[];
  /** The response's page emulation and its default navigation timeout; absent for page-less tools. */
  emulation?: {state: EmulationView; navigationTimeoutMs: number};
  dialog?: DialogView;
  /** Resolved only when the tool asked for the page list. */
  pages?: {note?: string; items: PageSummary[]};
  /** Resolved only when the tool asked for a snapshot. */
  snapshot?: string[];
  /** Downloads that began during the call. */
  downloads?: DownloadView[];
  /** The handler's (or the resolution's) failure. */
  error?: string;
}

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
export class ResponseBuilder {
  readonly #lines: string[] = [];
  readonly #images: ImageContent[] = [];
  readonly #sections = new Map<ToolSectionName, string[]>();
  #includePages = false;
  #navigatedToUrl: string | undefined;
  #snapshot: SnapshotRequest | undefined;

  line(...text: string[]): this {
    this.#lines.push(...text);
    return this;
  }

  image(data: string, mimeType: string): this {
    this.#images.push({data, mimeType});
    return this;
  }

  /** Sets one named part of the response (replacing what it held). */
  section(name: ToolSectionName, lines: string[]): this {
    this.#sections.set(name, lines);
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

  /** The response text, in the reference's section order. Pure. */
  render(state: ResponseState): string {
    const sections: Sections = {notes: state.notes, lines: this.#lines, ...Object.fromEntries(this.#sections)};
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
      sections.pages = [...(state.pages.note ? [state.pages.note] : []), ...formatPages(state.pages.items)];
    }
    if (state.snapshot) {
      sections.snapshot = state.snapshot;
    }
    if (state.downloads?.length) {
      sections.downloadsStarted = formatStartedDownloads(state.downloads);
    }
    if (state.error !== undefined) {
      sections.error = [`Error: ${state.error}`];
    }
    return renderSections(sections);
  }
}
