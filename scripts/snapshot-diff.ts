/**
 * Prints how our take_snapshot differs from chrome-devtools-mcp 1.11's on pages, for iterating:
 *
 *   npm run snapshot-diff -- <url...> [--verbose | --both] [--arg=<server flag>]... [--print] [--times N]
 *
 * --verbose compares verbose snapshots, --both compares both modes; --arg passes a flag to both
 * servers (e.g. --arg=--chromeArg=--site-per-process); --print also prints both normalised trees;
 * --times N takes N snapshots per side and prints median times. Exit code 1 when any page differs.
 */
import {performance} from 'node:perf_hooks';

import {compareSnapshots, navigateBoth, type OraclePair, snapshotOf, startOraclePair} from '../src/testing/oracle.js';

const HELP = `Usage: npm run snapshot-diff -- <url...> [--verbose | --both] [--arg=FLAG]... [--print] [--times N]`;

interface Options {
  urls: string[];
  modes: boolean[];
  args: string[];
  print: boolean;
  times: number;
}

function parse(argv: string[]): Options {
  const o: Options = {urls: [], modes: [false], args: [], print: false, times: 0};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--verbose') {
      o.modes = [true];
    } else if (arg === '--both') {
      o.modes = [false, true];
    } else if (arg === '--print') {
      o.print = true;
    } else if (arg.startsWith('--arg=')) {
      o.args.push(arg.slice('--arg='.length));
    } else if (arg === '--times') {
      o.times = Number(argv[++i]);
      if (!Number.isInteger(o.times) || o.times < 1) {
        throw new Error('--times takes a positive integer');
      }
    } else if (arg === '--help' || arg === '-h') {
      console.log(HELP);
      process.exit(0);
    } else if (/^https?:\/\/|^file:|^data:|^about:/.test(arg)) {
      o.urls.push(arg);
    } else {
      throw new Error(`Unknown argument "${arg}".\n${HELP}`);
    }
  }
  if (o.urls.length === 0) {
    throw new Error(`Give at least one URL.\n${HELP}`);
  }
  return o;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function timeSnapshots(pair: OraclePair, verbose: boolean, times: number): Promise<string> {
  const measure = async (side: 'ours' | 'theirs') => {
    const ms: number[] = [];
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      await snapshotOf(pair[side], verbose);
      ms.push(performance.now() - t0);
    }
    return median(ms);
  };
  // One side at a time: the machine is small and the two would slow each other down.
  const ours = await measure('ours');
  const theirs = await measure('theirs');
  return `median of ${times}: ours ${ours.toFixed(1)} ms, theirs ${theirs.toFixed(1)} ms (${(ours / theirs).toFixed(2)}x)`;
}

async function main(): Promise<number> {
  const o = parse(process.argv.slice(2));
  const pair = await startOraclePair({args: o.args});
  let differing = 0;
  try {
    for (const url of o.urls) {
      await navigateBoth(pair, url);
      for (const verbose of o.modes) {
        const mode = verbose ? 'verbose' : 'non-verbose';
        const {ours, theirs, diff} = await compareSnapshots(pair, {verbose});
        const lines = theirs.split('\n').length - 1;
        console.log(`\n=== ${url} (${mode}): ${diff.length === 0 ? 'identical' : 'DIFFERENT'}, ${lines} lines`);
        if (o.print) {
          console.log(`--- ours\n${ours}--- theirs\n${theirs}`);
        }
        if (diff.length > 0) {
          differing++;
          console.log(diff.join('\n'));
        }
        if (o.times > 0) {
          console.log(await timeSnapshots(pair, verbose, o.times));
        }
      }
    }
  } finally {
    await pair.close();
  }
  return differing > 0 ? 1 : 0;
}

main().then(
  code => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
