/**
 * Side-by-side benchmark: cdp-mcp ("ours") vs chrome-devtools-mcp@1.11.0 ("theirs").
 *
 *   npm run bench -- --iterations 20 --cold 5      (or: node build/scripts/bench.js ...)
 *
 * Scenarios: cold start, warm per-tool latency (data-driven list WARM below), N concurrent
 * calls, memory (server + Chrome tree), install footprint. Reports medians. Writes
 * <out>.json and <out>.md (default <repo>/.bench/latest.*) and prints the table to stdout.
 * Run with --help for flags.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {
  cmdline, descendants, installFootprint, isAlive, machineInfo, markdown, oneLine, pidsWithCmdline, pssKb, startFixtureServer,
  stats, statusKb, toolParity, toolShapes,
} from './bench-fixtures.js';
import type {FixtureServer, ProcId, Row, Side, Stats, ToolInfo} from './bench-fixtures.js';

const CDM_VERSION = '1.11.0';
const now = () => performance.now();
const sleep = (ms: number) => new Promise<void>(r => setTimeout(r, ms));
const log = (msg: string) => process.stderr.write(`[bench ${(process.uptime()).toFixed(0)}s] ${msg}\n`);

// ------------------------------------------------------------------ options

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name === 'cdp-mcp') return dir;
    } catch { /* keep looking */ }
  }
  return process.cwd();
}
const ROOT = findRoot();

const HELP = `Usage: node build/scripts/bench.js [flags]
  --iterations N     measured calls per warm scenario (default 20)
  --cold N           cold spawns per server (default 5)
  --concurrency N    calls fired at once in the concurrency scenario (default 20)
  --rounds N         rounds of the concurrency scenario (default min(iterations, 5))
  --timeout MS       per MCP request timeout (default 60000)
  --deadline MIN     global deadline in minutes (default 15); partial results are written
  --out PATH         output base path; writes PATH.json and PATH.md (default .bench/latest)
  --only ours|theirs run a single server
  --skip LIST        comma list of phases to skip: cold,warm,concurrency,memory,install
  --scenarios REGEX  only warm scenarios whose id matches
  --ours PATH        our server entry (default build/src/bin/cdp-mcp.js)
  --ours-arg ARG     extra arg for our server (repeatable), e.g. --ours-arg=--no-page-id-routing
  --theirs-arg ARG   extra arg for chrome-devtools-mcp (repeatable)
  --cdm-dir DIR      install/cache dir for chrome-devtools-mcp (default /tmp/cdp-mcp-bench/cdm)
  --chrome PATH      Chrome executable (default /usr/bin/chromium)`;

interface Options {
  iterations: number; cold: number; concurrency: number; rounds: number; timeout: number; deadlineMin: number;
  out: string; only?: Side; skip: Set<string>; scenarios?: RegExp; oursEntry: string; oursArgs: string[];
  theirsArgs: string[]; cdmDir: string; chrome: string;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    iterations: 20, cold: 5, concurrency: 20, rounds: -1, timeout: 60_000, deadlineMin: 15,
    out: path.join(ROOT, '.bench', 'latest'), skip: new Set(), oursEntry: path.join(ROOT, 'build/src/bin/cdp-mcp.js'),
    oursArgs: [], theirsArgs: [], cdmDir: '/tmp/cdp-mcp-bench/cdm', chrome: '/usr/bin/chromium',
  };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    let v: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) [a, v] = [a.slice(0, eq), a.slice(eq + 1)];
    const val = () => {
      const x = v ?? argv[++i];
      if (x === undefined) throw new Error(`missing value for ${a}`);
      return x;
    };
    const num = () => {
      const n = Number(val());
      if (!Number.isFinite(n) || n < 0) throw new Error(`bad number for ${a}`);
      return n;
    };
    switch (a) {
      case '--help': case '-h': console.log(HELP); process.exit(0);
      case '--iterations': o.iterations = Math.max(1, num()); break;
      case '--cold': o.cold = num(); break;
      case '--concurrency': o.concurrency = Math.max(1, num()); break;
      case '--rounds': o.rounds = num(); break;
      case '--timeout': o.timeout = Math.max(1000, num()); break;
      case '--deadline': o.deadlineMin = num(); break;
      case '--out': o.out = path.resolve(val().replace(/\.(json|md)$/, '')); break;
      case '--only': {
        const s = val();
        if (s !== 'ours' && s !== 'theirs') throw new Error('--only takes ours|theirs');
        o.only = s; break;
      }
      case '--skip': for (const s of val().split(',')) o.skip.add(s.trim()); break;
      case '--scenarios': o.scenarios = new RegExp(val()); break;
      case '--ours': o.oursEntry = path.resolve(val()); break;
      case '--ours-arg': o.oursArgs.push(val()); break;
      case '--theirs-arg': o.theirsArgs.push(val()); break;
      case '--cdm-dir': o.cdmDir = path.resolve(val()); break;
      case '--chrome': o.chrome = val(); break;
      default: throw new Error(`unknown flag ${a}\n${HELP}`);
    }
  }
  if (o.rounds < 0) o.rounds = Math.min(o.iterations, 5);
  return o;
}

