/**
 * The oracle test of issue 9: on every page of the real-app corpus, our
 * take_snapshot must equal chrome-devtools-mcp 1.11's line for line (uids and
 * ports aside), non-verbose and verbose, after load and after every scripted
 * interaction. Each server acts on the elements its own snapshot names. A
 * step whose page did not load or whose previous step failed fails too (it
 * has no snapshot to act from), so the first failure of a page is its cause.
 * `npm run corpus-report` prints the same comparison as a table.
 *
 * The same walk is an agent's task on every app through our tools (it was
 * corpusTasks.test.ts, which walked every page again with a server and a
 * Chrome of its own): our server finds the elements by role and name in its
 * own take_snapshot text, acts with click / fill / type_text / press_key /
 * hover / drag, snapshots again, and once every step is done the app's own
 * state read back with evaluate_script must be the task's.
 *
 * And it is the proof of the snapshot cache (issue 25, src/snapshot/axCache.ts)
 * on the real apps (it was snapshotCacheCorpus.test.ts, a third walk): our
 * server runs with CDP_MCP_SNAPSHOT_CACHE=verify, so it keeps every frame's
 * tree whatever its size, and every tree it gives again is also read fresh
 * from Chrome and compared, in both modes. One that prints otherwise while
 * the change signal says nothing changed fails that snapshot (axCache.ts
 * #verify), and so the comparison. Each point takes a verbose snapshot then
 * a plain one, so the plain one reuses what the verbose one read when nothing
 * changed, and a step reuses the frames it did not touch. The last test reads
 * the server's log: the cache must have been used, or the proof proves nothing.
 */
import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {assertSamePoint, type ComparisonPoint, CorpusComparison} from '../support/corpus/compare.js';
import {CORPUS} from '../support/corpus/index.js';
import {CORPUS_ARGS} from '../support/corpus/report.js';
import {checkTask, openCorpusPage, runStep, serveCorpus} from '../support/corpus/runner.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

describe('corpus: take_snapshot equals chrome-devtools-mcp on real apps', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;
  let logDir: string;
  let logFile: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    await serveCorpus(fixtures, CORPUS);
    logDir = await mkdtemp(join(tmpdir(), 'corpus-'));
    logFile = join(logDir, 'server.log');
    pair = await startOraclePair({
      args: CORPUS_ARGS,
      record: 'corpus',
      oursArgs: ['--logFile', logFile],
      env: {CDP_MCP_SNAPSHOT_CACHE: 'verify'},
    });
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
    if (logDir) {
      await rm(logDir, {recursive: true, force: true});
    }
  });

  for (const page of CORPUS) {
    describe(`${page.id}: ${page.constructs.join(', ')}`, () => {
      let comparison: CorpusComparison;
      /** The latest comparison: its non-verbose texts name the elements of the next step. */
      let latest: ComparisonPoint | undefined;

      it('after load', async () => {
        comparison = new CorpusComparison(pair);
        latest = undefined;
        await Promise.all([openCorpusPage(pair.ours, fixtures, page), openCorpusPage(pair.theirs, fixtures, page)]);
        latest = await comparison.compare();
        assertSamePoint(page.id, 'after load', latest);
      });
      for (const step of page.steps) {
        it(`after "${step.label}" (${step.tool})`, async () => {
          assert.ok(latest, 'the page loaded and was compared');
          const before = latest;
          latest = undefined;
          // A step the reference gets wrong (issue 21) is replaced on its side by one that reaches the same state.
          const theirs = step.referenceInstead?.step ?? step;
          await Promise.all([
            runStep(pair.ours, before.oursText, step),
            runStep(pair.theirs, before.theirsText, theirs),
          ]);
          latest = await comparison.compare();
          assertSamePoint(page.id, `after "${step.label}"`, latest);
        });
      }
      it(`task: ${page.task.description}`, async () => {
        assert.ok(latest, 'every step ran');
        assert.match(latest.oursText, /RootWebArea/, 'a snapshot after the task');
        assert.deepEqual(await checkTask(pair.ours, page), page.task.expect);
      });
    });
  }

  it('snapshot cache: reused kept trees, each equal to a fresh read', async () => {
    const log = await readFile(logFile, 'utf8');
    const reused = log.split('reused the kept tree').length - 1;
    assert.ok(reused > CORPUS.length, `only ${reused} frame trees reused over the corpus`);
    assert.doesNotMatch(log, /differs from a fresh read/);
  });
});
