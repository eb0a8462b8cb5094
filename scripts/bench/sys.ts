/**
 * System helpers of the benchmark (scripts/bench/bench.ts): /proc process trees and memory,
 * machine info, statistics, install footprint. No dependencies beyond node:*.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const oneLine = (s: string, n = 160) => s.replace(/\s+/g, ' ').trim().slice(0, n);

// ---------------------------------------------------------------- /proc

export interface ProcId {
  pid: number;
  start: string;
}

interface StatLine {
  pid: number;
  ppid: number;
  state: string;
  start: string;
}

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
    if (!/^\d+$/.test(name)) {
      continue;
    }
    const st = readStat(Number(name));
    if (!st || st.state === 'Z') {
      continue;
    }
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
    if (!/^\d+$/.test(name) || Number(name) === process.pid) {
      continue;
    }
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!cmd.includes(needle)) {
        continue;
      }
    } catch {
      continue;
    }
    const st = readStat(Number(name));
    if (st && st.state !== 'Z') {
      out.push({pid: st.pid, start: st.start});
    }
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
  /** 1/5/15-minute load average when the run started (a busy machine skews every figure). */
  loadAvg: string;
  /** git HEAD of the checkout that was built and measured, "+dirty" with uncommitted changes (absent in older runs). */
  commit?: string;
  date: string;
}

export function machineInfo(chromePath: string, repoDir: string): MachineInfo {
  const r = spawnSync(chromePath, ['--version'], {encoding: 'utf8', timeout: 15_000});
  const git = (...args: string[]) =>
    spawnSync('git', args, {cwd: repoDir, encoding: 'utf8', timeout: 15_000}).stdout?.trim() ?? '';
  const head = git('rev-parse', '--short', 'HEAD');
  return {
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    chromium: (r.stdout ?? '').trim() || `unknown (${r.error?.message ?? r.stderr?.trim() ?? ''})`,
    platform: `${os.platform()} ${os.release()}`,
    loadAvg: os
      .loadavg()
      .map(x => x.toFixed(2))
      .join(' '),
    commit: head ? `${head}${git('status', '--porcelain', '--untracked-files=no') ? '+dirty' : ''}` : 'unknown',
    date: new Date().toISOString(),
  };
}

// ---------------------------------------------------------------- stats

export interface Stats {
  n: number;
  median: number;
  p90: number;
  min: number;
  max: number;
  mean: number;
}

export function stats(xs: number[]): Stats | undefined {
  if (!xs.length) {
    return undefined;
  }
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length,
    median: r(median),
    p90: r(at(0.9)),
    min: r(s[0]!),
    max: r(s[s.length - 1]!),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
  };
}

// ---------------------------------------------------------------- install footprint

function countPackages(nm: string): number {
  let n = 0;
  const dirs = (d: string) => {
    try {
      return readdirSync(d, {withFileTypes: true}).filter(e => e.isDirectory());
    } catch {
      return [];
    }
  };
  for (const e of dirs(nm)) {
    if (e.name.startsWith('@')) {
      n += dirs(path.join(nm, e.name)).filter(s => existsSync(path.join(nm, e.name, s.name, 'package.json'))).length;
    } else if (existsSync(path.join(nm, e.name, 'package.json'))) {
      n++;
    }
  }
  return n;
}

export interface Footprint {
  kb?: number;
  packages?: number;
  tarballKb?: number;
  installMs?: number;
  error?: string;
}

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
      const p = spawnSync('npm', ['pack', '--json', '--pack-destination', dir], {
        cwd: what.packDir,
        encoding: 'utf8',
        timeout: 120_000,
      });
      const info =
        p.status === 0
          ? (JSON.parse(p.stdout.slice(p.stdout.indexOf('['))) as Array<{filename: string; size: number}>)
          : [];
      if (!info[0]) {
        return {error: `npm pack failed: ${oneLine(p.error?.message ?? p.stderr ?? '')}`};
      }
      spec = path.join(dir, info[0].filename);
      tarballKb = Math.round(info[0].size / 1024);
    } else {
      spec = what.spec;
    }
    const inst = path.join(dir, 'app');
    mkdirSync(inst);
    writeFileSync(path.join(inst, 'package.json'), '{"name":"bench-install","private":true}\n');
    const t0 = performance.now();
    const r = spawnSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', spec], {
      cwd: inst,
      encoding: 'utf8',
      timeout: 300_000,
      env: {...process.env, PUPPETEER_SKIP_DOWNLOAD: '1'},
    });
    const installMs = Math.round(performance.now() - t0);
    if (r.status !== 0) {
      return {error: `npm install failed: ${oneLine(r.error?.message ?? r.stderr ?? '')}`};
    }
    const du = spawnSync('du', ['-sk', path.join(inst, 'node_modules')], {encoding: 'utf8'});
    return {
      kb: Number(du.stdout.split(/\s/)[0]),
      packages: countPackages(path.join(inst, 'node_modules')),
      tarballKb,
      installMs,
    };
  } catch (e) {
    return {error: oneLine((e as Error).message)};
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}
