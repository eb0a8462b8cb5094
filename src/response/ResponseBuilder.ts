import type {OpenDialog} from '../browser/Page.js';
import type {SettleResult} from '../browser/settle.js';
import {formatDialog, formatPages, type PageSummary} from './format.js';

export interface ImageContent {
  data: string;
  mimeType: string;
}

export interface SnapshotRequest {
  verbose: boolean;
  /** Save the snapshot text to this (sandbox-checked) path instead of inlining it. */
  filePath?: string;
}

/** A section provided by a later layer (snapshot, network, console, …). */
export interface ExtraSection {
  /** Position in the fixed order; see SECTION_ORDER. */
  order: number;
  lines: string[];
}

/** Fixed order of optional sections between the page list and the error line. */
export const SECTION_ORDER = {
  lighthouse: 9,
  snapshot: 10,
  networkRequest: 12,
  consoleMessage: 13,
  networkList: 17,
  consoleList: 18,
} as const;

/**
 * What a tool handler fills in: it declares what the response needs and never
 * formats the whole text itself. The pipeline resolves page state and renders.
 */
export class ResponseBuilder {
  readonly lines: string[] = [];
  readonly images: ImageContent[] = [];
  readonly sections: ExtraSection[] = [];
  includePages = false;
  navigatedToUrl: string | undefined;
  /** A page snapshot to append (rendered by the snapshot provider). */
  snapshot: SnapshotRequest | undefined;
  /** Deferred work that produces sections once the handler is done (e.g. a snapshot). */
  readonly finishers: Array<() => Promise<void>> = [];

  line(...text: string[]): this {
    this.lines.push(...text);
    return this;
  }

  image(data: string, mimeType: string): this {
    this.images.push({data, mimeType});
    return this;
  }

  includeSnapshot(request: SnapshotRequest): this {
    this.snapshot = request;
    return this;
  }

  setIncludePages(value = true): this {
    this.includePages = value;
    return this;
  }

  section(order: number, lines: string[]): this {
    this.sections.push({order, lines});
    return this;
  }

  /** Records the effects of an action (navigation) for the response. */
  attachSettle(result: Pick<SettleResult, 'navigatedToUrl'>): this {
    if (result.navigatedToUrl) {
      this.navigatedToUrl = result.navigatedToUrl;
    }
    return this;
  }

  onFinish(work: () => Promise<void>): this {
    this.finishers.push(work);
    return this;
  }
}

/** Everything the final text is made of, already resolved. */
export interface ResponseParts {
  notes: string[];
  lines: string[];
  navigatedToUrl?: string;
  emulation: string[];
  dialog?: OpenDialog;
  pages?: {note?: string; items: PageSummary[]};
  sections: ExtraSection[];
  error?: string;
}

/** Renders the response text in the reference's section order. Pure. */
export function renderResponse(parts: ResponseParts): string {
  const out: string[] = [...parts.notes, ...parts.lines];
  if (parts.navigatedToUrl) {
    out.push(`Page navigated to ${parts.navigatedToUrl}.`);
  }
  out.push(...parts.emulation);
  if (parts.dialog) {
    out.push(...formatDialog(parts.dialog));
  }
  if (parts.pages) {
    if (parts.pages.note) {
      out.push(parts.pages.note);
    }
    out.push(...formatPages(parts.pages.items));
  }
  for (const section of [...parts.sections].sort((a, b) => a.order - b.order)) {
    out.push(...section.lines);
  }
  if (parts.error) {
    out.push(`Error: ${parts.error}`);
  }
  return out.join('\n');
}
