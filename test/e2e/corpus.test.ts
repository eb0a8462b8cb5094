/**
 * The oracle test of issue 9: on every page of the real-app corpus, our
 * take_snapshot must equal chrome-devtools-mcp 1.11's line for line (uids and
 * ports aside), non-verbose and verbose, after load and after every scripted
 * interaction. Each server acts on the elements its own snapshot names.
 * `npm run corpus-report` prints the same comparison as a table.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {CORPUS} from '../../src/testing/corpus/index.js';
import {changedLines, CORPUS_ARGS} from '../../src/testing/corpus/report.js';
import {openCorpusPage, runStep, serveCorpus, snapshot} from '../../src/testing/corpus/runner.js';
import {FixtureServer} from '../../src/testing/fixtureServer.js';
import {compareSnapshots, type OraclePair, startOraclePair} from '../../src/testing/oracle.js';

/** Differing lines shown in a failure message. */
const SHOWN_DIFF_LINES = 60;

describe('corpus: take_snapshot equals chrome-devtools-mcp on real apps', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;

  before(async () => {
    fixtures = await new FixtureServer().start();
    await serveCorpus(fixtures, CORPUS);
    pair = await startOraclePair({args: CORPUS_ARGS});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  const assertSameSnapshots = async (page: string, when: string) => {
    const failures: string[] = [];
    for (const verbose of [false, true]) {
      const {diff} = await compareSnapshots(pair, {verbose});
      if (diff.length) {
        failures.push(
          `${verbose ? 'verbose' : 'non-verbose'}: ${changedLines(diff)} differing lines`,
          ...diff.slice(0, SHOWN_DIFF_LINES),
        );
      }
    }
    assert.deepEqual(failures, [], `${page} ${when}: our snapshot differs from chrome-devtools-mcp's`);
  };

  for (const page of CORPUS) {
    describe(`${page.id}: ${page.constructs.join(', ')}`, () => {
      it('after load', async () => {
        await Promise.all([openCorpusPage(pair.ours, fixtures, page), openCorpusPage(pair.theirs, fixtures, page)]);
        await assertSameSnapshots(page.id, 'after load');
      });
      for (const step of page.steps) {
        it(`after "${step.label}" (${step.tool})`, async () => {
          const [ours, theirs] = await Promise.all([snapshot(pair.ours), snapshot(pair.theirs)]);
          await Promise.all([runStep(pair.ours, ours, step), runStep(pair.theirs, theirs, step)]);
          await assertSameSnapshots(page.id, `after "${step.label}"`);
        });
      }
    });
  }
});
