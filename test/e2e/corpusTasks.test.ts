/**
 * Scripted agent tasks on every corpus app, through our tools only: find
 * elements by role and name in take_snapshot's text, act with click / fill /
 * type_text / press_key / hover / drag, snapshot again, and read the app's
 * own state back with evaluate_script.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {CORPUS} from '../support/corpus/index.js';
import {CORPUS_ARGS} from '../support/corpus/report.js';
import {checkTask, openCorpusPage, runStep, serveCorpus, snapshot} from '../support/corpus/runner.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {ORACLE_VIEWPORT} from '../support/oracle.js';

describe('corpus tasks: an agent completes a task on every real app with our tools', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    await serveCorpus(fixtures, CORPUS);
    // The oracle's window size, so that tasks see the pages the oracle test compares.
    // Whole snapshots: the tasks look for elements anywhere on the page.
    mcp = await startServer({args: [`--viewport=${ORACLE_VIEWPORT}`, '--maxOutputChars', '0', ...CORPUS_ARGS]});
  });
  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  for (const page of CORPUS) {
    it(`${page.id}: ${page.task.description} [${page.constructs.join(', ')}]`, async () => {
      await openCorpusPage(mcp, fixtures, page);
      for (const step of page.steps) {
        const text = await snapshot(mcp);
        await runStep(mcp, text, step);
      }
      const final = await snapshot(mcp);
      assert.match(final, /RootWebArea/, 'a snapshot after the task');
      assert.deepEqual(await checkTask(mcp, page), page.task.expect);
    });
  }
});
