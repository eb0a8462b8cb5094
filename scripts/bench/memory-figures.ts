/**
 * Server memory on the bench's heaviest run (8 snapshots of a 5000-element
 * page), plain `node` (the bin sizes its own heap: src/bin/heapTuning.ts)
 * against V8's defaults (a heap flag given to node, here V8's default growth
 * factor, makes the bin leave its heap alone): peak and final RSS of the
 * server process and the median take_snapshot time, medians over alternating
 * runs. Usage: `npm run memory-figures [-- --runs N --entry dist/cdp-mcp.js]`
 * (default entry: the compiled build).
 */
import path from 'node:path';
import {performance} from 'node:perf_hooks';

import {buttonsPage} from '../../test/support/fixtures.js';
import {FixtureServer} from '../../test/support/fixtureServer.js';
import {startServer} from '../../test/support/mcpClient.js';
import {statusKb} from './sys.js';

const SNAPSHOTS = 8;
const VARIANTS: Record<string, string[]> = {
  'node (the bin tunes its heap)': [],
  'node --semi-space-growth-factor=2 (V8 defaults)': ['--semi-space-growth-factor=2'],
};

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Sample {
  peakMb: number;
  finalMb: number;
  snapshotMs: number;
}

async function measure(entry: string, nodeArgs: string[], url: string): Promise<Sample> {
  const server = await startServer({bin: entry, nodeArgs, args: ['--viewport', '1280x720']});
  try {
    const pid = server.pid ?? 0;
    await server.call('navigate_page', {pageId: 1, url});
    const times: number[] = [];
    for (let i = 0; i < SNAPSHOTS; i++) {
      const started = performance.now();
      await server.call('take_snapshot', {pageId: 1});
      times.push(performance.now() - started);
    }
    return {peakMb: statusKb(pid, 'VmHWM') / 1024, finalMb: statusKb(pid, 'VmRSS') / 1024, snapshotMs: median(times)};
  } finally {
    await server.close();
  }
}

const runs = Number(option('--runs', '3'));
const entry = path.resolve(option('--entry', path.join(import.meta.dirname, '../../src/bin/cdp-mcp.js')));
const fixtures = await new FixtureServer().start();
fixtures.route('/buttons', {body: buttonsPage(5000)});
const samples = Object.fromEntries(Object.keys(VARIANTS).map(name => [name, [] as Sample[]]));
for (let run = 0; run < runs; run++) {
  const names = run % 2 ? Object.keys(VARIANTS).reverse() : Object.keys(VARIANTS);
  for (const name of names) {
    samples[name]?.push(await measure(entry, VARIANTS[name] ?? [], fixtures.url('/buttons')));
  }
}
await fixtures.stop();
console.log(`${path.relative(process.cwd(), entry)}: ${SNAPSHOTS} snapshots of 5000 elements, median of ${runs} runs`);
for (const [name, list] of Object.entries(samples)) {
  const peak = median(list.map(s => s.peakMb)).toFixed(1);
  const final = median(list.map(s => s.finalMb)).toFixed(1);
  const ms = median(list.map(s => s.snapshotMs)).toFixed(0);
  console.log(`  ${name}: peak RSS ${peak} MB, final RSS ${final} MB, take_snapshot ${ms} ms`);
}
