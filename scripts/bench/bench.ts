/**
 * Side-by-side benchmark: cdp-mcp ("ours") vs chrome-devtools-mcp@1.11.0 ("theirs").
 *
 *   npm run bench -- [flags]        (= tsc -p . && node build/scripts/bench/bench.js [flags]; --help lists them)
 *
 * Phases: cold start; warm per-tool latency, snapshot at scale and console/network at scale
 * (data in bench-scenarios.ts); N concurrent calls; memory (peak RSS, RSS after repeated
 * navigations of a 500-request page); install footprint. Reports medians and ours/theirs ratios.
 * Writes <out>.json and <out>.md (default <repo>/.bench/latest.*), prints the tables, and with
 * --docs writes docs/benchmarks.md. `--render <json>` re-renders those files from a saved run.
 */
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import type {FixtureServer} from './fixtures.js';
import {startFixtureServer, uploadFiles} from './fixtures.js';
import type {Report, Row, Side} from './report.js';
import {renderDocs, renderMarkdown, tokensSection, toolParity, toolShapes} from './report.js';
import type {Ctx, Scenario} from './scenarios.js';
import {SCENARIOS} from './scenarios.js';
import type {CallResult, ServerSpec} from './session.js';
import {
  CDM_VERSION,
  chromeArgs,
  cleanupNotes,
  ensureTheirs,
  evalValue,
  LIVE,
  log,
  now,
  SERVER_ENV,
  Session,
} from './session.js';
import type {Stats} from './sys.js';
import {installFootprint, isAlive, machineInfo, oneLine, pssKb, stats, statusKb} from './sys.js';

// ------------------------------------------------------------------ options

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name === 'cdp-mcp') {
        return dir;
      }
    } catch {
      /* keep looking */
    }
  }
  return process.cwd();
}
const ROOT = findRoot();

const HELP = `Usage: npm run bench -- [flags]     (or: node build/scripts/bench/bench.js [flags])
  --iterations N     measured calls per warm scenario after 3 warm-up calls (default 20; 5000-element snapshot: min(N, 7); ping, list_pages, select_page: 10 N)
  --cold N           cold spawns per server, alternating (default 5)
  --concurrency N    calls fired at once in the concurrency scenario (default 20)
  --rounds N         rounds of the concurrency scenario (default min(iterations, 5))
  --navs N           navigations of the 500-request page in the memory phase (default 50; RSS at 10, 30, N)
  --viewport WxH     window content size given to both servers (default 1280x720)
  --timeout MS       per MCP request timeout (default 60000)
  --deadline MIN     global deadline in minutes (default 15); partial results are written
  --out PATH         output base path; writes PATH.json and PATH.md (default .bench/latest)
  --docs             also write docs/benchmarks.md from this run
  --render JSON      run nothing: re-render PATH.md (and docs with --docs) from a saved JSON
  --only ours|theirs run a single server
  --skip LIST        comma list of phases to skip: cold,warm,concurrency,memory,install
  --scenarios REGEX  only warm scenarios whose id matches
  --ours PATH        our server entry (default dist/cdp-mcp.js: the packed bundle users run; build/src/bin/cdp-mcp.js for the compiled tree)
  --ours-arg ARG     extra arg for our server (repeatable), e.g. --ours-arg=--no-page-id-routing
  --theirs-arg ARG   extra arg for chrome-devtools-mcp (repeatable)
  --cdm-dir DIR      install/cache dir for chrome-devtools-mcp (default /tmp/cdp-mcp-bench/cdm)
  --chrome PATH      Chrome executable (default /usr/bin/chromium)`;