// ------------------------------------------------------------------ servers and sessions

interface ServerSpec {side: Side; command: string; args: string[]; env: Record<string, string>}

function chromeArgs(o: Options): string[] {
  return ['--executablePath', o.chrome, '--headless', '--isolated', '--chromeArg=--no-sandbox', '--chromeArg=--disable-gpu'];
}
const SERVER_ENV = {CI: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'};

/** Installs chrome-devtools-mcp into o.cdmDir if needed; returns its bin path. */
function ensureTheirs(o: Options): string {
  const pkgDir = path.join(o.cdmDir, 'node_modules', 'chrome-devtools-mcp');
  const version = () => {
    try { return JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string; } catch { return ''; }
  };
  if (version() !== CDM_VERSION) {
    log(`installing chrome-devtools-mcp@${CDM_VERSION} into ${o.cdmDir}`);
    mkdirSync(o.cdmDir, {recursive: true});
    if (!existsSync(path.join(o.cdmDir, 'package.json'))) writeFileSync(path.join(o.cdmDir, 'package.json'), '{"private":true}\n');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `chrome-devtools-mcp@${CDM_VERSION}`],
      {cwd: o.cdmDir, encoding: 'utf8', timeout: 300_000, env: {...process.env, PUPPETEER_SKIP_DOWNLOAD: '1'}});
    if (r.status !== 0 || version() !== CDM_VERSION) throw new Error(`npm install failed: ${r.error?.message ?? ''} ${r.stderr}`);
  }
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['chrome-devtools-mcp'];
  return path.join(pkgDir, bin ?? 'build/src/bin/chrome-devtools-mcp.js');
}

interface CallResult {ok: boolean; ms: number; text: string; images: number; bytes: number; error?: string; dims?: string}

/** "WxH" of a base64 PNG (IHDR), else undefined. */
function pngDims(b64: string | undefined): string | undefined {
  const b = Buffer.from((b64 ?? '').slice(0, 44), 'base64');
  return b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR' ? `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}` : undefined;
}

const LIVE = new Set<Session>();
/** Per server: closes, Chrome exit time after close, Chrome processes that had to be SIGKILLed. */
const CLEANUP: Partial<Record<Side, {closes: number; leftoversKilled: number; exitMs: number[]}>> = {};

class Session {
  readonly tools = new Map<string, ToolInfo>();
  readonly chrome = new Map<number, ProcId>();
  readonly userDataDirs = new Set<string>();
  readonly stderrTail: string[] = [];
  pid = 0;
  pageId = 1;
  broken?: string;
  peak = {serverRssKb: 0, chromeRssKb: 0};
  timer?: NodeJS.Timeout;
  private constructor(readonly spec: ServerSpec, readonly client: Client, readonly timeout: number) {}

  /** Spawns the server and connects; returns timings (ms from spawn). */
  static async start(spec: ServerSpec, timeout: number): Promise<{s: Session; initMs: number; listMs: number}> {
    const transport = new StdioClientTransport({command: spec.command, args: spec.args, env: spec.env, stderr: 'pipe'});
    const s = new Session(spec, new Client({name: 'cdp-mcp-bench', version: '0.1.0'}), timeout);
    transport.stderr?.on('data', (d: Buffer) => {
      s.stderrTail.push(d.toString());
      if (s.stderrTail.length > 50) s.stderrTail.shift();
    });
    LIVE.add(s);
    const t0 = now();
    const connecting = s.client.connect(transport, {timeout});
    // Track the process tree from the start, so Chrome is known even if the server dies early.
    s.timer = setInterval(() => { s.pid ||= transport.pid ?? 0; s.track(); }, 500);
    try {
      await connecting;
      s.pid = transport.pid ?? 0;
      s.track();
      const initMs = now() - t0;
      const {tools} = await s.client.listTools(undefined, {timeout});
      const listMs = now() - t0;
      for (const t of tools) s.tools.set(t.name, t as ToolInfo);
      return {s, initMs, listMs};
    } catch (e) {
      s.pid ||= transport.pid ?? 0;
      s.track();
      await s.close();
      throw new Error(`${spec.side} failed to start: ${(e as Error).message}; stderr: ${oneLine(s.stderrTail.join(''), 400)}`);
    }
  }

