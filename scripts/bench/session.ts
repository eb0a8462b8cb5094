/**
 * One MCP server under benchmark (scripts/bench/bench.ts): spawn over stdio with the SDK client,
 * timed tool calls that never throw, Chrome process-tree tracking, RSS sampling, and a
 * close that guarantees no Chrome survives. Also installs chrome-devtools-mcp on demand.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

import type {Side, ToolInfo} from './report.js';
import type {ProcId} from './sys.js';
import {cmdline, descendants, isAlive, oneLine, pidsWithCmdline, stats, statusKb} from './sys.js';

export const CDM_VERSION = '1.11.0';
export const now = () => performance.now();
export const sleep = (ms: number) => new Promise<void>(r => setTimeout(r, ms));
export const log = (msg: string) => process.stderr.write(`[bench ${process.uptime().toFixed(0)}s] ${msg}\n`);

export interface ServerSpec {
  side: Side;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Flags given to both servers: same Chromium, headless, temp profile, same window content size. */
export function chromeArgs(chrome: string, viewport: string): string[] {
  return [
    '--executablePath',
    chrome,
    '--headless',
    '--isolated',
    `--viewport=${viewport}`,
    '--chromeArg=--no-sandbox',
    '--chromeArg=--disable-gpu',
  ];
}
export const SERVER_ENV = {CI: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'};

/** Installs chrome-devtools-mcp into cdmDir if needed; returns its bin path. */
export function ensureTheirs(cdmDir: string): string {
  const pkgDir = path.join(cdmDir, 'node_modules', 'chrome-devtools-mcp');
  const version = () => {
    try {
      return JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string;
    } catch {
      return '';
    }
  };
  if (version() !== CDM_VERSION) {
    log(`installing chrome-devtools-mcp@${CDM_VERSION} into ${cdmDir}`);
    mkdirSync(cdmDir, {recursive: true});
    if (!existsSync(path.join(cdmDir, 'package.json'))) {
      writeFileSync(path.join(cdmDir, 'package.json'), '{"private":true}\n');
    }
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `chrome-devtools-mcp@${CDM_VERSION}`], {
      cwd: cdmDir,
      encoding: 'utf8',
      timeout: 300_000,
      env: {...process.env, PUPPETEER_SKIP_DOWNLOAD: '1'},
    });
    if (r.status !== 0 || version() !== CDM_VERSION) {
      throw new Error(`npm install failed: ${r.error?.message ?? ''} ${r.stderr}`);
    }
  }
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['chrome-devtools-mcp'];
  return path.join(pkgDir, bin ?? 'build/src/bin/chrome-devtools-mcp.js');
}

export interface CallResult {
  ok: boolean;
  ms: number;
  text: string;
  images: number;
  chars: number;
  error?: string;
  dims?: string;
}

/** "WxH" of a base64 PNG (IHDR), else undefined. */
export function pngDims(b64: string | undefined): string | undefined {
  const b = Buffer.from((b64 ?? '').slice(0, 44), 'base64');
  return b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR'
    ? `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`
    : undefined;
}

/** The value of an evaluate_script answer (the fenced json block), trimmed. */
export const evalValue = (text: string) => /```json\s*([\s\S]*?)\s*```/.exec(text)?.[1]?.trim();

export const LIVE = new Set<Session>();
/** Per server: closes, Chrome exit time after close, Chrome processes that had to be SIGKILLed. */
export const CLEANUP: Partial<Record<Side, {closes: number; leftoversKilled: number; exitMs: number[]}>> = {};

export class Session {
  readonly tools = new Map<string, ToolInfo>();
  readonly chrome = new Map<number, ProcId>();
  readonly userDataDirs = new Set<string>();
  readonly stderrTail: string[] = [];
  pid = 0;
  pageId = 1;
  broken?: string;
  peak = {serverRssKb: 0, chromeRssKb: 0};
  timer?: NodeJS.Timeout;
  private constructor(
    readonly spec: ServerSpec,
    readonly client: Client,
    readonly timeout: number,
  ) {}

  get side(): Side {
    return this.spec.side;
  }

  /** Spawns the server and connects; returns timings (ms from spawn). */
  static async start(spec: ServerSpec, timeout: number): Promise<{s: Session; initMs: number; listMs: number}> {
    const transport = new StdioClientTransport({command: spec.command, args: spec.args, env: spec.env, stderr: 'pipe'});
    const s = new Session(spec, new Client({name: 'cdp-mcp-bench', version: '0.1.0'}), timeout);
    transport.stderr?.on('data', (d: Buffer) => {
      s.stderrTail.push(d.toString());
      if (s.stderrTail.length > 50) {
        s.stderrTail.shift();
      }
    });
    LIVE.add(s);
    const t0 = now();
    const connecting = s.client.connect(transport, {timeout});
    // Track the process tree from the start, so Chrome is known even if the server dies early.
    s.timer = setInterval(() => {
      s.pid ||= transport.pid ?? 0;
      s.track();
    }, 500);
    try {
      await connecting;
      s.pid = transport.pid ?? 0;
      s.track();
      const initMs = now() - t0;
      const {tools} = await s.client.listTools(undefined, {timeout});
      const listMs = now() - t0;
      for (const t of tools) {
        s.tools.set(t.name, t);
      }
      return {s, initMs, listMs};
    } catch (e) {
      s.pid ||= transport.pid ?? 0;
      s.track();
      await s.close();
      throw new Error(
        `${spec.side} failed to start: ${(e as Error).message}; stderr: ${oneLine(s.stderrTail.join(''), 400)}`,
        {cause: e},
      );
    }
  }

