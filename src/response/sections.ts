import {markPageContent} from './untrusted.js';

/**
 * The parts of a tool response, in the one order they are printed (the
 * reference's McpResponse order). Tools and the server fill parts by name;
 * rendering walks this table, and `parseSections` (for tests) reads a rendered
 * text back into the same parts using each part's first-line pattern.
 */
export const SECTIONS = [
  /** One-shot notes (the browser was relaunched, …). */
  {name: 'notes'},
  /** The tool's own lines. */
  {name: 'lines'},
  /** `Page navigated to <url>.` after an action that navigated. */
  {name: 'navigation', page: true, start: /^Page navigated to /},
  /** Downloads the call started (the server adds them). */
  {name: 'downloadsStarted', page: true, start: /^## Downloads started$/},
  /** What the URL policy blocked during the call (the server adds it). */
  {name: 'blocked', page: true, start: /^## Blocked by the URL policy$/},
  /** Emulation status of the response's page. */
  {name: 'emulation', start: /^(Emulating |Default navigation timeout set to )/},
  {name: 'dialog', page: true, start: /^# Open dialog$/},
  /** The selection note and `## Pages`. */
  {name: 'pages', page: true, start: /^(## Pages$|Note: the previously selected page)/},
  {name: 'extensionPages', page: true, start: /^## Extension Pages$/},
  {name: 'serviceWorkers', start: /^## Extension Service Workers$/},
  /** Structured content only: the tab id get_tab_id reports (its line is the tool's own). */
  {name: 'tabId'},
  /** Structured content only: evaluate_script's result as JSON (its text is the tool's own lines). */
  {name: 'scriptResult', page: true},
  {name: 'traceSummary', page: true, start: /^## Summary of Performance trace findings:/},
  {name: 'traceInsight', page: true, start: /^## Insight Title:/},
  {name: 'lighthouse', page: true, start: /^## Lighthouse audit results$/},
  {
    name: 'snapshot',
    page: true,
    start: /^(## Latest page snapshot$|## Changes since the previous snapshot$|Saved snapshot to )/,
  },
  {name: 'pageText', page: true, start: /^## Page text$/},
  {name: 'cdpResult', page: true, start: /^## CDP result$/},
  {name: 'heapSnapshot', page: true, start: /^## Heap Snapshot Data$/},
  {name: 'networkRequest', page: true, start: /^## Request /},
  {name: 'consoleMessage', page: true, start: /^ID: \d+$/},
  {name: 'extensions', start: /^## Extensions$/},
  {name: 'thirdPartyTools', page: true, start: /^## Third-party developer tools$/},
  {name: 'webmcpTools', page: true, start: /^## WebMCP tools$/},
  {name: 'networkMocks', start: /^## Network mocks$/},
  {name: 'downloads', page: true, start: /^## Downloads$/},
  {name: 'networkList', page: true, start: /^## Network requests$/},
  {name: 'consoleList', page: true, start: /^## Console messages$/},
  /** `Error: <message>` when the handler failed. */
  {name: 'error', start: /^Error: /},
] as const satisfies ReadonlyArray<{name: string; page?: true; start?: RegExp}>;

export type SectionName = (typeof SECTIONS)[number]['name'];

/**
 * The parts whose text the web page controls (`page: true` above: titles,
 * URLs, the snapshot, page text, console and network records, dialog
 * messages, page-defined tools, what traces, audits and heap snapshots
 * quote), which --untrustedContentMarkers wraps. A tool adds its own lines or
 * its error when it declares them page content (`pageContent` in defineTool).
 */
export const PAGE_SECTIONS: ReadonlySet<SectionName> = new Set(
  SECTIONS.filter(s => 'page' in s && s.page).map(s => s.name),
);

/** What a tool may declare page content besides the page parts. */
export type ToolPageContent = 'lines' | 'error';

/** The parts a tool fills itself (`response.section`); the others come from the page state or the pipeline. */
export type ToolSectionName = Exclude<
  SectionName,
  | 'notes'
  | 'lines'
  | 'navigation'
  | 'downloadsStarted'
  | 'blocked'
  | 'emulation'
  | 'dialog'
  | 'pages'
  | 'extensionPages'
  | 'serviceWorkers'
  | 'snapshot'
  | 'error'
>;

/** The lines of each part present in a response. */
export type Sections = Partial<Record<SectionName, string[]>>;

/** Joins the parts in table order. Pure. */
export function renderSections(sections: Sections): string {
  return SECTIONS.flatMap(({name}) => sections[name] ?? []).join('\n');
}

/**
 * renderSections with the page's parts (`pageParts`) and the tool's lines
 * that quote the page (`pageLines`, indices in `lines`) in marked blocks
 * (untrusted.ts): one per run of consecutive page parts, all with one fresh id.
 */
export function renderMarkedSections(
  sections: Sections,
  pageParts: ReadonlySet<SectionName>,
  pageLines: ReadonlySet<number> = new Set(),
): {text: string; id: string | undefined} {
  const parts = SECTIONS.flatMap(({name}) => {
    const lines = sections[name] ?? [];
    if (name === 'lines' && !pageParts.has(name) && pageLines.size) {
      return lines.map((line, i) => ({lines: [line], page: pageLines.has(i)}));
    }
    return [{lines, page: pageParts.has(name)}];
  });
  const {lines, id} = markPageContent(parts);
  return {text: lines.join('\n'), id};
}

/**
 * Splits a rendered response back into its parts (the inverse of
 * renderSections, for tests): a part begins at the first line matching its
 * start pattern, after the parts before it. Notes are not told apart from the
 * tool's lines (both come first): they are returned as `lines`.
 */
export function parseSections(text: string): Sections {
  const out: Sections = {};
  let current = SECTIONS.findIndex(s => s.name === 'lines');
  for (const line of text.split('\n')) {
    const next = SECTIONS.findIndex((s, i) => i > current && 'start' in s && s.start.test(line));
    if (next !== -1) {
      current = next;
    }
    const name = SECTIONS[current]?.name ?? 'lines';
    (out[name] ??= []).push(line);
  }
  return out;
}
