/**
 * Support code for scripts/bench.ts: the fixture HTTP server, /proc helpers
 * (process trees, RSS), machine info, install footprint, statistics and report helpers.
 * No dependencies beyond node:*.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const oneLine = (s: string, n = 160) => s.replace(/\s+/g, ' ').trim().slice(0, n);

// ---------------------------------------------------------------- fixtures

const HEAD = '<meta charset="utf-8"><link rel="icon" href="data:,">';

export function simplePage(): string {
  return `<!doctype html><html><head>${HEAD}<title>Simple</title></head>` +
    '<body><h1>Hello</h1><p>Simple page</p></body></html>';
}

/** n buttons nested as main>section>div>ul>li>div>button, 100 per section. */
export function buttonsPage(n: number): string {
  const parts: string[] = [];
  for (let s = 0; s < n; s += 100) {
    parts.push('<section><div><ul>');
    for (let i = s; i < Math.min(n, s + 100); i++) {
      parts.push(`<li><div><button type="button" id="b${i + 1}">Button ${i + 1}</button></div></li>`);
    }
    parts.push('</ul></div></section>');
  }
  return `<!doctype html><html><head>${HEAD}<title>Buttons ${n}</title></head>` +
    `<body><main>${parts.join('')}</main></body></html>`;
}

export function formPage(): string {
  return `<!doctype html><html><head>${HEAD}<title>Form</title></head><body><main>
<label for="name">Name</label> <input id="name" name="name" type="text">
<button type="button" id="count" onclick="out.value = String(++window.clicks)">Count</button>
<button type="button" id="hover" onmouseenter="hovered.value = String(++window.hovers)">Hover target</button>
<output id="out">0</output> <output id="hovered">0</output>
<script>window.clicks = 0; window.hovers = 0;</script>
</main></body></html>`;
}

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: string | undefined;
    if (u.pathname === '/simple') body = simplePage();
    else if (u.pathname === '/form') body = formPage();
    else if (u.pathname === '/buttons') {
      const n = Math.max(1, Math.min(20000, Number(u.searchParams.get('n') ?? '100') || 100));
      body = buttonsPage(n);
    }
    if (body === undefined) {
      res.writeHead(404, {'content-type': 'text/plain'}).end('not found');
      return;
    }
    res.writeHead(200, {'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store'});
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const {port} = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path: string) => origin + path,
    close: () => new Promise<void>(resolve => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// ---------------------------------------------------------------- /proc

export interface ProcId {pid: number; start: string}

interface StatLine {pid: number; ppid: number; state: string; start: string}

function readStat(pid: number): StatLine | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm (field 2) may contain spaces and parens: split after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {pid, state: rest[0] ?? '?', ppid: Number(rest[1]), start: rest[19] ?? ''};
}

/** All live descendants of `root` (not including root). */
export function descendants(root: number): ProcId[] {
  const children = new Map<number, StatLine[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (!st || st.state === 'Z') continue;
    const list = children.get(st.ppid) ?? [];
    list.push(st);
    children.set(st.ppid, list);
  }
  const out: ProcId[] = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift()!;
    for (const c of children.get(p) ?? []) {
      out.push({pid: c.pid, start: c.start});
      queue.push(c.pid);
    }
  }
  return out;
}

/** Pids of live processes whose command line contains `needle`. */
export function pidsWithCmdline(needle: string): ProcId[] {
  const out: ProcId[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!cmd.includes(needle)) continue;
    } catch {
      continue;
    }
    const st = readStat(Number(name));
    if (st && st.state !== 'Z') out.push({pid: st.pid, start: st.start});
  }
  return out;
}

export function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Same process still alive (guards against pid reuse via start time). */
export function isAlive(p: ProcId): boolean {
  const st = readStat(p.pid);
  return !!st && st.start === p.start && st.state !== 'Z';
}

/** Field of /proc/<pid>/status in KiB (e.g. VmRSS, VmHWM); 0 if unreadable. */
export function statusKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** PSS in KiB from smaps_rollup; 0 if unreadable. */
export function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------- machine

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memGiB: number;
  node: string;
  chromium: string;
  platform: string;
  date: string;
}

export function machineInfo(chromePath: string): MachineInfo {
  const r = spawnSync(chromePath, ['--version'], {encoding: 'utf8', timeout: 15_000});
  return {
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memGiB: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    node: process.version,
    chromium: (r.stdout ?? '').trim() || `unknown (${r.error?.message ?? r.stderr?.trim() ?? ''})`,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
  };
}

// ---------------------------------------------------------------- stats

export interface Stats {n: number; median: number; p90: number; min: number; max: number; mean: number}

export function stats(xs: number[]): Stats | undefined {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length, median: r(median), p90: r(at(0.9)), min: r(s[0]!), max: r(s[s.length - 1]!),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
  };
}

// ---------------------------------------------------------------- install footprint

function countPackages(nm: string): number {
  let n = 0;
  const dirs = (d: string) => { try { return readdirSync(d, {withFileTypes: true}).filter(e => e.isDirectory()); } catch { return []; } };
  for (const e of dirs(nm)) {
    if (e.name.startsWith('@')) n += dirs(path.join(nm, e.name)).filter(s => existsSync(path.join(nm, e.name, s.name, 'package.json'))).length;
    else if (existsSync(path.join(nm, e.name, 'package.json'))) n++;
  }
  return n;
}

