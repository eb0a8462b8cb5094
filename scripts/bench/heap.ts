/**
 * Heap snapshot benchmark: our memory tools against chrome-devtools-mcp 1.11
 * (core-js preloaded, as its analysis needs on Node 20), in the same run, on
 * the same snapshot files. For a small (about 7 MB) and a large (150 MB or
 * more) snapshot made by a page that allocates: take, then load + summary,
 * details, and compare of two snapshots, with the wall time of each call and
 * the peak RSS of the server process and (ours) of the heap host process that
 * holds the snapshots. chrome-devtools-mcp keeps its heap workers in its own
 * process, so its server RSS includes them.
 *
 * Usage: npm run bench:heap [-- --runs 3 --large-objects 500000 --small-objects 15000 --only small|large]
 * Not part of npm test.
 */
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';

import {FixtureServer} from '../../test/support/fixtureServer.js';
import {allocatingPage} from '../../test/support/heapFixtures.js';
import {CHROME_PATH, startServer, type TestServer} from '../../test/support/mcpClient.js';
import {requireTestDep} from '../../test/support/testDeps.js';
import {cmdline, descendants, stats, statusKb} from './sys.js';

const require = createRequire(import.meta.url);
const CDM_BIN = path.join(
  path.dirname(requireTestDep.resolve('chrome-devtools-mcp/package.json')),
  'build/src/bin/chrome-devtools-mcp.js',
);
const CORE_JS = require.resolve('core-js/actual/index.js');
const SAMPLE_MS = 100;
/** Linux clock ticks per second (/proc/<pid>/stat times). */
const CLOCK_TICKS = 100;
/** Extra objects the page allocates between the two snapshots of a size. */
const GROWTH_FRACTION = 0.05;

type Side = 'ours' | 'cdm';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const RUNS = option('runs', 3);
const log = (message: string) => process.stderr.write(`[bench:heap ${process.uptime().toFixed(0)}s] ${message}\n`);

async function start(side: Side): Promise<TestServer> {
  const common = [
    '--headless',
    '--isolated',
    '--chromeArg=--no-sandbox',
    '--chromeArg=--disable-gpu',
    '--no-page-id-routing',
    '--memoryDebugging',
  ];
  return side === 'ours'
    ? startServer({args: ['--no-page-id-routing', '--memoryDebugging', '--maxOutputChars', '0']})
    : startServer({
        bin: CDM_BIN,
        replaceFlags: true,
        args: ['--executablePath', CHROME_PATH, ...common, '--no-usage-statistics', '--no-performance-crux'],
        env: {NODE_OPTIONS: `--require ${CORE_JS}`, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'},
      });
}

/** CPU seconds (user + system) used so far by a process and its live descendants (Chrome, the heap host). */
function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid).map(d => d.pid)]) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / CLOCK_TICKS;
}

