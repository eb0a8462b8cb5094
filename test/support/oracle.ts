/**
 * The snapshot oracle: chrome-devtools-mcp 1.11.0 (CDM, the pinned devDependency)
 * and our server side by side on the same Chromium build, same flags and
 * viewport, driven alike; their take_snapshot texts must be equal line for
 * line once uids and ports are normalised.
 *
 * Elements for interactions are found by role and name in each server's own
 * snapshot, so the two never share uids.
 */
import path from 'node:path';

import {type CallResult, CHROME_PATH, startServer, TEST_FLAGS, type TestServer} from './mcpClient.js';
import {referenceServer} from './referenceRecord.js';
import {requireTestDep} from './testDeps.js';

/** Window content size given to both servers (the bench's default). */
export const ORACLE_VIEWPORT = '1280x720';

/**
 * What the reference is started with in every comparison (as
 * scripts/bench/session.ts does), besides the window (headless, ORACLE_VIEWPORT unless told).
 */
const THEIR_FLAGS = [
  '--executablePath',
  CHROME_PATH,
  '--isolated',
  '--chromeArg=--no-sandbox',
  '--chromeArg=--disable-gpu',
  '--no-usage-statistics',
  '--no-performance-crux',
];
const THEIR_ENV = {CI: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'};

/** The reference's entry script, from the test packages (test/deps/node_modules). */
export function referenceBin(): string {
  const pkgJson = requireTestDep.resolve('chrome-devtools-mcp/package.json');
  const pkg = requireTestDep(pkgJson) as {version: string; bin: Record<string, string>};
  if (pkg.version !== '1.11.0') {
    throw new Error(
      `chrome-devtools-mcp ${pkg.version} is installed; the oracle needs 1.11.0 (run node scripts/test-deps.mjs).`,
    );
  }
  const bin = pkg.bin['chrome-devtools-mcp'];
  if (!bin) {
    throw new Error('chrome-devtools-mcp has no chrome-devtools-mcp bin entry');
  }
  return path.join(path.dirname(pkgJson), bin);
}

export interface OraclePair {
  ours: TestServer;
  theirs: TestServer;
  /** Closes both servers (their Chromes exit with them). */
  close(): Promise<void>;
}

export interface OracleOptions {
  /** Extra flags for both servers, e.g. `--chromeArg=--site-per-process`. */
  args?: string[];
  /** Extra environment for our server only (e.g. CDP_MCP_SNAPSHOT_ENGINE). */
  env?: Record<string, string>;
  /** Extra flags for our server only (e.g. `--logFile`): the reference's record does not depend on them. */
  oursArgs?: string[];
  /**
   * The name of the reference's record (referenceRecord.ts): its answers are
   * replayed from test/records when recorded for this Chromium. Without one,
   * the live reference always runs.
   */
  record?: string;
  /** `--viewport` of both servers (ORACLE_VIEWPORT by default); false: none, each keeps its default window. */
  viewport?: string | false;
  /** false: both Chromes get a window (on the display DISPLAY names). */
  headless?: boolean;
}

/** Starts our server and the reference side by side. */
export async function startOraclePair(options: OracleOptions = {}): Promise<OraclePair> {
  const extra = options.args ?? [];
  const viewport = options.viewport ?? ORACLE_VIEWPORT;
  const headless = options.headless ?? true;
  const window = [...(headless ? ['--headless'] : []), ...(viewport ? [`--viewport=${viewport}`] : [])];
  // A record names the window only when it is not the usual one (records made before it could be chosen).
  const usualWindow = headless && viewport === ORACLE_VIEWPORT;
  const recordFlags = usualWindow ? extra : [`--headless=${headless}`, `--viewport=${viewport || 'none'}`, ...extra];
  const startTheirs = () =>
    startServer({bin: referenceBin(), replaceFlags: true, args: [...THEIR_FLAGS, ...window, ...extra], env: THEIR_ENV});
  const ourFlags = TEST_FLAGS.filter(flag => flag !== '--headless');
  const [ours, theirs] = await Promise.allSettled([
    // Whole outputs, as the reference gives them (ours caps them by default).
    startServer({
      replaceFlags: true,
      args: [...ourFlags, ...window, '--maxOutputChars', '0', ...extra, ...(options.oursArgs ?? [])],
      env: options.env,
    }),
    options.record ? referenceServer(options.record, recordFlags, startTheirs) : startTheirs(),
  ]);
  if (ours.status === 'rejected' || theirs.status === 'rejected') {
    const closing: Array<Promise<void>> = [];
    for (const side of [ours, theirs]) {
      if (side.status === 'fulfilled') {
        closing.push(side.value.close());
      }
    }
    await Promise.all(closing);
    const reason: unknown = ours.status === 'rejected' ? ours.reason : (theirs as PromiseRejectedResult).reason;
    throw new Error(`Could not start the oracle pair: ${String(reason)}`, {cause: reason});
  }
  return {
    ours: ours.value,
    theirs: theirs.value,
    async close() {
      await Promise.all([ours.value.close(), theirs.value.close()]);
    },
  };
}

const PORTS = /\b(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\b/g;
const UIDS = /uid=(\d+_\d+)/g;

/**
 * A snapshot text with every distinct uid replaced by a placeholder in order
 * of first appearance (`uid=1_7` → `uid=#0`; a uid that repeats keeps its
 * placeholder) and every loopback port replaced by `<port>`.
 */
export function normalizeSnapshot(text: string): string {
  return new UidNormalizer().normalize(text);
}

/**
 * Normalises the successive snapshots of one server. Placeholders are local
 * to each snapshot (so one difference does not shift every later number), and
 * a uid that was already printed by an earlier snapshot of this normaliser is
 * marked `*`: a node one server keeps its uid for and the other renumbers
 * shows as a difference on that node's line.
 */
export class UidNormalizer {
  readonly #printed = new Set<string>();
  readonly #shared = new Set<string>();

  /**
   * @param distinctShared treat a uid printed on several lines of one snapshot
   *   as a different node on each line. chrome-devtools-mcp keys uids by
   *   loaderId + backendNodeId, so every accessibility node without a DOM node
   *   (InlineTextBox, some ignored nodes: verbose snapshots) shares one uid per
   *   frame; we give each its own (docs/differences.md).
   */
  constructor(readonly distinctShared = false) {}

  normalize(text: string): string {
    const uids = [...text.matchAll(UIDS)].map(m => m[1] ?? '');
    if (this.distinctShared) {
      const seen = new Set<string>();
      for (const uid of uids) {
        if (seen.has(uid)) {
          this.#shared.add(uid);
        }
        seen.add(uid);
      }
    }
    const local = new Map<string, string>();
    let next = 0;
    const out = text
      .replace(UIDS, (_, uid: string) => {
        if (this.#shared.has(uid)) {
          return `uid=#${next++}`;
        }
        let placeholder = local.get(uid);
        if (placeholder === undefined) {
          placeholder = `#${next++}${this.#printed.has(uid) ? '*' : ''}`;
          local.set(uid, placeholder);
        }
        return `uid=${placeholder}`;
      })
      .replace(PORTS, '$1:<port>');
    for (const uid of local.keys()) {
      this.#printed.add(uid);
    }
    return out;
  }
}

/** Adds `pageId` (the selected page) when the tool takes one. */
async function withPage(server: TestServer, tool: string, args: Record<string, unknown>) {
  const tools = await toolSchemas(server);
  const props = tools.get(tool);
  return props?.includes('pageId') && !('pageId' in args) ? {pageId: await selectedPageId(server), ...args} : args;
}

const schemaCache = new WeakMap<TestServer, Map<string, string[]>>();

async function toolSchemas(server: TestServer): Promise<Map<string, string[]>> {
  let tools = schemaCache.get(server);
  if (!tools) {
    const listed = await server.client.listTools();
    tools = new Map(listed.tools.map(t => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
    schemaCache.set(server, tools);
  }
  return tools;
}

/** The selected page's id, from list_pages (`1: url [selected]`). */
async function selectedPageId(server: TestServer): Promise<number> {
  const r = await server.call('list_pages', {});
  const line = r.text.split('\n').find(l => /\[selected\]/.test(l));
  const id = line ? /^(\d+):/.exec(line.trim())?.[1] : undefined;
  return id ? Number(id) : 1;
}

/** Calls a tool on one server (adding pageId when it takes one); fails on an error result. */
export async function callTool(server: TestServer, tool: string, args: Record<string, unknown> = {}) {
  const result = await server.call(tool, await withPage(server, tool, args));
  if (result.isError) {
    throw new Error(`${tool} failed: ${result.text}`);
  }
  return result;
}

/** Calls the same tool with the same arguments on both servers. */
export async function callBoth(
  pair: OraclePair,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<{ours: CallResult; theirs: CallResult}> {
  const [ours, theirs] = await Promise.all([callTool(pair.ours, tool, args), callTool(pair.theirs, tool, args)]);
  return {ours, theirs};
}

/** Navigates both servers' selected page to `url`. */
export async function navigateBoth(pair: OraclePair, url: string): Promise<void> {
  await callBoth(pair, 'navigate_page', {type: 'url', url});
}

/** The tree part of a take_snapshot response (after `## Latest page snapshot`). */
export function snapshotSection(responseText: string): string {
  const marker = '## Latest page snapshot\n';
  const at = responseText.indexOf(marker);
  if (at < 0) {
    throw new Error(`no snapshot in the response:\n${responseText}`);
  }
  const rest = responseText.slice(at + marker.length);
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

/** Takes a snapshot on one server and returns its tree text (raw uids). */
export async function snapshotOf(server: TestServer, verbose = false): Promise<string> {
  const r = await callTool(server, 'take_snapshot', verbose ? {verbose: true} : {});
  return snapshotSection(r.text);
}

/** Which element an interaction targets: role and accessible name as printed, nth match (0-based). */
export interface ElementQuery {
  role: string;
  name?: string | RegExp;
  nth?: number;
}

const TRAILING_ATTRIBUTES = /^(?: [a-z]+(?:="[^"]*")?)*$/;

/**
 * Uid, role and name of a snapshot line. Names are printed unescaped, so the
 * name ends at the first closing quote after which only attributes follow.
 */
export function parseSnapshotLine(line: string): {uid: string; role: string; name: string} | undefined {
  const head = /^\s*uid=(\S+)(?: ([^\s"]+))?/.exec(line);
  if (!head?.[1]) {
    return undefined;
  }
  const role = head[2] ?? 'StaticText';
  const rest = line.slice(head[0].length);
  if (!rest.startsWith(' "')) {
    return {uid: head[1], role, name: ''};
  }
  for (let end = rest.indexOf('"', 2); end >= 0; end = rest.indexOf('"', end + 1)) {
    if (TRAILING_ATTRIBUTES.test(rest.slice(end + 1))) {
      return {uid: head[1], role, name: rest.slice(2, end)};
    }
  }
  return {uid: head[1], role, name: rest.slice(2)};
}

/** The uid of the element matching `query` in a snapshot text (throws a readable error when none). */
export function findInSnapshot(snapshot: string, query: ElementQuery): string {
  const matches: string[] = [];
  for (const line of snapshot.split('\n')) {
    const parsed = parseSnapshotLine(line);
    if (!parsed || parsed.role !== query.role) {
      continue;
    }
    const name = query.name;
    if (name === undefined || (typeof name === 'string' ? parsed.name === name : name.test(parsed.name))) {
      matches.push(parsed.uid);
    }
  }
  const uid = matches[query.nth ?? 0];
  if (uid === undefined) {
    throw new Error(`no ${query.role} named ${String(query.name)} (match ${query.nth ?? 0}) in:\n${snapshot}`);
  }
  return uid;
}

/**
 * Runs one element tool on both servers against the element matching
 * `target` in each one's own fresh snapshot. `uidParam` names the argument
 * carrying the uid (`uid` for click/fill/hover, `from_uid` for drag...).
 */
export async function interactBoth(
  pair: OraclePair,
  tool: string,
  target: ElementQuery,
  args: Record<string, unknown> = {},
  uidParam = 'uid',
): Promise<{ours: CallResult; theirs: CallResult}> {
  const run = async (server: TestServer) => {
    const uid = findInSnapshot(await snapshotOf(server), target);
    return callTool(server, tool, {...args, [uidParam]: uid});
  };
  const [ours, theirs] = await Promise.all([run(pair.ours), run(pair.theirs)]);
  return {ours, theirs};
}

/** Lines of context shown around each difference. */
const DIFF_CONTEXT_LINES = 2;
/** Above this many lines in the differing middle, the diff shows both sides whole instead of aligning them. */
const DIFF_ALIGN_MAX_LINES = 4_000;

/**
 * A readable line diff: `- ours` / `+ theirs` lines, unchanged lines around
 * them prefixed by two spaces, `@@ line N` headers. Empty when equal.
 */
export function diffLines(ours: string, theirs: string): string[] {
  const a = ours.split('\n');
  const b = theirs.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    start++;
  }
  if (start === a.length && start === b.length) {
    return [];
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops = midA.length + midB.length <= DIFF_ALIGN_MAX_LINES ? align(midA, midB) : unaligned(midA, midB);
  const full: Array<{op: ' ' | '-' | '+'; text: string; line: number}> = [];
  for (let i = 0; i < start; i++) {
    full.push({op: ' ', text: a[i] ?? '', line: i + 1});
  }
  let lineA = start;
  for (const op of ops) {
    if (op.op !== '+') {
      lineA++;
    }
    full.push({...op, line: op.op === '+' ? lineA + 1 : lineA});
  }
  for (let i = endA; i < a.length; i++) {
    full.push({op: ' ', text: a[i] ?? '', line: i + 1});
  }
  const show = new Uint8Array(full.length);
  full.forEach((entry, i) => {
    if (entry.op !== ' ') {
      for (let k = Math.max(0, i - DIFF_CONTEXT_LINES); k <= Math.min(full.length - 1, i + DIFF_CONTEXT_LINES); k++) {
        show[k] = 1;
      }
    }
  });
  const out: string[] = [];
  full.forEach((entry, i) => {
    if (!show[i]) {
      return;
    }
    if (i === 0 || !show[i - 1]) {
      out.push(`@@ line ${entry.line} (- ours, + theirs)`);
    }
    out.push(`${entry.op} ${entry.text}`);
  });
  return out;
}

type Op = {op: ' ' | '-' | '+'; text: string};

/** Longest-common-subsequence alignment (quadratic; only used on the differing middle). */
function align(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({length: n + 1}, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({op: ' ', text: a[i++]!});
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      ops.push({op: '+', text: b[j++]!});
    } else {
      ops.push({op: '-', text: a[i++]!});
    }
  }
  return ops;
}

function unaligned(a: string[], b: string[]): Op[] {
  return [...a.map(text => ({op: '-' as const, text})), ...b.map(text => ({op: '+' as const, text}))];
}

export interface SnapshotComparison {
  /** Our snapshot tree, normalised. */
  ours: string;
  /** The reference's snapshot tree, normalised. */
  theirs: string;
  /** Empty when equal; otherwise `- ours` / `+ theirs` lines with context. */
  diff: string[];
}

/** Per pair and mode (verbose or not): the normalisers of both sides. */
const normalizers = new WeakMap<OraclePair, Map<boolean, {ours: UidNormalizer; theirs: UidNormalizer}>>();

/**
 * Takes a snapshot on both servers (same mode) and compares them after
 * normalisation. Uids printed by an earlier comparison in the same mode are
 * marked (UidNormalizer), so a uid kept by one side and renewed by the other
 * shows as a difference.
 */
export async function compareSnapshots(pair: OraclePair, opts: {verbose: boolean}): Promise<SnapshotComparison> {
  let modes = normalizers.get(pair);
  if (!modes) {
    modes = new Map();
    normalizers.set(pair, modes);
  }
  let normalizer = modes.get(opts.verbose);
  if (!normalizer) {
    normalizer = {ours: new UidNormalizer(), theirs: new UidNormalizer(true)};
    modes.set(opts.verbose, normalizer);
  }
  const [oursRaw, theirsRaw] = await Promise.all([
    snapshotOf(pair.ours, opts.verbose),
    snapshotOf(pair.theirs, opts.verbose),
  ]);
  const ours = normalizer.ours.normalize(oursRaw);
  const theirs = normalizer.theirs.normalize(theirsRaw);
  return {ours, theirs, diff: diffLines(ours, theirs)};
}
