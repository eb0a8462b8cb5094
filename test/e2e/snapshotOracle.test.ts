import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {CONSTRUCTS, constructUrl, serveConstructs} from '../support/constructs/index.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {
  callBoth,
  compareSnapshots,
  interactBoth,
  navigateBoth,
  type OraclePair,
  startOraclePair,
} from '../support/oracle.js';

/**
 * Our take_snapshot must print what chrome-devtools-mcp 1.11 prints, line for
 * line (uids and ports aside, uid stability included), on every construct
 * page, in both modes, after load and after each interaction. Our server runs
 * the in-page walk for every frame (CDP_MCP_SNAPSHOT_ENGINE=fast), so the
 * walk's rules are what this checks in non-verbose mode; verbose snapshots
 * are Chrome's full tree, the engine's other path.
 */
describe('snapshots equal chrome-devtools-mcp on construct pages', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;

  before(async () => {
    fixtures = await new FixtureServer().start();
    serveConstructs(fixtures);
    pair = await startOraclePair({env: {CDP_MCP_SNAPSHOT_ENGINE: 'fast'}, record: 'snapshotOracle'});
  });

  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  async function expectSame(moment: string): Promise<void> {
    for (const verbose of [false, true]) {
      const {theirs, diff} = await compareSnapshots(pair, {verbose});
      assert.ok(theirs.split('\n').length > 2, `the reference printed next to nothing ${moment}:\n${theirs}`);
      assert.deepEqual(
        diff,
        [],
        `${verbose ? 'verbose' : 'non-verbose'} snapshot ${moment} differs (- ours, + theirs):\n${diff.join('\n')}`,
      );
    }
  }

  for (const construct of CONSTRUCTS) {
    it(`${construct.name}: ${construct.covers}`, async () => {
      await navigateBoth(pair, constructUrl(fixtures, construct));
      if (construct.ready) {
        await callBoth(pair, 'wait_for', {text: [construct.ready]});
      }
      await expectSame('after load');
      for (const step of construct.steps ?? []) {
        if (step.target) {
          await interactBoth(pair, step.tool, step.target, step.args, step.uidParam);
        } else {
          await callBoth(pair, step.tool, step.args);
        }
        await expectSame(`after "${step.title}"`);
      }
    });
  }
});