  /** Adds pageId when the tool's schema has one (page-id routing on) and the caller gave none. */
  withPage(tool: string, args: Record<string, unknown>): Record<string, unknown> {
    const props = this.tools.get(tool)?.inputSchema.properties;
    return props && 'pageId' in props && !('pageId' in args) ? {pageId: this.pageId, ...args} : args;
  }

  /** A timed tools/call; never throws (errors and isError come back as ok: false). */
  async call(tool: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    if (this.broken) {
      return {ok: false, ms: 0, text: '', images: 0, chars: 0, error: this.broken};
    }
    const t0 = now();
    try {
      const r = (await this.client.callTool({name: tool, arguments: this.withPage(tool, args)}, undefined, {
        timeout: this.timeout,
      })) as {content?: unknown; isError?: boolean};
      const ms = now() - t0;
      const items = Array.isArray(r.content) ? (r.content as Array<{type?: string; text?: string; data?: string}>) : [];
      const text = items
        .filter(c => c.type === 'text')
        .map(c => c.text ?? '')
        .join('\n');
      const images = items.filter(c => c.type === 'image').length;
      const dims = pngDims(items.find(c => c.type === 'image')?.data);
      return r.isError
        ? {ok: false, ms, text, images, chars: text.length, error: oneLine(text) || 'isError'}
        : {ok: true, ms, text, images, chars: text.length, dims};
    } catch (e) {
      const msg = (e as Error).message;
      if (/timed out|timeout|closed/i.test(msg)) {
        this.broken = `session broken: ${oneLine(msg)}`;
      }
      return {ok: false, ms: now() - t0, text: '', images: 0, chars: 0, error: oneLine(msg)};
    }
  }

  /** Runs a function in the page and returns its JSON value as text (or an error). */
  async evaluate(fn: string): Promise<{value?: string; error?: string}> {
    const r = await this.call('evaluate_script', {function: fn});
    return r.ok ? {value: evalValue(r.text) ?? oneLine(r.text)} : {error: r.error};
  }

  /** Records the server's Chrome process tree and samples RSS peaks. */
  track(): {serverRssKb: number; chromeRssKb: number} {
    if (!this.pid) {
      return {serverRssKb: 0, chromeRssKb: 0};
    }
    let chromeRssKb = 0;
    for (const p of descendants(this.pid)) {
      if (!this.chrome.has(p.pid)) {
        this.chrome.set(p.pid, p);
        const dir = cmdline(p.pid).find(a => a.startsWith('--user-data-dir='));
        if (dir) {
          this.userDataDirs.add(dir.slice('--user-data-dir='.length));
        }
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
    for (const d of this.userDataDirs) {
      for (const p of pidsWithCmdline(d)) {
        all.set(p.pid, p);
      }
    }
    return [...all.values()].filter(isAlive);
  }

  /** Closes the client (ends server stdin), waits for Chrome to exit, SIGKILLs leftovers. */
  async close(): Promise<{chromeProcs: number; exitMs: number; leftoversKilled: number}> {
    this.track();
    const t0 = now();
    await this.client.close().catch(() => undefined);
    while (this.survivors().length && now() - t0 < 6000) {
      await sleep(50);
    }
    const exitMs = now() - t0;
    const left = this.survivors();
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    if (left.length) {
      log(`${this.spec.side}: ${left.length} Chrome process(es) survived close; SIGKILLed`);
    }
    LIVE.delete(this);
    clearInterval(this.timer);
    const c = (CLEANUP[this.spec.side] ??= {closes: 0, leftoversKilled: 0, exitMs: []});
    c.closes++;
    c.leftoversKilled += left.length;
    c.exitMs.push(exitMs);
    return {chromeProcs: this.chrome.size, exitMs, leftoversKilled: left.length};
  }

  /** Emergency: kill everything synchronously. */
  kill(): void {
    try {
      this.track();
    } catch {
      /* ignore */
    }
    for (const p of [...this.survivors(), {pid: this.pid, start: ''}]) {
      try {
        if (p.pid) {
          process.kill(p.pid, 'SIGKILL');
        }
      } catch {
        /* gone */
      }
    }
  }
}

export const cleanupNotes = (sides: Side[]) =>
  sides.flatMap(side => {
    const c = CLEANUP[side];
    return c
      ? [
          `${side}: ${c.closes} closes, Chrome exit after close median ${stats(c.exitMs)?.median ?? '?'} ms, leftover Chrome processes SIGKILLed: ${c.leftoversKilled}`,
        ]
      : [];
  });