interface Options {
  iterations: number;
  cold: number;
  concurrency: number;
  rounds: number;
  navs: number;
  viewport: string;
  timeout: number;
  deadlineMin: number;
  out: string;
  docs: boolean;
  render?: string;
  only?: Side;
  skip: Set<string>;
  scenarios?: RegExp;
  oursEntry: string;
  oursArgs: string[];
  theirsArgs: string[];
  cdmDir: string;
  chrome: string;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    iterations: 20,
    cold: 5,
    concurrency: 20,
    rounds: -1,
    navs: 50,
    viewport: '1280x720',
    timeout: 60_000,
    deadlineMin: 15,
    out: path.join(ROOT, '.bench', 'latest'),
    docs: false,
    skip: new Set(),
    oursEntry: path.join(ROOT, 'dist/cdp-mcp.js'),
    oursArgs: [],
    theirsArgs: [],
    cdmDir: '/tmp/cdp-mcp-bench/cdm',
    chrome: '/usr/bin/chromium',
  };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    let v: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      [a, v] = [a.slice(0, eq), a.slice(eq + 1)];
    }
    const val = () => {
      const x = v ?? argv[++i];
      if (x === undefined) {
        throw new Error(`missing value for ${a}`);
      }
      return x;
    };
    const num = () => {
      const n = Number(val());
      if (!Number.isFinite(n) || n < 0) {
        throw new Error(`bad number for ${a}`);
      }
      return n;
    };
    switch (a) {
      case '--help':
      case '-h':
        console.log(HELP);
        return process.exit(0);
      case '--iterations':
        o.iterations = Math.max(1, num());
        break;
      case '--cold':
        o.cold = num();
        break;
      case '--concurrency':
        o.concurrency = Math.max(1, num());
        break;
      case '--rounds':
        o.rounds = num();
        break;
      case '--navs':
        o.navs = num();
        break;
      case '--viewport':
        o.viewport = val();
        if (!/^\d+x\d+$/.test(o.viewport)) {
          throw new Error('--viewport takes WxH');
        }
        break;
      case '--timeout':
        o.timeout = Math.max(1000, num());
        break;
      case '--deadline':
        o.deadlineMin = num();
        break;
      case '--out':
        o.out = path.resolve(val().replace(/\.(json|md)$/, ''));
        break;
      case '--docs':
        o.docs = true;
        break;
      case '--render':
        o.render = path.resolve(val());
        break;
      case '--only': {
        const s = val();
        if (s !== 'ours' && s !== 'theirs') {
          throw new Error('--only takes ours|theirs');
        }
        o.only = s;
        break;
      }
      case '--skip':
        for (const s of val().split(',')) {
          o.skip.add(s.trim());
        }
        break;
      case '--scenarios':
        o.scenarios = new RegExp(val());
        break;
      case '--ours':
        o.oursEntry = path.resolve(val());
        break;
      case '--ours-arg':
        o.oursArgs.push(val());
        break;
      case '--theirs-arg':
        o.theirsArgs.push(val());
        break;
      case '--cdm-dir':
        o.cdmDir = path.resolve(val());
        break;
      case '--chrome':
        o.chrome = val();
        break;
      default:
        throw new Error(`unknown flag ${a}\n${HELP}`);
    }
  }
  if (o.rounds < 0) {
    o.rounds = Math.min(o.iterations, 5);
  }
  return o;
}

type PerSide<T> = Partial<Record<Side, T>>;
interface Deadline {
  hit: boolean;
}

/** Alternate the server order per iteration to spread noise. */
const ordered = <T>(xs: T[], i: number): T[] => (i % 2 ? [...xs].reverse() : xs);
const mb = (kb: number | undefined) => (kb === undefined ? undefined : Math.round((kb / 1024) * 10) / 10);

// ------------------------------------------------------------------ warm scenarios

interface WarmResult {
  stats?: Stats;
  error?: string;
  facts?: Record<string, number>;
  dims?: string;
  effect?: {got?: string; expected: string; ok: boolean};
  sample?: string;
}

async function prepare(s: Session, sc: Scenario, c: Ctx, fx: FixtureServer): Promise<string | undefined> {
  if (s.broken) {
    return s.broken;
  }
  for (const t of [...(sc.measure ? [] : [sc.tool]), ...(sc.needs ?? [])]) {
    if (!s.tools.has(t)) {
      return `tool ${t} not listed`;
    }
  }
  if (sc.page) {
    const r = await s.call('navigate_page', {type: 'url', url: fx.url(sc.page)});
    if (!r.ok) {
      return `setup navigate failed: ${r.error}`;
    }
  }
  if (sc.ready) {
    const r = await s.call('wait_for', {text: [sc.ready], timeout: 30_000});
    if (!r.ok) {
      return `setup wait_for "${sc.ready}" failed: ${r.error}`;
    }
  }
  if (sc.targets) {
    const snap = await s.call('take_snapshot');
    const lines = snap.text.split('\n');
    for (const re of sc.targets) {
      const uid = /uid=(\S+)/.exec(lines.find(l => re.test(l)) ?? '')?.[1];
      if (!uid) {
        return `no uid for ${re} in snapshot: ${snap.error ?? oneLine(snap.text, 120)}`;
      }
      c.uids.push(uid);
    }
  }
  return sc.setup?.(s, c);
}

