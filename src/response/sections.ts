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
  {name: 'navigation', start: /^Page navigated to /},
  /** Downloads the call started (the server adds them). */
  {name: 'downloadsStarted', start: /^## Downloads started$/},
  /** What the URL policy blocked during the call (the server adds it). */
  {name: 'blocked', start: /^## Blocked by the URL policy$/},
  /** Emulation status of the response's page. */
  {name: 'emulation', start: /^(Emulating |Default navigation timeout set to )/},
  {name: 'dialog', start: /^# Open dialog$/},
  /** The selection note and `## Pages`. */
  {name: 'pages', start: /^(## Pages$|Note: the previously selected page)/},
  {name: 'extensionPages', start: /^## Extension Pages$/},
  {name: 'serviceWorkers', start: /^## Extension Service Workers$/},
  /** Structured content only: the tab id get_tab_id reports (its line is the tool's own). */
  {name: 'tabId'},
  {name: 'traceSummary', start: /^## Summary of Performance trace findings:/},
  {name: 'traceInsight', start: /^## Insight Title:/},
  {name: 'lighthouse', start: /^## Lighthouse audit results$/},
  {name: 'snapshot', start: /^(## Latest page snapshot$|## Changes since the previous snapshot$|Saved snapshot to )/},
  {name: 'pageText', start: /^## Page text$/},
  {name: 'cdpResult', start: /^## CDP result$/},
  {name: 'heapSnapshot', start: /^## Heap Snapshot Data$/},
  {name: 'networkRequest', start: /^## Request /},
  {name: 'consoleMessage', start: /^ID: \d+$/},
  {name: 'extensions', start: /^## Extensions$/},
  {name: 'thirdPartyTools', start: /^## Third-party developer tools$/},
  {name: 'webmcpTools', start: /^## WebMCP tools$/},
  {name: 'networkMocks', start: /^## Network mocks$/},
  {name: 'downloads', start: /^## Downloads$/},
  {name: 'networkList', start: /^## Network requests$/},
  {name: 'consoleList', start: /^## Console messages$/},
  /** `Error: <message>` when the handler failed. */
  {name: 'error', start: /^Error: /},
] as const satisfies ReadonlyArray<{name: string; start?: RegExp}>;

export type SectionName = (typeof SECTIONS)[number]['name'];

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
