/**
 * Report rendering of the benchmark (scripts/bench/bench.ts): tool shapes and parity, the
 * markdown tables, and docs/benchmarks.md. Everything renders from the saved JSON, so
 * `--render <json>` can rebuild the markdown and the docs without rerunning.
 */
import type {MachineInfo} from './sys.js';

export type Side = 'ours' | 'theirs';
export interface Row {
  section: string;
  scenario: string;
  ours?: number;
  theirs?: number;
  notes: string[];
}
export interface ToolInfo {
  name: string;
  inputSchema: {properties?: Record<string, {type?: unknown; enum?: unknown}>; required?: string[]};
}

/** What main() saves as JSON and the renderers read. */
export interface Report {
  title: string;
  command: string;
  machine: MachineInfo;
  sides: Side[];
  rows: Row[];
  /** Markdown bullet lines shown under the tables (errors, cleanup, checks). */
  notes: string[];
  toolShapes: Partial<Record<Side, string[]>>;
  deadlineHit: boolean;
  durationS: number;
  [k: string]: unknown;
}

/** One line per tool: `name(req: type, opt?: "a"|"b")`, sorted. */
export function toolShapes(tools: Iterable<ToolInfo>): string[] {
  return [...tools]
    .map(t => {
      const req = new Set(t.inputSchema.required ?? []);
      const ps = Object.entries(t.inputSchema.properties ?? {}).map(
        ([k, v]) =>
          `${k}${req.has(k) ? '' : '?'}: ${Array.isArray(v.enum) ? v.enum.map(x => JSON.stringify(x)).join('|') : JSON.stringify(v.type ?? 'any')}`,
      );
      return `${t.name}(${ps.join(', ')})`;
    })
    .sort();
}

export function toolParity(oursShapes: string[], theirsShapes: string[]) {
  const byName = (xs: string[]) => new Map(xs.map(x => [x.slice(0, x.indexOf('(')), x]));
  const [ours, theirs] = [byName(oursShapes), byName(theirsShapes)];
  const missing = [...theirs.keys()].filter(k => !ours.has(k));
  const added = [...ours.keys()].filter(k => !theirs.has(k));
  const differ = [...theirs].filter(([k, v]) => ours.has(k) && ours.get(k) !== v);
  const md = [
    '## Tool parity (tools/list)',
    '',
    `- missing in ours (${missing.length}): ${missing.join(', ') || '–'}`,
    `- only in ours (${added.length}): ${added.join(', ') || '–'}`,
    `- same name, different params (${differ.length}):`,
    ...differ.flatMap(([k, v]) => [`  - theirs: \`${v}\``, `  - ours:   \`${ours.get(k)}\``]),
  ];
  return {md, summary: {missing, added, differ: differ.map(([k]) => k)}};
}

const fmt = (v: number | undefined, present: boolean) =>
  !present
    ? 'skipped'
    : v === undefined
      ? 'n/a'
      : Number.isInteger(v)
        ? String(v)
        : Math.abs(v) >= 100
          ? v.toFixed(0)
          : v.toFixed(1);
const ratio = (r: Row) =>
  r.ours !== undefined && r.theirs !== undefined && r.theirs > 0 ? (r.ours / r.theirs).toFixed(2) : '–';
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One table per section, in first-appearance order. */
export function tables(rows: Row[], sides: Side[]): string[] {
  const out: string[] = [];
  const sections = [...new Set(rows.map(r => r.section))];
  for (const sec of sections) {
    out.push(`### ${sec}`, '', '| scenario | ours | theirs | ours/theirs | notes |', '|---|---:|---:|---:|---|');
    for (const r of rows.filter(x => x.section === sec)) {
      out.push(
        `| ${cell(r.scenario)} | ${fmt(r.ours, sides.includes('ours'))} | ${fmt(r.theirs, sides.includes('theirs'))} | ${ratio(r)} | ${cell(r.notes.join('; '))} |`,
      );
    }
    out.push('');
  }
  return out;
}

const machineLines = (m: MachineInfo) => Object.entries(m).map(([k, v]) => `- ${k}: ${String(v)}`);

function parityAndTools(rep: Report): string[] {
  const out: string[] = [];
  const {ours, theirs} = rep.toolShapes;
  if (ours && theirs) {
    out.push(...toolParity(ours, theirs).md, '');
  }
  for (const side of rep.sides) {
    const t = rep.toolShapes[side];
    if (t) {
      out.push(
        `<details><summary>${side} tools (${t.length})</summary>`,
        '',
        ...t.map(x => `- \`${x}\``),
        '',
        '</details>',
        '',
      );
    }
  }
  return out;
}