export interface Footprint {kb?: number; packages?: number; tarballKb?: number; installMs?: number; error?: string}

/**
 * `npm install --omit=dev` into a clean temp folder, of either a tarball made by `npm pack`
 * in packDir, or a registry spec. Reports du -sk node_modules and the package count.
 */
export function installFootprint(what: {packDir: string} | {spec: string}): Footprint {
  mkdirSync('/tmp/cdp-mcp-bench', {recursive: true});
  const dir = mkdtempSync('/tmp/cdp-mcp-bench/install-');
  try {
    let spec: string;
    let tarballKb: number | undefined;
    if ('packDir' in what) {
      const p = spawnSync('npm', ['pack', '--json', '--pack-destination', dir], {cwd: what.packDir, encoding: 'utf8', timeout: 120_000});
      const info = p.status === 0 ? JSON.parse(p.stdout.slice(p.stdout.indexOf('['))) as Array<{filename: string; size: number}> : [];
      if (!info[0]) return {error: `npm pack failed: ${oneLine(p.error?.message ?? p.stderr ?? '')}`};
      spec = path.join(dir, info[0].filename);
      tarballKb = Math.round(info[0].size / 1024);
    } else {
      spec = what.spec;
    }
    const inst = path.join(dir, 'app');
    mkdirSync(inst);
    writeFileSync(path.join(inst, 'package.json'), '{"name":"bench-install","private":true}\n');
    const t0 = performance.now();
    const r = spawnSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', spec],
      {cwd: inst, encoding: 'utf8', timeout: 300_000, env: {...process.env, PUPPETEER_SKIP_DOWNLOAD: '1'}});
    const installMs = Math.round(performance.now() - t0);
    if (r.status !== 0) return {error: `npm install failed: ${oneLine(r.error?.message ?? r.stderr ?? '')}`};
    const du = spawnSync('du', ['-sk', path.join(inst, 'node_modules')], {encoding: 'utf8'});
    return {kb: Number(du.stdout.split(/\s/)[0]), packages: countPackages(path.join(inst, 'node_modules')), tarballKb, installMs};
  } catch (e) {
    return {error: oneLine((e as Error).message)};
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

// ---------------------------------------------------------------- report

export type Side = 'ours' | 'theirs';
export interface Row {scenario: string; ours?: number; theirs?: number; notes: string[]}
export interface ToolInfo {name: string; inputSchema: {properties?: Record<string, {type?: unknown; enum?: unknown}>; required?: string[]}}

/** One line per tool: `name(req: type, opt?: "a"|"b")`, sorted. */
export function toolShapes(tools: Iterable<ToolInfo>): string[] {
  return [...tools].map(t => {
    const req = new Set(t.inputSchema.required ?? []);
    const ps = Object.entries(t.inputSchema.properties ?? {}).map(([k, v]) =>
      `${k}${req.has(k) ? '' : '?'}: ${Array.isArray(v.enum) ? v.enum.map(x => JSON.stringify(x)).join('|') : String(v.type ?? 'any')}`);
    return `${t.name}(${ps.join(', ')})`;
  }).sort();
}

export function toolParity(oursShapes: string[], theirsShapes: string[]) {
  const byName = (xs: string[]) => new Map(xs.map(x => [x.slice(0, x.indexOf('(')), x]));
  const [ours, theirs] = [byName(oursShapes), byName(theirsShapes)];
  const missing = [...theirs.keys()].filter(k => !ours.has(k));
  const added = [...ours.keys()].filter(k => !theirs.has(k));
  const differ = [...theirs].filter(([k, v]) => ours.has(k) && ours.get(k) !== v);
  const md = ['', '## Tool parity (tools/list)', '', `- missing in ours (${missing.length}): ${missing.join(', ') || '–'}`,
    `- only in ours (${added.length}): ${added.join(', ') || '–'}`, `- same name, different params (${differ.length}):`,
    ...differ.flatMap(([k, v]) => [`  - theirs: \`${v}\``, `  - ours:   \`${ours.get(k)}\``])];
  return {md, summary: {missing, added, differ: differ.map(([k]) => k)}};
}

export function markdown(title: string, machine: object, rows: Row[], sides: Side[], extra: string[]): string {
  const f = (v: number | undefined, side: Side) =>
    !sides.includes(side) ? 'skipped' : v === undefined ? 'n/a' : Number.isInteger(v) ? String(v) : v.toFixed(1);
  const lines = ['| scenario | ours median | theirs median | ours/theirs | notes |', '|---|---:|---:|---:|---|'];
  for (const r of rows) {
    const ratio = r.ours !== undefined && r.theirs !== undefined && r.theirs > 0 ? (r.ours / r.theirs).toFixed(2) : '–';
    lines.push(`| ${r.scenario} | ${f(r.ours, 'ours')} | ${f(r.theirs, 'theirs')} | ${ratio} | ${r.notes.join('; ').replace(/\|/g, '\\|')} |`);
  }
  const m = Object.entries(machine).map(([k, v]) => `- ${k}: ${String(v)}`);
  return [`# ${title}`, '', ...m, '', ...lines, '', ...extra, ''].join('\n');
}
