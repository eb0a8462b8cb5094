/**
 * The proof of the snapshot cache (issue 25, src/snapshot/axCache.ts) on the
 * real apps: on every corpus page, after load and after every scripted step,
 * a verbose snapshot and two plain ones, with CDP_MCP_SNAPSHOT_CACHE=verify:
 * every frame tree the cache gives again is also read fresh from Chrome and
 * compared, in both modes; one that prints otherwise while the signal still
 * says nothing changed fails the snapshot (axCache.ts #verify), and so this
 * test. The steps are the agent tasks' (corpusTasks.test.ts), whose end state
 * is checked too. The cache must also have been used: a proof where nothing
 * was reused proves nothing.
 */
import assert from 'node:assert/strict';
import {mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {CORPUS} from '../support/corpus/index.js';
import {CORPUS_ARGS} from '../support/corpus/report.js';
import {checkTask, openCorpusPage, runStep, serveCorpus} from '../support/corpus/runner.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {ORACLE_VIEWPORT} from '../support/oracle.js';

describe('snapshot cache: a kept tree equals a fresh read at every corpus step, in both modes', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let logFile: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    await serveCorpus(fixtures, CORPUS);
    logFile = join(await mkdtemp(join(tmpdir(), 'snapshot-cache-corpus-')), 'server.log');
    mcp = await startServer({
      args: [`--viewport=${ORACLE_VIEWPORT}`, '--maxOutputChars', '0', '--logFile', logFile, ...CORPUS_ARGS],
      env: {CDP_MCP_SNAPSHOT_CACHE: 'verify'},
    });
  });
  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  const snap = async (verbose: boolean) => {
    const r = await mcp.call('take_snapshot', {pageId: 1, verbose});
    assert.equal(r.isError, false, r.text);
    return r.text;
  };
  /** Verbose, then plain twice: the plain ones reuse what the verbose one read when nothing changed. */
  const point = async () => {
    await snap(true);
    await snap(false);
    return snap(false);
  };

  for (const page of CORPUS) {
    it(`${page.id}: after load and every step`, async () => {
      await openCorpusPage(mcp, fixtures, page);
      let text = await point();
      for (const step of page.steps) {
        await runStep(mcp, text, step);
        text = await point();
      }
      assert.deepEqual(await checkTask(mcp, page), page.task.expect);
    });
  }

  it('reused kept trees (and checked each against a fresh read)', async () => {
    const log = await readFile(logFile, 'utf8');
    const reused = log.split('reused the kept tree').length - 1;
    assert.ok(reused > CORPUS.length, `only ${reused} frame trees reused over the corpus`);
    assert.doesNotMatch(log, /differs from a fresh read/);
  });
});