async function runWarm(sessions: Session[], o: Options, fx: FixtureServer, files: string[], dl: Deadline) {
  const out: Record<string, PerSide<WarmResult>> = {};
  const safe = async <T>(f: () => Promise<T>): Promise<T | string> => {
    try {
      return await f();
    } catch (e) {
      return `bench error: ${(e as Error).message}`;
    }
  };
  for (const sc of SCENARIOS) {
    if (dl.hit || (o.scenarios && !o.scenarios.test(sc.id))) {
      continue;
    }
    log(`warm: ${sc.id}`);
    const warm = sc.warmup ?? 3;
    const total = warm + Math.min(o.iterations * (sc.samplesPerIteration ?? 1), sc.maxIterations ?? Infinity);
    const st = new Map<Side, {c: Ctx; error?: string; samples: number[]; last?: CallResult}>();
    for (const s of sessions) {
      const c: Ctx = {i: 0, total, uids: [], url: (p: string) => fx.url(p), files, pageId: s.pageId, state: {}};
      const error = await safe(() => prepare(s, sc, c, fx));
      st.set(s.side, {c, samples: [], error});
    }
    for (let i = 0; i < total && !dl.hit; i++) {
      for (const s of ordered(sessions, i)) {
        const x = st.get(s.side)!;
        if (x.error) {
          continue;
        }
        x.c.i = i;
        const step = await safe(async () => {
          const b = await sc.before?.(s, x.c);
          if (b) {
            return b;
          }
          const r = sc.measure ? await sc.measure(s) : await s.call(sc.tool, sc.args(x.c));
          const bad = r.ok ? sc.check?.(r, x.c) : r.error;
          if (bad) {
            return bad;
          }
          if (i >= warm) {
            x.samples.push(r.ms);
          }
          x.last = r;
          return sc.after?.(s, x.c, r);
        });
        if (step) {
          x.error = `call ${i + 1}: ${step}`;
        }
      }
    }
    const res: PerSide<WarmResult> = {};
    for (const s of sessions) {
      const x = st.get(s.side)!;
      const w: WarmResult = (res[s.side] = {error: x.error, sample: x.last?.text.slice(0, 1200), dims: x.last?.dims});
      if (!x.error && x.samples.length) {
        w.stats = stats(x.samples);
        if (x.last && sc.facts) {
          w.facts = sc.facts(x.last);
        }
        if (sc.effect && !dl.hit) {
          const expected = sc.effect.expect(x.c);
          const got = await s.evaluate(sc.effect.fn);
          w.effect = {got: got.value ?? got.error, expected, ok: got.value === expected};
        }
      }
      await safe(async () => sc.teardown?.(s, x.c));
    }
    out[sc.id] = res;
  }
  return out;
}

function warmRows(warm: Record<string, PerSide<WarmResult>>, sides: Side[], dl: Deadline): Row[] {
  const rows: Row[] = [];
  for (const sc of SCENARIOS) {
    const w = warm[sc.id];
    if (!w) {
      continue;
    }
    const notes: string[] = [];
    for (const side of sides) {
      const x = w[side];
      if (x?.error) {
        notes.push(`${side} n/a: ${oneLine(x.error, 160)}`);
        continue;
      }
      if (!x?.stats) {
        notes.push(`${side}: no samples${dl.hit ? ' (deadline)' : ''}`);
        continue;
      }
      const parts = [`p90 ${x.stats.p90.toFixed(1)}`, `n=${x.stats.n}`];
      if (x.dims) {
        parts.push(`${x.dims} png`);
      }
      for (const [k, v] of Object.entries(x.facts ?? {})) {
        if (!sc.factRows?.some(f => f.key === k)) {
          parts.push(`${k} ${v}`);
        }
      }
      if (x.effect) {
        parts.push(
          x.effect.ok
            ? `effect ok (${x.effect.got})`
            : `EFFECT MISMATCH: got ${x.effect.got}, want ${x.effect.expected}`,
        );
      }
      notes.push(`${side} ${parts.join(', ')}`);
    }
    if (w.ours?.dims && w.theirs?.dims) {
      notes.push(w.ours.dims === w.theirs.dims ? `PNG sizes equal (${w.ours.dims})` : 'PNG SIZES DIFFER');
    }
    rows.push({
      section: sc.section,
      scenario: sc.id,
      ours: w.ours?.stats?.median,
      theirs: w.theirs?.stats?.median,
      notes,
    });
    for (const f of sc.factRows ?? []) {
      const [a, b] = [w.ours?.facts?.[f.key], w.theirs?.facts?.[f.key]];
      const n =
        f.label.startsWith('check') && a !== undefined && b !== undefined
          ? [a === b ? 'same on both sides' : 'DIFFERENT']
          : [];
      rows.push({section: sc.section, scenario: f.label, ours: a, theirs: b, notes: n});
    }
  }
  return rows;
}

