/**
 * take_snapshot on the real-app corpus with the snapshot cache
 * (src/snapshot/axCache.ts) on and off, against chrome-devtools-mcp 1.11:
 * three servers, each on its own Chrome, each doing every page's scripted
 * steps on its own page. At each point (after load, after each step) each
 * server takes, one server after the other (the order turns):
 *   changed   - the first plain snapshot (the page just changed: a read)
 *   unchanged - a second one right after (nothing changed: the cache's case)
 *   after verbose - a plain one right after a verbose one (untimed), as
 *               `npm run corpus-report` times it
 * Prints per page the medians (ms) and the ratios to the reference, then
 * the medians over the pages.
 *
 *   npm run bench:snapshot-cache                  # every page
 *   npm run bench:snapshot-cache -- --page a,b    # some pages
 */
import {CORPUS} from '../../test/support/corpus/index.js';
import {CORPUS_ARGS} from '../../test/support/corpus/report.js';
import {openCorpusPage, runStep, serveCorpus, snapshot} from '../../test/support/corpus/runner.js';
import {FixtureServer} from '../../test/support/fixtureServer.js';
import {startServer, TEST_FLAGS, type TestServer} from '../../test/support/mcpClient.js';
import {ORACLE_VIEWPORT, startOraclePair} from '../../test/support/oracle.js';

const argv = process.argv.slice(2);
const only = argv.includes('--page') ? argv[argv.indexOf('--page') + 1]?.split(',') : undefined;

const SIDES = ['on', 'off', 'theirs'] as const;
type Side = (typeof SIDES)[number];
const KINDS = ['changed', 'unchanged', 'afterVerbose'] as const;
type Kind = (typeof KINDS)[number];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] ?? 0) : NaN;
};

async function timed(server: TestServer): Promise<{text: string; ms: number}> {
  const started = performance.now();
  const text = await snapshot(server);
  return {text, ms: performance.now() - started};
}

type Figures = Record<Side, Record<Kind, number[]>>;

async function runPage(
  servers: Record<Side, TestServer>,
  fixtures: FixtureServer,
  page: (typeof CORPUS)[number],
  turn: {n: number},
): Promise<Figures> {
  const figures = Object.fromEntries(
    SIDES.map(s => [s, {changed: [], unchanged: [], afterVerbose: []}]),
  ) as unknown as Figures;
  const texts = {} as Record<Side, string>;
  const point = async () => {
    const order = [...SIDES.slice(turn.n % 3), ...SIDES.slice(0, turn.n % 3)];
    turn.n++;
    for (const side of order) {
      for (const kind of KINDS) {
        if (kind === 'afterVerbose') {
          await snapshot(servers[side], true);
        }
        const {text, ms} = await timed(servers[side]);
        figures[side][kind].push(ms);
        texts[side] = text;
      }
    }
  };
  await Promise.all(SIDES.map(side => openCorpusPage(servers[side], fixtures, page)));
  await point();
  for (const step of page.steps) {
    await Promise.all(
      SIDES.map(side =>
        runStep(servers[side], texts[side], side === 'theirs' ? (step.referenceInstead?.step ?? step) : step),
      ),
    );
    await point();
  }
  return figures;
}

async function main(): Promise<void> {
  const pages = CORPUS.filter(p => !only || only.includes(p.id));
  const fixtures = await new FixtureServer().start();
  await serveCorpus(fixtures, CORPUS);
  const pair = await startOraclePair({args: CORPUS_ARGS});
  const ourFlags = TEST_FLAGS.filter(flag => flag !== '--headless');
  const off = await startServer({
    replaceFlags: true,
    args: [...ourFlags, '--headless', `--viewport=${ORACLE_VIEWPORT}`, '--maxOutputChars', '0', ...CORPUS_ARGS],
    env: {CDP_MCP_SNAPSHOT_CACHE: 'off'},
  });
  const servers: Record<Side, TestServer> = {on: pair.ours, off, theirs: pair.theirs};
  const rows: string[] = [];
  const ratios: Record<string, number[]> = {};
  const turn = {n: 0};
  try {
    console.log(
      `| page | ${KINDS.map(k => `${k}: on / off / theirs ms`).join(' | ')} | ${KINDS.map(k => `${k} on/theirs`).join(' | ')} | ${KINDS.map(k => `${k} off/theirs`).join(' | ')} |`,
    );
    console.log(`|${' --- |'.repeat(1 + KINDS.length * 3)}`);
    for (const page of pages) {
      let figures: Figures;
      try {
        figures = await runPage(servers, fixtures, page, turn);
      } catch (error) {
        console.log(
          `| ${page.id} | ERROR ${(error instanceof Error ? error.message : String(error)).split('\n')[0]} |`,
        );
        continue;
      }
      const m = (side: Side, kind: Kind) => median(figures[side][kind]);
      const ratio = (key: string, a: number, b: number) => {
        (ratios[key] ??= []).push(a / b);
        return (a / b).toFixed(2);
      };
      const figuresOf = (kind: Kind) => SIDES.map(side => m(side, kind).toFixed(1)).join(' / ');
      const ratiosOf = (side: Side) =>
        KINDS.map(kind => ratio(`${kind} ${side}/theirs`, m(side, kind), m('theirs', kind))).join(' | ');
      const row = `| ${page.id} | ${KINDS.map(figuresOf).join(' | ')} | ${ratiosOf('on')} | ${ratiosOf('off')} |`;
      console.log(row);
      rows.push(row);
    }
  } finally {
    await Promise.all([pair.close(), off.close()]);
    await fixtures.stop();
  }
  console.log(
    `\nmedian over ${rows.length} pages: ${Object.entries(ratios)
      .map(([key, xs]) => `${key} ${median(xs).toFixed(2)}`)
      .join(', ')}`,
  );
}

await main();
