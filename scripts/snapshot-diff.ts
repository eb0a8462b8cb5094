/**
 * Prints how our take_snapshot differs from chrome-devtools-mcp 1.11's on pages, for iterating:
 *
 *   npm run snapshot-diff -- <url | construct:NAME | --constructs>... [--verbose | --both] [--steps]
 *                            [--arg=<server flag>]... [--env=K=V]... [--print] [--times N]
 *
 * construct:NAME serves that construct page (test/support/constructs) from a local fixture server,
 * --constructs all of them; --steps also compares after each of the construct's interactions.
 * --env sets a variable for our server only (e.g. --env=CDP_MCP_SNAPSHOT_ENGINE=ax).
 * --verbose compares verbose snapshots, --both compares both modes; --arg passes a flag to both
 * servers (e.g. --arg=--chromeArg=--site-per-process); --print also prints both normalised trees;
 * --times N takes N snapshots per side and prints median times. Exit code 1 when any page differs.
 */
import {performance} from 'node:perf_hooks';

import {type Construct, CONSTRUCTS, constructUrl, serveConstructs} from '../test/support/constructs/index.js';
import {FixtureServer} from '../test/support/fixtureServer.js';
import {
  callBoth,
  compareSnapshots,
  interactBoth,
  navigateBoth,
  type OraclePair,
  snapshotOf,
  startOraclePair,
} from '../test/support/oracle.js';

const HELP = `Usage: npm run snapshot-diff -- <url | construct:NAME | --constructs>... [--verbose | --both] [--steps]
       [--arg=FLAG]... [--env=K=V]... [--print] [--times N]`;

interface Options {
  urls: string[];
  constructs: Construct[];
  steps: boolean;
  env: Record<string, string>;
  modes: boolean[];
  args: string[];
  print: boolean;
  times: number;
}

function parse(argv: string[]): Options {
  const o: Options = {
    urls: [],
    constructs: [],
    steps: false,
    env: {},
    modes: [false],
    args: [],
    print: false,
    times: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--verbose') {
      o.modes = [true];
    } else if (arg === '--both') {
      o.modes = [false, true];
    } else if (arg === '--print') {
      o.print = true;
    } else if (arg === '--steps') {
      o.steps = true;
    } else if (arg === '--constructs') {
      o.constructs.push(...CONSTRUCTS);
    } else if (arg.startsWith('construct:')) {
      const construct = CONSTRUCTS.find(c => c.name === arg.slice('construct:'.length));
      if (!construct) {
        throw new Error(`No construct "${arg}". Known: ${CONSTRUCTS.map(c => c.name).join(', ')}`);
      }
      o.constructs.push(construct);
    } else if (arg.startsWith('--env=')) {
      const [key, ...value] = arg.slice('--env='.length).split('=');
      o.env[key ?? ''] = value.join('=');
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
  if (o.urls.length === 0 && o.constructs.length === 0) {
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

async function compare(pair: OraclePair, o: Options, label: string): Promise<boolean> {
  let same = true;
  for (const verbose of o.modes) {
    const mode = verbose ? 'verbose' : 'non-verbose';
    const {ours, theirs, diff} = await compareSnapshots(pair, {verbose});
    const lines = theirs.split('\n').length - 1;
    console.log(`\n=== ${label} (${mode}): ${diff.length === 0 ? 'identical' : 'DIFFERENT'}, ${lines} lines`);
    if (o.print) {
      console.log(`--- ours\n${ours}--- theirs\n${theirs}`);
    }
    if (diff.length > 0) {
      same = false;
      console.log(diff.join('\n'));
    }
    if (o.times > 0) {
      console.log(await timeSnapshots(pair, verbose, o.times));
    }
  }
  return same;
}

async function main(): Promise<number> {
  const o = parse(process.argv.slice(2));
  const fixtures = o.constructs.length > 0 ? await new FixtureServer().start() : undefined;
  if (fixtures) {
    serveConstructs(fixtures);
  }
  const pair = await startOraclePair({args: o.args, env: o.env});
  let differing = 0;
  try {
    for (const url of o.urls) {
      await navigateBoth(pair, url);
      differing += (await compare(pair, o, url)) ? 0 : 1;
    }
    for (const construct of o.constructs) {
      await navigateBoth(pair, constructUrl(fixtures!, construct));
      if (construct.ready) {
        await callBoth(pair, 'wait_for', {text: [construct.ready]});
      }
      differing += (await compare(pair, o, construct.name)) ? 0 : 1;
      for (const step of o.steps ? (construct.steps ?? []) : []) {
        if (step.target) {
          await interactBoth(pair, step.tool, step.target, step.args, step.uidParam);
        } else {
          await callBoth(pair, step.tool, step.args);
        }
        differing += (await compare(pair, o, `${construct.name} after "${step.title}"`)) ? 0 : 1;
      }
    }
  } finally {
    await pair.close();
    await fixtures?.stop();
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