// ------------------------------------------------------------------ concurrency and memory

async function runConcurrency(sessions: Session[], o: Options, fx: FixtureServer, dl: Deadline) {
  const res: PerSide<{
    walls: number[];
    allAnswered: boolean;
    allCorrect: boolean;
    inOrder: boolean;
    error?: string;
    stats?: Stats;
  }> = {};
  for (const s of sessions) {
    const r = await s.call('navigate_page', {type: 'url', url: fx.url('/simple')});
    res[s.side] = {walls: [], allAnswered: true, allCorrect: true, inOrder: true, error: r.ok ? undefined : r.error};
  }
  for (let round = 0; round < o.rounds && !dl.hit; round++) {
    for (const s of ordered(sessions, round)) {
      const x = res[s.side]!;
      if (x.error) {
        continue;
      }
      const done: number[] = [];
      const t0 = now();
      const rs = await Promise.all(
        Array.from({length: o.concurrency}, (_, j) =>
          s.call('evaluate_script', {function: `() => ${j}`}).then(r => (done.push(j), r)),
        ),
      );
      x.walls.push(now() - t0);
      x.allAnswered &&= rs.every(r => r.ok);
      x.allCorrect &&= rs.every((r, j) => evalValue(r.text) === String(j));
      x.inOrder &&= done.every((v, j) => v === j);
      if (!x.allAnswered) {
        x.error = rs.find(r => !r.ok)?.error;
      }
    }
  }
  for (const x of Object.values(res)) {
    x.stats = stats(x.walls);
  }
  return res;
}

/** navigate_page + wait_for("all done 500") on the 500-request page, o.navs times; server RSS at marks. */
async function runNavMemory(sessions: Session[], o: Options, fx: FixtureServer, dl: Deadline) {
  const marks = [...new Set([10, 30, o.navs].filter(m => m <= o.navs))];
  const res: PerSide<{
    navMs: number[];
    rssKb: Record<number, number>;
    chromeRssKb: Record<number, number>;
    error?: string;
    stats?: Stats;
  }> = {};
  for (const s of sessions) {
    res[s.side] = {navMs: [], rssKb: {}, chromeRssKb: {}, error: s.broken};
  }
  for (let n = 1; n <= o.navs && !dl.hit; n++) {
    for (const s of ordered(sessions, n)) {
      const x = res[s.side]!;
      if (x.error) {
        continue;
      }
      const t0 = now();
      const r = await s.call('navigate_page', {type: 'url', url: fx.url(`/activity?n=500&nav=${n}`)});
      const w = r.ok ? await s.call('wait_for', {text: ['all done 500'], timeout: 30_000}) : r;
      if (!w.ok) {
        x.error = `navigation ${n}: ${w.error}`;
        continue;
      }
      x.navMs.push(now() - t0);
      if (marks.includes(n)) {
        const cur = s.track();
        x.rssKb[n] = cur.serverRssKb;
        x.chromeRssKb[n] = cur.chromeRssKb;
      }
    }
    if (n % 10 === 0) {
      log(`memory: ${n}/${o.navs} navigations`);
    }
  }
  for (const x of Object.values(res)) {
    x.stats = stats(x.navMs);
  }
  return {marks, res};
}

// ------------------------------------------------------------------ main

