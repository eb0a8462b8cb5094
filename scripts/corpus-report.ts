/**
 * Runs every corpus page on our server and on chrome-devtools-mcp 1.11 and
 * prints a table: snapshot lines, differing lines (non-verbose / verbose,
 * after load and after every step), whether the scripted task passed on ours,
 * and each server's median take_snapshot time; then the task table: the
 * agent's task done again on each server alone (one after the other, so they
 * do not compete for the cores), pass or fail and wall time.
 *
 *   npm run corpus-report                 # the table
 *   npm run corpus-report -- --page quill # one page, with its diffs
 *   npm run corpus-report -- --show       # also print both snapshots
 *   npm run corpus-report -- --docs       # rewrite docs/corpus.md with the figures
 */
import {writeFileSync} from 'node:fs';

import {type ComparisonPoint, CorpusComparison} from '../test/support/corpus/compare.js';
import {CORPUS, type CorpusPage} from '../test/support/corpus/index.js';
import {
  changedLines,
  CORPUS_ARGS,
  corpusDoc,
  corpusTable,
  type PageFigures,
  taskTable,
  withoutUids,
} from '../test/support/corpus/report.js';
import {checkTask, openCorpusPage, runStep, runTask, serveCorpus} from '../test/support/corpus/runner.js';
import {FixtureServer} from '../test/support/fixtureServer.js';
import {diffLines, type OraclePair, startOraclePair} from '../test/support/oracle.js';

const argv = process.argv.slice(2);
const only = argv.includes('--page') ? argv[argv.indexOf('--page') + 1] : undefined;
const show = argv.includes('--show');
const docs = argv.includes('--docs');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] ?? 0) : 0;
};

const tag = (side: string) => (error: unknown) => {
  throw new Error(`[${side}] ${error instanceof Error ? error.message : String(error)}`);
};

async function runPage(pair: OraclePair, fixtures: FixtureServer, page: CorpusPage): Promise<PageFigures> {
  const figures: PageFigures = {
    page,
    lines: 0,
    diffs: [0, 0],
    contentDiffs: [0, 0],
    task: 'not run',
    ours: [],
    theirs: [],
    details: [],
  };
  const comparison = new CorpusComparison(pair, true);
  const record = async (when: string): Promise<ComparisonPoint> => {
    const point = await comparison.compare();
    figures.ours.push(point.oursMs);
    figures.theirs.push(point.theirsMs);
    for (const [verbose, {ours, theirs, diff}] of [
      [false, point.nonVerbose],
      [true, point.verbose],
    ] as const) {
      if (!verbose && figures.lines === 0) {
        figures.lines = theirs.split('\n').length;
      }
      figures.diffs[verbose ? 1 : 0] += changedLines(diff);
      // Details show content differences (uids left out): those are what the engine must fix first.
      const content = diffLines(withoutUids(ours), withoutUids(theirs));
      figures.contentDiffs[verbose ? 1 : 0] += changedLines(content);
      if (content.length) {
        figures.details.push(
          `  ${when} (${verbose ? 'verbose' : 'non-verbose'}): ${changedLines(content)} lines`,
          ...content,
        );
      }
      if (show) {
        console.log(`==== ${page.id} ${when} ${verbose ? 'verbose' : ''} OURS\n${ours}\n==== THEIRS\n${theirs}`);
      }
    }
    return point;
  };
  try {
    await Promise.all([
      openCorpusPage(pair.ours, fixtures, page).catch(tag('ours')),
      openCorpusPage(pair.theirs, fixtures, page).catch(tag('theirs')),
    ]);
    let point = await record('after load');
    for (const step of page.steps) {
      // Each server acts on the elements its own latest snapshot names.
      // A step the reference gets wrong is replaced on its side (see CorpusStep.referenceInstead).
      await Promise.all([
        runStep(pair.ours, point.oursText, step).catch(tag('ours')),
        runStep(pair.theirs, point.theirsText, step.referenceInstead?.step ?? step).catch(tag('theirs')),
      ]);
      point = await record(`after "${step.label}"`);
    }
    const value = await checkTask(pair.ours, page);
    figures.task =
      JSON.stringify(value) === JSON.stringify(page.task.expect) ? 'pass' : `FAIL: ${JSON.stringify(value)}`;
  } catch (error) {
    figures.task = `ERROR: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
  }
  return figures;
}

async function main(): Promise<void> {
  const pages = CORPUS.filter(p => !only || only.split(',').includes(p.id));
  const fixtures = await new FixtureServer().start();
  await serveCorpus(fixtures, CORPUS);
  const pair = await startOraclePair({args: CORPUS_ARGS});
  const results: PageFigures[] = [];
  try {
    for (const page of pages) {
      const figures = await runPage(pair, fixtures, page);
      figures.tasks = {
        ours: await runTask(pair.ours, fixtures, page),
        theirs: await runTask(pair.theirs, fixtures, page),
      };
      results.push(figures);
      process.stderr.write(
        `${page.id}: ${figures.contentDiffs.join('/')} content diffs (${figures.diffs.join('/')} with uids), task ${figures.task}\n`,
      );
      if (only || show) {
        console.log(figures.details.join('\n'));
      }
    }
  } finally {
    await pair.close();
    await fixtures.stop();
  }
  const table = `${corpusTable(results, median)}\n\n${taskTable(results)}`;
  console.log(table);
  if (docs) {
    writeFileSync('docs/corpus.md', corpusDoc(CORPUS, table));
  }
}

await main();
