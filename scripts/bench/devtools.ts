/**
 * Benchmark of the DevTools-depth tools, ours vs chrome-devtools-mcp 1.11.0 (the pinned
 * devDependency, run with core-js preloaded as its DevTools code needs on Node 20), in the
 * same run: both servers up side by side, calls alternating ours/theirs, medians reported.
 *
 *   npm run bench-devtools -- [--iterations N] [--out PATH]
 *
 * Rows: lighthouse_audit in both modes and on both devices (wall time of the call and
 * Lighthouse's own "Total timing"), the first audit of a server (bundle load included), and
 * whether the two servers printed the same text (paths, timings and our reload note aside).
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

import {FixtureServer} from '../../test/support/fixtureServer.js';
import {referenceBin} from '../../test/support/oracle.js';
import type {Side} from './report.js';
import {chromeArgs, log, SERVER_ENV, type ServerSpec, Session} from './session.js';
import {stats} from './sys.js';

const HELP = `Usage: npm run bench-devtools -- [flags]
  --iterations N   measured calls per row and server, after one warm-up each (default 5)
  --chrome PATH    Chrome executable (default /usr/bin/chromium)
  --out PATH       write PATH.json and PATH.md (default .bench/devtools)`;

const SHOP = `<!doctype html><html><head><title>Shop</title>
<link rel="stylesheet" href="/slow.css"></head><body>
<h1 class="hero">Big sale</h1><img src="/img.svg" width="600" height="300"><button>Buy</button>
<script>window.things = Array.from({length: 5000}, (_, i) => ({i, s: 'x' + i}));</script>
</body></html>`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300"/></svg>';

interface Row {
  scenario: string;
  ours?: number;
  theirs?: number;
  notes: string[];
}

function options(argv: string[]) {
  const o = {iterations: 5, chrome: '/usr/bin/chromium', out: path.resolve('.bench/devtools')};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? '').split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--iterations') {
      o.iterations = Math.max(1, Number(value()));
    } else if (flag === '--chrome') {
      o.chrome = value();
    } else if (flag === '--out') {
      o.out = path.resolve(value());
    } else {
      process.stderr.write(`${HELP}\n`);
      process.exit(flag === '--help' ? 0 : 2);
    }
  }
  return o;
}

/** The printed audit without what differs by nature: report paths, timings, our reload note. */
function comparable(text: string): string {
  return text
    .split('\n')
    .filter(line => !/^- \/.*report\.(json|html)$/.test(line) && !line.startsWith('Lighthouse reloaded the page'))
    .map(line => line.replace(/^Total timing: .*/, 'Total timing: <t>').replace(/127\.0\.0\.1:\d+/g, 'HOST'))
    .join('\n');
}

const lighthouseTiming = (text: string) => Number(/\nTotal timing: ([\d.]+)ms/.exec(text)?.[1] ?? NaN);

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const fixtures = await new FixtureServer().start();
  fixtures.html('/', SHOP);
  fixtures.route('/img.svg', {body: SVG, headers: {'content-type': 'image/svg+xml'}});
  fixtures.route('/slow.css', {body: '.hero{color:#c00}', headers: {'content-type': 'text/css'}, delayMs: 300});
  const coreJs = createRequire(import.meta.url).resolve('core-js/actual/index.js');
  const args = [...chromeArgs(o.chrome, '1280x720'), '--no-page-id-routing'];
  const specs: ServerSpec[] = [
    {
      side: 'ours',
      command: process.execPath,
      args: [path.resolve('build/src/bin/cdp-mcp.js'), ...args, '--maxOutputChars', '0'],
      env: env(),
    },
    {
      side: 'theirs',
      command: process.execPath,
      args: [referenceBin(), ...args, '--no-usage-statistics', '--no-performance-crux'],
      env: {...env(), ...SERVER_ENV, NODE_OPTIONS: `--require ${coreJs}`},
    },
  ];
  const sessions = new Map<Side, Session>();
  const rows: Row[] = [];
  try {
    for (const spec of specs) {
      sessions.set(spec.side, (await Session.start(spec, 180_000)).s);
    }
    const both = [...sessions.entries()];
    for (const [, s] of both) {
      await s.call('navigate_page', {type: 'url', url: fixtures.url('/')});
    }
    const first: Partial<Record<Side, number>> = {};
    for (const [side, s] of both) {
      const r = await s.call('lighthouse_audit', {mode: 'snapshot'});
      first[side] = r.ms;
      if (!r.ok) {
        log(`${side} first audit failed: ${r.error}`);
      }
    }
    rows.push({
      scenario: 'first lighthouse_audit of a server (snapshot, desktop; loads Lighthouse)',
      ...first,
      notes: [],
    });
    for (const mode of ['navigation', 'snapshot'] as const) {
      for (const device of ['desktop', 'mobile'] as const) {
        const wall: Partial<Record<Side, number[]>> = {};
        const lh: Partial<Record<Side, number[]>> = {};
        const texts: Partial<Record<Side, string>> = {};
        for (let i = 0; i <= o.iterations; i++) {
          for (const [side, s] of i % 2 ? both : [...both].reverse()) {
            const r = await s.call('lighthouse_audit', {mode, device});
            if (!r.ok) {
              log(`${side} ${mode}/${device} failed: ${r.error}`);
              continue;
            }
            texts[side] = comparable(r.text);
            if (i > 0) {
              (wall[side] ??= []).push(r.ms);
              (lh[side] ??= []).push(lighthouseTiming(r.text));
            }
          }
        }
        const same = texts.ours !== undefined && texts.ours === texts.theirs;
        const notes = [same ? 'same text' : 'TEXT DIFFERS', `n=${o.iterations}`];
        rows.push({
          scenario: `lighthouse_audit (${mode}, ${device}) wall ms`,
          ours: stats(wall.ours ?? [])?.median,
          theirs: stats(wall.theirs ?? [])?.median,
          notes,
        });
        rows.push({
          scenario: `lighthouse_audit (${mode}, ${device}) Lighthouse "Total timing" ms`,
          ours: stats(lh.ours ?? [])?.median,
          theirs: stats(lh.theirs ?? [])?.median,
          notes: [],
        });
        if (!same) {
          log(`ours:\n${texts.ours}\ntheirs:\n${texts.theirs}`);
        }
        log(`${mode}/${device} done`);
      }
    }
  } finally {
    for (const s of sessions.values()) {
      await s.close();
    }
    await fixtures.stop();
  }
  const ratio = (r: Row) => (r.ours && r.theirs ? (r.ours / r.theirs).toFixed(2) : 'n/a');
  const md = [
    '| scenario | ours | chrome-devtools-mcp | ours/theirs | notes |',
    '| --- | ---: | ---: | ---: | --- |',
    ...rows.map(
      r =>
        `| ${r.scenario} | ${r.ours?.toFixed(0) ?? 'n/a'} | ${r.theirs?.toFixed(0) ?? 'n/a'} | ${ratio(r)} | ${r.notes.join('; ')} |`,
    ),
  ].join('\n');
  mkdirSync(path.dirname(o.out), {recursive: true});
  writeFileSync(`${o.out}.json`, JSON.stringify({date: new Date().toISOString(), rows}, null, 2));
  writeFileSync(`${o.out}.md`, `${md}\n`);
  process.stdout.write(`${md}\n`);
}

function env(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

await main();