  /** Adds pageId when the tool's schema has one (page-id routing on). */
  withPage(tool: string, args: Record<string, unknown>): Record<string, unknown> {
    const props = this.tools.get(tool)?.inputSchema.properties;
    return props && 'pageId' in props && !('pageId' in args) ? {pageId: this.pageId, ...args} : args;
  }

  async call(tool: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const t0 = now();
    try {
      const r = await this.client.callTool({name: tool, arguments: this.withPage(tool, args)}, undefined, {timeout: this.timeout}) as {content?: unknown; isError?: boolean};
      const ms = now() - t0;
      const items = Array.isArray(r.content) ? r.content as Array<{type?: string; text?: string; data?: string}> : [];
      const text = items.filter(c => c.type === 'text').map(c => c.text ?? '').join('\n');
      const images = items.filter(c => c.type === 'image').length;
      const bytes = items.reduce((n, c) => n + (c.text?.length ?? 0) + (c.data?.length ?? 0), 0);
      const dims = pngDims(items.find(c => c.type === 'image')?.data);
      return r.isError ? {ok: false, ms, text, images, bytes, error: oneLine(text) || 'isError'} : {ok: true, ms, text, images, bytes, dims};
    } catch (e) {
      const msg = (e as Error).message;
      if (/timed out|timeout|closed/i.test(msg)) this.broken = `session broken: ${oneLine(msg)}`;
      return {ok: false, ms: now() - t0, text: '', images: 0, bytes: 0, error: oneLine(msg)};
    }
  }

  /** Records the server's Chrome process tree and samples RSS peaks. */
  track(): {serverRssKb: number; chromeRssKb: number} {
    if (!this.pid) return {serverRssKb: 0, chromeRssKb: 0};
    let chromeRssKb = 0;
    for (const p of descendants(this.pid)) {
      if (!this.chrome.has(p.pid)) {
        this.chrome.set(p.pid, p);
        const dir = cmdline(p.pid).find(a => a.startsWith('--user-data-dir='));
        if (dir) this.userDataDirs.add(dir.slice('--user-data-dir='.length));
      }
      chromeRssKb += statusKb(p.pid, 'VmRSS');
    }
    const serverRssKb = statusKb(this.pid, 'VmRSS');
    this.peak.serverRssKb = Math.max(this.peak.serverRssKb, serverRssKb);
    this.peak.chromeRssKb = Math.max(this.peak.chromeRssKb, chromeRssKb);
    return {serverRssKb, chromeRssKb};
  }

  private survivors(): ProcId[] {
    const all = new Map<number, ProcId>(this.chrome);
    for (const d of this.userDataDirs) for (const p of pidsWithCmdline(d)) all.set(p.pid, p);
    return [...all.values()].filter(isAlive);
  }

  /** Closes the client (ends server stdin), waits for Chrome to exit, SIGKILLs leftovers. */
  async close(): Promise<{chromeProcs: number; exitMs: number; leftoversKilled: number}> {
    this.track();
    const t0 = now();
    await this.client.close().catch(() => undefined);
    while (this.survivors().length && now() - t0 < 6000) await sleep(50);
    const exitMs = now() - t0;
    const left = this.survivors();
    for (const p of left) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
    if (left.length) log(`${this.spec.side}: ${left.length} Chrome process(es) survived close; SIGKILLed`);
    LIVE.delete(this);
    clearInterval(this.timer);
    const c = CLEANUP[this.spec.side] ??= {closes: 0, leftoversKilled: 0, exitMs: []};
    c.closes++; c.leftoversKilled += left.length; c.exitMs.push(exitMs);
    return {chromeProcs: this.chrome.size, exitMs, leftoversKilled: left.length};
  }

