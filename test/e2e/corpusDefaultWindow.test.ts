/**
 * Issue 26: the real-app corpus once more, with both servers started without
 * `--viewport` (as most client configurations start them), so each lays pages
 * out in its default window: after load and after the first scripted step of
 * every page, our take_snapshot equals chrome-devtools-mcp's. A default
 * window that drifts from the reference's (responsive apps that show or hide
 * content by width, virtual lists that render what fits) fails here.
 * corpus.test.ts runs every step at the oracle's fixed 1280x720.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {assertSamePoint, type ComparisonPoint, CorpusComparison} from '../support/corpus/compare.js';
import {CORPUS} from '../support/corpus/index.js';
import {CORPUS_ARGS} from '../support/corpus/report.js';
import {openCorpusPage, runStep, serveCorpus} from '../support/corpus/runner.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

describe('corpus without --viewport: take_snapshot equals chrome-devtools-mcp in the default window', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;

  before(async () => {
    fixtures = await new FixtureServer().start();
    await serveCorpus(fixtures, CORPUS);
    pair = await startOraclePair({args: CORPUS_ARGS, viewport: false, record: 'corpusDefaultWindow'});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  for (const page of CORPUS) {
    describe(page.id, () => {
      let comparison: CorpusComparison;
      let loaded: ComparisonPoint | undefined;

      it('after load', async () => {
        comparison = new CorpusComparison(pair);
        loaded = undefined;
        await Promise.all([openCorpusPage(pair.ours, fixtures, page), openCorpusPage(pair.theirs, fixtures, page)]);
        const point = await comparison.compare();
        loaded = point;
        assertSamePoint(page.id, 'after load (default window)', point);
      });
      const step = page.steps[0];
      if (step) {
        it(`after "${step.label}" (${step.tool})`, async () => {
          assert.ok(loaded, 'the page loaded and was compared');
          // Where the reference fails the step, it reaches the same state another way (as in corpus.test.ts).
          const theirs = step.referenceInstead?.step ?? step;
          await Promise.all([
            runStep(pair.ours, loaded.oursText, step),
            runStep(pair.theirs, loaded.theirsText, theirs),
          ]);
          assertSamePoint(page.id, `after "${step.label}" (default window)`, await comparison.compare());
        });
      }
    });
  }
});