function commandLine(argv: string[]): string {
  const q = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return `npm run bench${argv.length ? ` -- ${argv.map(q).join(' ')}` : ''}`;
}

function writeOutputs(rep: Report, o: Options, jsonPath: string): void {
  const md = renderMarkdown(rep);
  mkdirSync(path.dirname(o.out), {recursive: true});
  writeFileSync(`${o.out}.md`, md);
  if (o.docs) {
    const docs = path.join(ROOT, 'docs', 'benchmarks.md');
    mkdirSync(path.dirname(docs), {recursive: true});
    const rel = path.relative(ROOT, jsonPath);
    const kept = existsSync(docs) ? tokensSection(readFileSync(docs, 'utf8')) : '';
    writeFileSync(docs, `${renderDocs(rep, rel.startsWith('..') ? jsonPath : rel)}${kept}`);
    log(`wrote ${docs}`);
  }
  console.log(md.split('\n## Tool parity')[0]);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const o = parseOptions(argv);
  if (o.render) {
    const rep = JSON.parse(readFileSync(o.render, 'utf8')) as Report;
    if (!argv.includes('--out')) {
      o.out = o.render.replace(/\.json$/, '');
    }
    writeOutputs(rep, o, o.render);
    return 0;
  }
  const t0 = now();
  const dl: Deadline = {hit: false};
  const softTimer = setTimeout(() => {
    dl.hit = true;
    log('DEADLINE reached: finishing with partial results');
  }, o.deadlineMin * 60_000);
  const hardTimer = setTimeout(
    () => {
      log('hard deadline: killing servers and Chrome');
      for (const s of LIVE) {
        s.kill();
      }
      process.exit(3);
    },
    o.deadlineMin * 60_000 + Math.min(90_000, 10_000 + o.deadlineMin * 6_000),
  );
  softTimer.unref();
  hardTimer.unref();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      for (const s of LIVE) {
        s.kill();
      }
      process.exit(130);
    });
  }

  const machine = machineInfo(o.chrome, ROOT);
  const specs: ServerSpec[] = [];
  const notes: string[] = [];
  if (o.only !== 'theirs') {
    if (existsSync(o.oursEntry)) {
      specs.push({
        side: 'ours',
        command: process.execPath,
        // Both servers return whole outputs: the same work on each side (ours caps them by default).
        args: [o.oursEntry, ...chromeArgs(o.chrome, o.viewport), '--maxOutputChars', '0', ...o.oursArgs],
        env: SERVER_ENV,
      });
    } else {
      notes.push(`ours skipped: ${o.oursEntry} not found (run \`npm run build && npm run bundle\`)`);
      log(notes.at(-1)!);
    }
  }
  if (o.only !== 'ours') {
    // Its DevTools-based tools (traces, get_css_styles) need ES2024 built-ins
    // that Node 20 lacks; a Node 20 user must preload core-js as here.
    const coreJs = path.join(ROOT, 'node_modules/core-js/actual/index.js');
    notes.push(
      'theirs runs with core-js preloaded (NODE_OPTIONS=--require core-js), which its DevTools tools need on Node 20',
    );
    specs.push({
      side: 'theirs',
      command: process.execPath,
      env: {...SERVER_ENV, NODE_OPTIONS: `--require ${coreJs}`},
      args: [
        ensureTheirs(o.cdmDir),
        ...chromeArgs(o.chrome, o.viewport),
        '--no-usage-statistics',
        '--no-performance-crux',
        ...o.theirsArgs,
      ],
    });
  }
  const sides = specs.map(s => s.side);
  const fx = await startFixtureServer();
  const files = uploadFiles();
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {
    options: {...o, skip: [...o.skip], scenarios: o.scenarios?.source},
    servers: specs,
  };
  const shapes: PerSide<string[]> = {};

  // 1. cold start
  if (!o.skip.has('cold') && o.cold > 0) {
    const cold: PerSide<{list: number[]; nav: number[]; errors: string[]}> = {};
    for (let i = 0; i < o.cold && !dl.hit; i++) {
      for (const spec of ordered(specs, i)) {
        log(`cold ${i + 1}/${o.cold}: ${spec.side}`);
        const c = (cold[spec.side] ??= {list: [], nav: [], errors: []});
        const t = now();
        try {
          const {s, listMs} = await Session.start(spec, o.timeout);
          shapes[spec.side] ??= toolShapes(s.tools.values());
          const r = await s.call('navigate_page', {type: 'url', url: fx.url('/simple')});
          const navMs = now() - t;
          c.list.push(listMs);
          if (r.ok) {
            c.nav.push(navMs);
          } else {
            c.errors.push(r.error ?? '');
          }
          await s.close();
        } catch (e) {
          c.errors.push(oneLine((e as Error).message, 300));
        }
      }
    }
    raw.cold = cold;
    const err = (side: Side) =>
      cold[side]?.errors.length ? [`${side} errors (${cold[side].errors.length}): ${cold[side].errors[0]}`] : [];
    const p90 = (side: Side, k: 'list' | 'nav') =>
      cold[side]?.[k].length ? [`${side} p90 ${stats(cold[side][k])!.p90.toFixed(0)}`] : [];
    const sec = `Cold start (ms, median of ${o.cold} spawns per server, alternating)`;
    rows.push({
      section: sec,
      scenario: 'spawn → tools/list answered',
      ours: stats(cold.ours?.list ?? [])?.median,
      theirs: stats(cold.theirs?.list ?? [])?.median,
      notes: [...p90('ours', 'list'), ...p90('theirs', 'list')],
    });
    rows.push({
      section: sec,
      scenario: 'spawn → first navigate_page answered (Chrome launch included)',
      ours: stats(cold.ours?.nav ?? [])?.median,
      theirs: stats(cold.theirs?.nav ?? [])?.median,
      notes: [...p90('ours', 'nav'), ...p90('theirs', 'nav'), ...err('ours'), ...err('theirs')],
    });
  }

  // 2-6. warm sessions
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
      } catch (e) {
        notes.push(oneLine((e as Error).message, 300));
      }
    }
    if (sessions.length && !o.skip.has('warm')) {
      const warm = await runWarm(sessions, o, fx, files, dl);
      raw.warm = warm;
      rows.push(...warmRows(warm, sides, dl));
    }
    if (sessions.length && !o.skip.has('concurrency') && !dl.hit) {
      log(`concurrency: ${o.concurrency} calls x ${o.rounds} rounds`);
      const c = await runConcurrency(sessions, o, fx, dl);
      raw.concurrency = c;
      const n = sides.flatMap(side => {
        const x = c[side];
        if (!x) {
          return [];
        }
        if (x.error || !x.walls.length) {
          return [`${side} n/a: ${oneLine(x.error ?? 'no samples', 120)}`];
        }
        return [`${side}: all answered ${x.allAnswered}, values correct ${x.allCorrect}, in order ${x.inOrder}`];
      });
      rows.push({
        section: `Concurrency (ms, median of ${o.rounds} rounds)`,
        scenario: `${o.concurrency} evaluate_script calls fired at once: total wall time`,
        ours: c.ours?.stats?.median,
        theirs: c.theirs?.stats?.median,
        notes: n,
      });
    }
    if (sessions.length && !o.skip.has('memory')) {
      const sec = 'Memory (MB)';
      const peak: PerSide<Record<string, number>> = {};
      for (const s of sessions) {
        const cur = s.track();
        const live = [...s.chrome.values()].filter(isAlive);
        peak[s.side] = {
          serverHwmKb: statusKb(s.pid, 'VmHWM'),
          serverRssKb: cur.serverRssKb,
          chromePeakRssKb: s.peak.chromeRssKb,
          chromePssKb: live.reduce((a, p) => a + pssKb(p.pid), 0),
          chromeProcs: live.length,
        };
      }
      raw.memoryPeak = peak;
      rows.push({
        section: sec,
        scenario: 'server peak RSS (VmHWM) after all warm scenarios',
        ours: mb(peak.ours?.serverHwmKb),
        theirs: mb(peak.theirs?.serverHwmKb),
        notes: [],
      });
      rows.push({
        section: sec,
        scenario: 'Chrome process tree RSS sum, peak (500 ms polling)',
        ours: mb(peak.ours?.chromePeakRssKb),
        theirs: mb(peak.theirs?.chromePeakRssKb),
        notes: [],
      });
      rows.push({
        section: sec,
        scenario: 'Chrome process tree PSS sum, now',
        ours: mb(peak.ours?.chromePssKb),
        theirs: mb(peak.theirs?.chromePssKb),
        notes: sides.map(s => `${s}: ${peak[s]?.chromeProcs ?? 0} Chrome processes`),
      });
      if (o.navs > 0 && !dl.hit) {
        log(`memory: ${o.navs} navigations of the 500-request page`);
        const {marks, res} = await runNavMemory(sessions, o, fx, dl);
        raw.navMemory = res;
        const errs = sides.flatMap(s => (res[s]?.error ? [`${s} n/a: ${oneLine(res[s].error, 120)}`] : []));
        for (const m of marks) {
          rows.push({
            section: sec,
            scenario: `server RSS after ${m} navigations of the 500-request page`,
            ours: mb(res.ours?.rssKb[m]),
            theirs: mb(res.theirs?.rssKb[m]),
            notes: [
              ...sides.flatMap(s =>
                res[s]?.chromeRssKb[m] ? [`${s} Chrome tree ${mb(res[s].chromeRssKb[m])} MB`] : [],
              ),
              ...errs,
            ],
          });
        }
        rows.push({
          section: sec,
          scenario: 'navigate_page + wait_for on the 500-request page (ms, median)',
          ours: res.ours?.stats?.median,
          theirs: res.theirs?.stats?.median,
          notes: sides.flatMap(s =>
            res[s]?.stats ? [`${s} p90 ${res[s].stats.p90.toFixed(0)} (n=${res[s].stats.n})`] : [],
          ),
        });
        const hwm: PerSide<number> = {};
        for (const s of sessions) {
          hwm[s.side] = statusKb(s.pid, 'VmHWM');
        }
        rows.push({
          section: sec,
          scenario: 'server peak RSS (VmHWM) at the end',
          ours: mb(hwm.ours),
          theirs: mb(hwm.theirs),
          notes: [],
        });
      }
    }
    for (const s of sessions) {
      await s.close();
    }
  }

  // 7. install footprint
  if (!o.skip.has('install') && !dl.hit) {
    const inst: PerSide<ReturnType<typeof installFootprint>> = {};
    for (const side of sides) {
      log(`install footprint: ${side}`);
      inst[side] = installFootprint(side === 'ours' ? {packDir: ROOT} : {spec: `chrome-devtools-mcp@${CDM_VERSION}`});
    }
    raw.install = inst;
    const sec = 'Install footprint (npm install --omit=dev into an empty folder)';
    const n = sides.filter(s => inst[s]?.error).map(s => `${s}: ${inst[s]!.error}`);
    if (inst.ours?.tarballKb) {
      n.push(`ours tarball ${inst.ours.tarballKb} KB`);
    }
    rows.push({
      section: sec,
      scenario: 'du -sk node_modules (KB)',
      ours: inst.ours?.kb,
      theirs: inst.theirs?.kb,
      notes: n,
    });
    rows.push({
      section: sec,
      scenario: 'packages in node_modules',
      ours: inst.ours?.packages,
      theirs: inst.theirs?.packages,
      notes: [],
    });
  }

  await fx.close();
  if (dl.hit) {
    notes.push(`DEADLINE of ${o.deadlineMin} min reached: results are partial`);
  }
  notes.push(...cleanupNotes(sides));
  if (shapes.ours && shapes.theirs) {
    raw.toolParity = toolParity(shapes.ours, shapes.theirs).summary;
  }
  const rep: Report = {
    title: `cdp-mcp vs chrome-devtools-mcp@${CDM_VERSION}`,
    command: commandLine(argv),
    machine,
    sides,
    rows,
    notes,
    toolShapes: shapes,
    deadlineHit: dl.hit,
    durationS: (now() - t0) / 1000,
    ...raw,
  };
  mkdirSync(path.dirname(o.out), {recursive: true});
  writeFileSync(`${o.out}.json`, JSON.stringify(rep, null, 2) + '\n');
  writeOutputs(rep, o, `${o.out}.json`);
  log(`wrote ${o.out}.json and ${o.out}.md`);
  return dl.hit ? 2 : 0;
}

main().then(
  code => process.exit(code),
  e => {
    log(`FAILED: ${(e as Error).stack ?? String(e)}`);
    for (const s of LIVE) {
      s.kill();
    }
    process.exit(1);
  },
);