/** The bench's own markdown output (<out>.md). */
export function renderMarkdown(rep: Report): string {
  return [
    `# ${rep.title}`,
    '',
    `Command: \`${rep.command}\` (${rep.durationS.toFixed(0)} s)`,
    '',
    ...machineLines(rep.machine),
    '',
    ...tables(rep.rows, rep.sides),
    ...rep.notes.map(n => `- ${n}`),
    '',
    ...parityAndTools(rep),
  ].join('\n');
}

export const METHOD = [
  'Ours is the packed bundle (`dist/cdp-mcp.js`, what `npm pack` ships and users run), theirs the registry package.',
  'Both servers run in the same bench process, one after the other within every iteration, over stdio with the MCP SDK',
  'client, each launching its own headless Chromium from the same binary with a temporary profile and the same',
  '`--viewport 1280x720`, against the same generated fixture pages served by a local HTTP server. The order alternates',
  '(ours first on even iterations and cold spawns, theirs first on odd ones) so that drift in machine load falls on both.',
  'Every latency is the client-side wall time of one `tools/call` round trip (request written to response parsed),',
  'measured after 3 unmeasured warm-up calls (1 for the 5000-element snapshot); tables show the median, and the notes',
  'the p90 and sample count, because the machine is a shared 2-core VM where means are dominated by outliers. Setup',
  'work that a scenario needs per iteration (opening the page that `close_page` closes, opening the dialog that',
  '`handle_dialog` handles, navigating forward before `back`) is done by unmeasured calls. "Effects" in the notes is',
  'read back from the page afterwards (counters kept by the fixture), to show that both servers did the same thing.',
  '**ours/theirs** is our median divided by theirs: below 1 means ours is faster (or smaller), above 1 slower (or',
  'larger). Caveats: each call pays a fixed floor for stdio, JSON-RPC and SDK (de)serialization (the MCP ping row;',
  "roughly 0.3-0.6 ms here), so ratios of tools that take 1-2 ms mostly compare that floor; latencies include each server's",
  'own waiting policy (chrome-devtools-mcp waits for navigation and DOM stability after actions with fixed timeouts, we',
  'wait on CDP events and an in-page mutation signal), which is what an agent experiences; Chrome RSS is a sum over',
  'the process tree (shared pages counted more than once; PSS is also given); RSS after N navigations is one VmRSS',
  'sample, not a post-GC heap; install footprint is `npm install --omit=dev` of our `npm pack` tarball vs the',
  'registry package into empty folders (chrome-devtools-mcp bundles its dependencies, so its package count is 1).',
].join(' ');

/** The heading of the token benchmark's section of docs/benchmarks.md (written by `npm run bench:tokens -- --docs`). */
export const TOKENS_HEADING = '## Characters an agent reads (`npm run bench:tokens`)';

/** That section of docs/benchmarks.md, from its heading to the end, kept when this bench rewrites the file. */
export function tokensSection(doc: string): string {
  const at = doc.indexOf(`\n${TOKENS_HEADING}`);
  return at < 0 ? '' : doc.slice(at);
}

/** docs/benchmarks.md */
export function renderDocs(rep: Report, jsonPath: string): string {
  return [
    '# Benchmarks: cdp-mcp vs chrome-devtools-mcp 1.11.0',
    '',
    `<!-- Generated by \`npm run bench -- --docs\` from ${jsonPath} (re-render: \`npm run bench -- --render ${jsonPath} --docs\`); do not edit by hand. -->`,
    '',
    `Latest run: ${rep.machine.date.slice(0, 10)} (${rep.machine.date}), took ${rep.durationS.toFixed(0)} s${rep.deadlineHit ? ', DEADLINE HIT: partial results' : ''}.`,
    '',
    '## Reproduce',
    '',
    '```sh',
    rep.command,
    '```',
    '',
    'chrome-devtools-mcp 1.11.0 is installed on demand into `/tmp/cdp-mcp-bench/cdm`; Chromium is `/usr/bin/chromium`',
    '(`--chrome PATH` to change). Raw figures (every sample statistic, sample outputs) are in the JSON next to the',
    'markdown output (`.bench/latest.json` by default). `npm run bench -- --help` lists the flags.',
    '',
    '## Machine',
    '',
    ...machineLines(rep.machine),
    '',
    '## Method',
    '',
    METHOD,
    '',
    '## Results',
    '',
    ...tables(rep.rows, rep.sides),
    '## Notes',
    '',
    ...rep.notes.map(n => `- ${n}`),
    '',
    ...parityAndTools(rep),
  ].join('\n');
}
