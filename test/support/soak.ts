/**
 * Leak check: N navigate + snapshot + evaluate cycles against one server, with
 * the server's heap measured after forced GC (node --expose-gc) after a
 * warm-up and at the end, plus CDP sessions, listeners and Chrome targets.
 * Used by scripts/soak.ts (300 cycles) and by a short test.
 */
import {FixtureServer} from './fixtureServer.js';
import {startServer, type TestServer} from './mcpClient.js';

export interface HeapReport {
  heapUsed: number;
  rss: number;
  pages: number;
  targets: number;
  sessions: number;
  pending: number;
  listeners: number;
}

/** Asks a server started with CDP_MCP_HEAP_REPORT=1 for its heap, targets and CDP bookkeeping. */
export async function heapReport(mcp: TestServer): Promise<HeapReport> {
  const before = mcp.stderr().length;
  process.kill(mcp.pid ?? 0, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    const tail = mcp.stderr().slice(before);
    const m = /HEAP_REPORT (\{.*\})/.exec(tail);
    if (m?.[1]) {
      return JSON.parse(m[1]) as HeapReport;
    }
    await new Promise(resolve => setTimeout(resolve, 25));
  }
  throw new Error('the server did not report its heap (is CDP_MCP_HEAP_REPORT=1 set?)');
}

export interface SoakResult {
  cycles: number;
  warmup: number;
  seconds: number;
  withSnapshot: boolean;
  base: HeapReport;
  end: HeapReport;
  /** Heap growth after GC between the warm-up and the end, in percent. */
  growth: number;
  /** What accumulated; empty when nothing did. */
  leaks: string[];
  lines: string[];
}

export async function soak(cycles: number, maxGrowth: number): Promise<SoakResult> {
  const fixtures = await new FixtureServer().start();
  const rows = Array.from(
    {length: 200},
    (_, i) => `<li><button id="b${i}">Item ${i}</button> <a href="/p${i % 5}">link ${i}</a></li>`,
  ).join('');
  for (let i = 0; i < 5; i++) {
    fixtures.html(
      `/p${i}`,
      `<title>Page ${i}</title><main><h1>Page ${i}</h1><input placeholder="q"><ul>${rows}</ul></main><script>console.log("page ${i}"); fetch("/p${(i + 1) % 5}")</script>`,
    );
  }
  const mcp = await startServer({
    nodeArgs: ['--expose-gc'],
    env: {CDP_MCP_HEAP_REPORT: '1'},
    args: ['--no-page-id-routing'],
  });
  const tools = new Set((await mcp.client.listTools()).tools.map(t => t.name));
  const hasSnapshot = tools.has('take_snapshot');
  const cycle = async (i: number) => {
    const nav = await mcp.call('navigate_page', {url: fixtures.url(`/p${i % 5}`)});
    if (nav.isError) {
      throw new Error(`navigate failed: ${nav.text}`);
    }
    if (hasSnapshot) {
      const snap = await mcp.call('take_snapshot', {});
      if (snap.isError) {
        throw new Error(`snapshot failed: ${snap.text}`);
      }
    }
    const ev = await mcp.call('evaluate_script', {function: '() => document.querySelectorAll("button").length'});
    if (!/200/.test(ev.text)) {
      throw new Error(`evaluate failed: ${ev.text}`);
    }
  };
  const warmup = Math.min(30, Math.floor(cycles / 10));
  const started = Date.now();
  for (let i = 0; i < warmup; i++) {
    await cycle(i);
  }
  const base = await heapReport(mcp);
  for (let i = warmup; i < cycles; i++) {
    await cycle(i);
  }
  const end = await heapReport(mcp);
  await mcp.close();
  await fixtures.stop();
  const growth = ((end.heapUsed - base.heapUsed) / base.heapUsed) * 100;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const seconds = (Date.now() - started) / 1000;
  const lines = [
    `cycles: ${cycles} (navigate${hasSnapshot ? ' + take_snapshot' : ''} + evaluate_script), ${seconds.toFixed(1)} s`,
    `heap after GC: ${mb(base.heapUsed)} after ${warmup} warm-up cycles -> ${mb(end.heapUsed)} at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)`,
    `rss: ${mb(base.rss)} -> ${mb(end.rss)}`,
    `Chrome targets ${base.targets} -> ${end.targets}, pages ${base.pages} -> ${end.pages}, CDP sessions ${base.sessions} -> ${end.sessions}, listeners ${base.listeners} -> ${end.listeners}, pending ${base.pending} -> ${end.pending}`,
  ];
  const leaks: string[] = [];
  if (growth > maxGrowth) {
    leaks.push(`heap grew ${growth.toFixed(1)}% (limit ${maxGrowth}%)`);
  }
  if (
    end.sessions > base.sessions ||
    end.listeners > base.listeners ||
    end.pages > base.pages ||
    end.targets > base.targets
  ) {
    leaks.push('targets, sessions, listeners or pages accumulated');
  }
  return {cycles, warmup, seconds, withSnapshot: hasSnapshot, base, end, growth, leaks, lines};
}