  /** Emergency: kill everything synchronously. */
  kill(): void {
    try { this.track(); } catch { /* ignore */ }
    for (const p of [...this.survivors(), {pid: this.pid, start: ''}]) try { if (p.pid) process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

// ------------------------------------------------------------------ scenarios (data)

interface CallCtx {i: number; uid: string; url: (p: string) => string}
interface WarmScenario {
  id: string;
  tool: string;
  optional?: boolean;
  /** Fixture path navigated to once before warm-up. */
  page?: string;
  /** Snapshot line to take the uid from (ctx.uid), e.g. /button "Count"/. */
  target?: RegExp;
  warmup?: number;
  maxIterations?: number;
  args: (c: CallCtx) => Record<string, unknown>;
  /** Returns a failure message when the response is wrong. */
  check?: (r: CallResult) => string | undefined;
}

const expectText = (re: RegExp) => (r: CallResult) => re.test(r.text) ? undefined : `unexpected output: ${oneLine(r.text, 120)}`;
const snapN = (n: number, maxIterations?: number): WarmScenario => ({
  id: `take_snapshot (${n} buttons)`, tool: 'take_snapshot', optional: true, page: `/buttons?n=${n}`,
  warmup: n >= 5000 ? 1 : 3, maxIterations, args: () => ({}), check: expectText(new RegExp(`Button ${n}\\b`)),
});

const WARM: WarmScenario[] = [
  {id: 'list_pages', tool: 'list_pages', page: '/simple', args: () => ({}), check: expectText(/\/simple/)},
  {id: 'navigate_page (url)', tool: 'navigate_page', args: c => ({type: 'url', url: c.url(`/simple?i=${c.i}`)}), check: expectText(/simple\?i=/)},
  {id: 'evaluate_script (document.title)', tool: 'evaluate_script', page: '/simple', args: () => ({function: '() => document.title'}), check: expectText(/"Simple"/)},
  {id: 'evaluate_script (waitForStableDom:false)', tool: 'evaluate_script', optional: true, page: '/simple',
    args: () => ({function: '() => document.title', waitForStableDom: false}), check: expectText(/"Simple"/)},
  {id: 'take_screenshot (png viewport)', tool: 'take_screenshot', page: '/simple', args: () => ({format: 'png'}), check: r => r.images ? undefined : 'no image content'},
  {id: 'take_snapshot (simple)', tool: 'take_snapshot', page: '/simple', args: () => ({}), check: expectText(/heading "Hello"/)},
  {id: 'click (button)', tool: 'click', optional: true, page: '/form', target: /button "Count"/, args: c => ({uid: c.uid})},
  {id: 'fill (textbox)', tool: 'fill', optional: true, page: '/form', target: /textbox "Name"/, args: c => ({uid: c.uid, value: `v${c.i}`})},
  {id: 'hover (button)', tool: 'hover', optional: true, page: '/form', target: /button "Hover target"/, args: c => ({uid: c.uid})},
  {id: 'press_key (Tab)', tool: 'press_key', optional: true, page: '/form', args: () => ({key: 'Tab'})},
  {id: 'list_console_messages', tool: 'list_console_messages', optional: true, page: '/simple', args: () => ({})},
  {id: 'list_network_requests', tool: 'list_network_requests', optional: true, page: '/simple', args: () => ({})},
  snapN(100), snapN(1000), snapN(5000, 10),
];

interface WarmResult {stats?: Stats; error?: string; responseBytes?: number; imageDims?: string}
type PerSide<T> = Partial<Record<Side, T>>;

/** Alternate the server order per iteration to spread noise. */
const ordered = <T>(xs: T[], i: number): T[] => (i % 2 ? [...xs].reverse() : xs);

async function prepare(s: Session, sc: WarmScenario, fx: FixtureServer): Promise<{uid: string; error?: string}> {
  if (s.broken) return {uid: '', error: s.broken};
  if (!s.tools.has(sc.tool)) return {uid: '', error: `tool ${sc.tool} not listed`};
  if (sc.page) {
    const r = await s.call('navigate_page', {type: 'url', url: fx.url(sc.page)});
    if (!r.ok) return {uid: '', error: `setup navigate failed: ${r.error}`};
  }
  if (!sc.target) return {uid: ''};
  const snap = await s.call('take_snapshot');
  const line = snap.text.split('\n').find(l => sc.target!.test(l));
  const uid = line && /uid=(\S+)/.exec(line)?.[1];
  return uid ? {uid} : {uid: '', error: `no uid for ${sc.target} in snapshot: ${snap.error ?? oneLine(snap.text, 120)}`};
}

async function runWarm(sessions: Session[], o: Options, fx: FixtureServer, dl: {hit: boolean}) {
  const out: Record<string, PerSide<WarmResult>> = {};
  for (const sc of WARM) {
    if (dl.hit || (o.scenarios && !o.scenarios.test(sc.id))) continue;
    log(`warm: ${sc.id}`);
    const st = new Map<Side, {uid: string; error?: string; samples: number[]; bytes?: number; dims?: string}>();
    for (const s of sessions) st.set(s.spec.side, {...await prepare(s, sc, fx), samples: []});
    const warm = sc.warmup ?? 3;
    const total = warm + Math.min(o.iterations, sc.maxIterations ?? Infinity);
    for (let i = 0; i < total && !dl.hit; i++) {
      for (const s of ordered(sessions, i)) {
        const x = st.get(s.spec.side)!;
        if (x.error) continue;
        const r = await s.call(sc.tool, sc.args({i, uid: x.uid, url: fx.url}));
        const bad = r.ok ? sc.check?.(r) : r.error;
        if (bad) x.error = bad;
        else if (i >= warm) { x.samples.push(r.ms); x.bytes = r.bytes; x.dims = r.dims; }
      }
    }
    out[sc.id] = Object.fromEntries([...st].map(([side, x]) =>
      [side, {stats: x.error ? undefined : stats(x.samples), error: x.error, responseBytes: x.bytes, imageDims: x.dims}]));
  }
  return out;
}

async function runConcurrency(sessions: Session[], o: Options, fx: FixtureServer, dl: {hit: boolean}) {
  const res: PerSide<{walls: number[]; allAnswered: boolean; allCorrect: boolean; inOrder: boolean; error?: string}> = {};
  for (const s of sessions) {
    const prep = await prepare(s, {id: 'c', tool: 'evaluate_script', page: '/simple', args: () => ({})}, fx);
    res[s.spec.side] = {walls: [], allAnswered: true, allCorrect: true, inOrder: true, error: prep.error};
  }
  for (let round = 0; round < o.rounds && !dl.hit; round++) {
    for (const s of ordered(sessions, round)) {
      const x = res[s.spec.side]!;
      if (x.error) continue;
      const done: number[] = [];
      const t0 = now();
      const rs = await Promise.all(Array.from({length: o.concurrency}, (_, j) =>
        s.call('evaluate_script', {function: `() => ${j}`}).then(r => (done.push(j), r))));
      x.walls.push(now() - t0);
      x.allAnswered &&= rs.every(r => r.ok);
      x.allCorrect &&= rs.every((r, j) => /```json\s*([\s\S]*?)\s*```/.exec(r.text)?.[1]?.trim() === String(j));
      x.inOrder &&= done.every((v, j) => v === j);
      if (!x.allAnswered) x.error = rs.find(r => !r.ok)?.error;
    }
  }
  return Object.fromEntries(Object.entries(res).map(([k, v]) => [k, {...v, stats: stats(v.walls)}]));
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  const dl = {hit: false};
  const softTimer = setTimeout(() => { dl.hit = true; log('DEADLINE reached: finishing with partial results'); }, o.deadlineMin * 60_000);
  const hardTimer = setTimeout(() => {
    log('hard deadline: killing servers and Chrome');
    for (const s of LIVE) s.kill();
    process.exit(3);
  }, o.deadlineMin * 60_000 + Math.min(90_000, 10_000 + o.deadlineMin * 6_000));
  softTimer.unref(); hardTimer.unref();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { for (const s of LIVE) s.kill(); process.exit(130); });

  const machine = machineInfo(o.chrome);
  const specs: ServerSpec[] = [];
  const notes: string[] = [];
  if (o.only !== 'theirs') {
    if (existsSync(o.oursEntry)) specs.push({side: 'ours', command: process.execPath, args: [o.oursEntry, ...chromeArgs(o), ...o.oursArgs], env: SERVER_ENV});
    else { notes.push(`ours skipped: ${o.oursEntry} not found (run \`npm run build\` once the server exists)`); log(notes.at(-1)!); }
  }
  if (o.only !== 'ours') {
    specs.push({side: 'theirs', command: process.execPath, env: SERVER_ENV,
      args: [ensureTheirs(o), ...chromeArgs(o), '--no-usage-statistics', '--no-performance-crux', ...o.theirsArgs]});
  }
  const sides = specs.map(s => s.side);
  const fx = await startFixtureServer();
  const rows: Row[] = [];
  const json: Record<string, unknown> = {machine, options: {...o, skip: [...o.skip], scenarios: o.scenarios?.source}, servers: specs};
  const shapes: PerSide<string[]> = {};

  // 1. cold start
  if (!o.skip.has('cold') && o.cold > 0) {
    const cold: PerSide<{list: number[]; nav: number[]; errors: string[]}> = {};
    for (let i = 0; i < o.cold && !dl.hit; i++) {
      for (const spec of ordered(specs, i)) {
        log(`cold ${i + 1}/${o.cold}: ${spec.side}`);
        const c = cold[spec.side] ??= {list: [], nav: [], errors: []};
        const t0 = now();
        try {
          const {s, listMs} = await Session.start(spec, o.timeout);
          shapes[spec.side] ??= toolShapes(s.tools.values());
          const r = await s.call('navigate_page', {type: 'url', url: fx.url('/simple')});
          const navMs = now() - t0;
          c.list.push(listMs);
          if (r.ok) c.nav.push(navMs); else c.errors.push(r.error ?? '');
          await s.close();
        } catch (e) { c.errors.push(oneLine((e as Error).message, 300)); }
      }
    }
    json.cold = cold;
    const err = (side: Side) => cold[side]?.errors.length ? [`${side} errors: ${cold[side]!.errors[0]}`] : [];
    rows.push({scenario: 'cold: spawn → tools/list (ms)', ours: stats(cold.ours?.list ?? [])?.median, theirs: stats(cold.theirs?.list ?? [])?.median, notes: [`n=${o.cold}`]});
    rows.push({scenario: 'cold: spawn → first navigate_page (ms)', ours: stats(cold.ours?.nav ?? [])?.median, theirs: stats(cold.theirs?.nav ?? [])?.median, notes: [...err('ours'), ...err('theirs')]});
  }

  // 2-4. warm sessions
  const wantSessions = ['warm', 'concurrency', 'memory'].some(p => !o.skip.has(p));
  const sessions: Session[] = [];
  if (wantSessions && !dl.hit) {
    for (const spec of specs) {
      try {
        const {s} = await Session.start(spec, o.timeout);
        shapes[spec.side] ??= toolShapes(s.tools.values());
        const lp = await s.call('list_pages');
        s.pageId = Number(/^(\d+):.*\[selected\]/m.exec(lp.text)?.[1] ?? 1);
        sessions.push(s);
      } catch (e) { notes.push(oneLine((e as Error).message, 300)); }
    }
    if (sessions.length) {
      if (!o.skip.has('warm')) {
        const warm = await runWarm(sessions, o, fx, dl);
        json.warm = warm;
        for (const sc of WARM) {
          const w = warm[sc.id];
          if (!w) continue;
          const n: string[] = [];
          for (const side of sides) {
            const x = w[side];
            if (x?.error) n.push(`${side} ${sc.optional ? 'n/a' : 'ERROR'}: ${oneLine(x.error, 100)}`);
            else if (x?.stats) n.push(`${side} p90 ${x.stats.p90.toFixed(1)} (n=${x.stats.n}, ${x.responseBytes ?? 0} B${x.imageDims ? `, ${x.imageDims} png` : ''})`);
            else n.push(`${side}: no samples${dl.hit ? ' (deadline)' : ''}`);
          }
          rows.push({scenario: `${sc.id} (ms)${sc.optional ? ' [opt]' : ''}`, ours: w.ours?.stats?.median, theirs: w.theirs?.stats?.median, notes: n});
        }
      }
      if (!o.skip.has('concurrency') && !dl.hit) {
        log(`concurrency: ${o.concurrency} calls x ${o.rounds} rounds`);
        const c = await runConcurrency(sessions, o, fx, dl);
        json.concurrency = c;
        const n = sides.map(side => {
          const x = c[side];
          if (!x) return '';
          if (x.error || !x.walls.length) return `${side} ERROR: ${oneLine(x.error ?? 'no samples', 100)}`;
          return `${side}: answered=${x.allAnswered} correct=${x.allCorrect} inOrder=${x.inOrder}`;
        });
        rows.push({scenario: `${o.concurrency} concurrent evaluate_script, wall (ms)`, ours: c.ours?.stats?.median, theirs: c.theirs?.stats?.median, notes: n.filter(Boolean)});
      }
    }
    if (!o.skip.has('memory') && sessions.length) {
      const mem: PerSide<Record<string, number>> = {};
      for (const s of sessions) {
        const cur = s.track();
        const chromePss = [...s.chrome.values()].filter(isAlive).reduce((a, p) => a + pssKb(p.pid), 0);
        mem[s.spec.side] = {serverHwmKb: statusKb(s.pid, 'VmHWM'), serverRssKb: cur.serverRssKb, chromeRssKb: cur.chromeRssKb,
          chromePeakRssKb: s.peak.chromeRssKb, chromePssKb: chromePss, chromeProcs: [...s.chrome.values()].filter(isAlive).length};
      }
      json.memory = mem;
      const mb = (side: Side, k: string) => mem[side]?.[k] !== undefined ? mem[side]![k]! / 1024 : undefined;
      rows.push({scenario: 'server peak RSS, VmHWM (MB)', ours: mb('ours', 'serverHwmKb'), theirs: mb('theirs', 'serverHwmKb'), notes: []});
      rows.push({scenario: 'Chrome tree RSS sum, peak polled (MB)', ours: mb('ours', 'chromePeakRssKb'), theirs: mb('theirs', 'chromePeakRssKb'), notes: ['500 ms polling']});
      rows.push({scenario: 'Chrome tree PSS sum, at end (MB)', ours: mb('ours', 'chromePssKb'), theirs: mb('theirs', 'chromePssKb'),
        notes: sides.map(s => `${s}: ${mem[s]?.chromeProcs ?? 0} procs`)});
    }
    for (const s of sessions) await s.close();
  }
  json.cleanup = CLEANUP;
  json.toolShapes = shapes;

  // 5. install footprint
  if (!o.skip.has('install') && !dl.hit) {
    const inst: PerSide<ReturnType<typeof installFootprint>> = {};
    for (const side of sides) { log(`install footprint: ${side}`); inst[side] = installFootprint(side === 'ours' ? {packDir: ROOT} : {spec: `chrome-devtools-mcp@${CDM_VERSION}`}); }
    json.install = inst;
    const n = sides.filter(s => inst[s]?.error).map(s => `${s}: ${inst[s]!.error}`);
    if (inst.ours?.tarballKb) n.push(`ours tarball ${inst.ours.tarballKb} KB`);
    rows.push({scenario: 'install: du -sk node_modules (KB)', ours: inst.ours?.kb, theirs: inst.theirs?.kb, notes: n});
    rows.push({scenario: 'install: packages in node_modules', ours: inst.ours?.packages, theirs: inst.theirs?.packages, notes: []});
  }

  await fx.close();
  // Output.
  const extra = [...notes.map(n => `- ${n}`)];
  if (dl.hit) extra.push(`- DEADLINE of ${o.deadlineMin} min reached: results are partial`);
  for (const side of sides) {
    const c = CLEANUP[side];
    if (c) extra.push(`- ${side}: ${c.closes} closes, Chrome exit after close median ${stats(c.exitMs)?.median ?? '?'} ms, leftover Chrome processes SIGKILLed: ${c.leftoversKilled}`);
  }
  if (shapes.ours && shapes.theirs) {
    const p = toolParity(shapes.ours, shapes.theirs);
    extra.push(...p.md);
    json.toolParity = p.summary;
  }
  for (const side of sides) if (shapes[side]) extra.push('', `<details><summary>${side} tools (${shapes[side]!.length})</summary>`, '', ...shapes[side]!.map(t => `- ${t}`), '', '</details>');
  json.rows = rows;
  json.deadlineHit = dl.hit;
  const md = markdown(`cdp-mcp vs chrome-devtools-mcp@${CDM_VERSION}`, machine, rows, sides, extra);
  mkdirSync(path.dirname(o.out), {recursive: true});
  writeFileSync(`${o.out}.json`, JSON.stringify(json, null, 2) + '\n');
  writeFileSync(`${o.out}.md`, md);
  console.log(md.split('\n<details>')[0]);
  log(`wrote ${o.out}.json and ${o.out}.md`);
  return dl.hit ? 2 : 0;
}

main().then(code => process.exit(code), e => {
  log(`FAILED: ${(e as Error).stack ?? String(e)}`);
  for (const s of LIVE) s.kill();
  process.exit(1);
});