/** Peak RSS (kB) of the server process and of its heap host, sampled while work runs. */
class RssSampler {
  server = 0;
  host = 0;
  readonly #timer: NodeJS.Timeout;
  constructor(readonly pid: number) {
    this.#timer = setInterval(() => this.sample(), SAMPLE_MS);
  }
  sample(): void {
    this.server = Math.max(this.server, statusKb(this.pid, 'VmRSS'));
    for (const child of descendants(this.pid)) {
      if (cmdline(child.pid).some(arg => arg.endsWith('devtools/heap/host.js'))) {
        this.host = Math.max(this.host, statusKb(child.pid, 'VmRSS'), statusKb(child.pid, 'VmHWM'));
      }
    }
  }
  stop(): void {
    this.sample();
    clearInterval(this.#timer);
  }
}

async function timed(server: TestServer, tool: string, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = await server.client.callTool({name: tool, arguments: args}, undefined, {timeout: 1_800_000});
  if (result.isError) {
    const text = (result.content as Array<{text?: string}>)[0]?.text ?? '';
    throw new Error(`${tool} failed: ${text.slice(0, 300)}`);
  }
  return performance.now() - started;
}

interface Run {
  take: number;
  /** CPU seconds of the server, Chrome and the heap host: wall times on a busy machine say little. */
  takeCpu: number;
  analysisCpu: number;
  /** Server RSS growth while the snapshot streamed to disk. */
  takeGrowthMb: number;
  load: number;
  details: number;
  compare: number;
  serverRssMb: number;
  serverGrowthMb: number;
  hostRssMb: number;
  afterCloseMb: number;
}

async function makeSnapshots(fixtures: FixtureServer, objects: number, dir: string, label: string) {
  const server = await start('ours');
  try {
    const url = fixtures.html(`/${label}`, allocatingPage(objects));
    await server.call('navigate_page', {url});
    const base = path.join(dir, `${label}-base.heapsnapshot`);
    const current = path.join(dir, `${label}-current.heapsnapshot`);
    await timed(server, 'take_heapsnapshot', {filePath: base});
    const more = Math.round(objects * GROWTH_FRACTION);
    await server.call('evaluate_script', {
      function: `() => { for (let i = 0; i < ${more}; i++) window.big.push({id: -i, name: 'm' + i, tags: [i]}); }`,
    });
    await timed(server, 'take_heapsnapshot', {filePath: current});
    return {base, current, url};
  } finally {
    await server.close();
  }
}

async function runOnce(side: Side, files: {base: string; current: string; url: string}): Promise<Run> {
  const server = await start(side);
  try {
    // The browser starts on the first call: keep it out of the figures.
    await server.call('navigate_page', {url: files.url});
    const pid = server.pid ?? 0;
    const beforeTake = statusKb(pid, 'VmRSS');
    const taking = new RssSampler(pid);
    const cpu0 = treeCpuSeconds(pid);
    const take = await timed(server, 'take_heapsnapshot', {
      filePath: path.join(path.dirname(files.base), `take-${side}`),
    });
    const cpu1 = treeCpuSeconds(pid);
    taking.stop();
    const before = statusKb(pid, 'VmRSS');
    const sampler = new RssSampler(pid);
    const cpu2 = treeCpuSeconds(pid);
    const load = await timed(server, 'get_heapsnapshot_summary', {filePath: files.base});
    const details = await timed(server, 'get_heapsnapshot_details', {filePath: files.base, pageSize: 20});
    await timed(server, 'get_heapsnapshot_summary', {filePath: files.current});
    const compare = await timed(server, 'compare_heapsnapshots', {
      baseFilePath: files.base,
      currentFilePath: files.current,
      pageSize: 20,
    });
    sampler.stop();
    const cpu3 = treeCpuSeconds(pid);
    await timed(server, 'close_heapsnapshot', {filePath: files.base});
    await timed(server, 'close_heapsnapshot', {filePath: files.current});
    await new Promise(resolve => setTimeout(resolve, 1_000));
    const afterClose = statusKb(pid, 'VmRSS');
    return {
      take,
      takeGrowthMb: (taking.server - beforeTake) / 1024,
      takeCpu: cpu1 - cpu0,
      analysisCpu: cpu3 - cpu2,
      load,
      details,
      compare,
      serverRssMb: sampler.server / 1024,
      serverGrowthMb: (sampler.server - before) / 1024,
      hostRssMb: sampler.host / 1024,
      afterCloseMb: afterClose / 1024,
    };
  } finally {
    await server.close();
  }
}

const median = (xs: number[]) => stats(xs)?.median ?? NaN;

function report(label: string, sizeMb: number, runs: Record<Side, Run[]>): string[] {
  const row = (name: string, pick: (r: Run) => number, unit: string, digits = 0) => {
    const [o, c] = [median(runs.ours.map(pick)), median(runs.cdm.map(pick))];
    const ratio = c > 0 && o > 0 ? `${(o / c).toFixed(2)}×` : '–';
    return `| ${name} | ${o.toFixed(digits)} ${unit} | ${c.toFixed(digits)} ${unit} | ${ratio} |`;
  };
  return [
    `### ${label}: ${sizeMb.toFixed(0)} MB snapshot (medians of ${runs.ours.length} runs)`,
    '',
    '| | ours | chrome-devtools-mcp | ours / theirs |',
    '| --- | --- | --- | --- |',
    row('take_heapsnapshot', r => r.take, 'ms'),
    row('take_heapsnapshot, CPU (server + Chrome)', r => r.takeCpu, 's', 1),
    row('server RSS growth while taking', r => r.takeGrowthMb, 'MB'),
    row('load + summary', r => r.load, 'ms'),
    row('details', r => r.details, 'ms'),
    row('compare (both already loaded; with our leak verdict)', r => r.compare, 'ms'),
    row('CPU of the four analysis calls (server + host + Chrome)', r => r.analysisCpu, 's', 1),
    row('server process peak RSS', r => r.serverRssMb, 'MB'),
    row('server process RSS growth', r => r.serverGrowthMb, 'MB'),
    `| heap host process peak RSS | ${median(runs.ours.map(r => r.hostRssMb)).toFixed(0)} MB | (in the server process) | |`,
    row('server RSS after closing both', r => r.afterCloseMb, 'MB'),
    '',
  ];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdp-mcp-bench-heap-'));
  const fixtures = await new FixtureServer().start();
  const out: string[] = [];
  try {
    const sizes = [
      {label: 'small', objects: option('small-objects', 15_000)},
      {label: 'large', objects: option('large-objects', 500_000)},
    ].filter(s => !only || s.label === only);
    for (const size of sizes) {
      log(`taking the ${size.label} snapshots (${size.objects} objects)`);
      const files = await makeSnapshots(fixtures, size.objects, dir, size.label);
      const sizeMb = statSync(files.base).size / 1e6;
      log(`${size.label}: ${sizeMb.toFixed(1)} MB`);
      const runs: Record<Side, Run[]> = {ours: [], cdm: []};
      for (let i = 0; i < RUNS; i++) {
        // Alternate who goes first, so machine load drifts hit both alike.
        for (const side of (i % 2 ? ['cdm', 'ours'] : ['ours', 'cdm']) as Side[]) {
          log(`${size.label} run ${i + 1}/${RUNS}: ${side}`);
          runs[side].push(await runOnce(side, files));
          log(JSON.stringify(runs[side].at(-1)));
        }
      }
      out.push(...report(size.label, sizeMb, runs));
    }
  } finally {
    await fixtures.stop();
    rmSync(dir, {recursive: true, force: true});
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
