import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {routePerformancePages} from '../support/devtoolsFixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {normaliseNumbers, startReference} from '../support/reference.js';

/**
 * Our trace tools against chrome-devtools-mcp 1.11 (core-js preloaded) on the
 * same page: the same text once numbers (timings, ids, ports) are normalised.
 */
describe('performance traces equal the reference', () => {
  let fixtures: FixtureServer;
  let ours: TestServer;
  let theirs: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    routePerformancePages(fixtures);
    [ours, theirs] = await Promise.all([
      startServer({args: ['--no-page-id-routing', '--maxOutputChars', '0']}),
      startReference([], 'performanceParity'),
    ]);
  });

  after(async () => {
    await Promise.all([ours?.close(), theirs?.close()]);
    await fixtures?.stop();
  });

  it('prints the same summary and insights for a reload of the shop page', async () => {
    const texts: Record<'ours' | 'theirs', string[]> = {ours: [], theirs: []};
    // One after the other: both Chromes loading at once would slow each other's trace.
    for (const [side, server] of [
      ['ours', ours],
      ['theirs', theirs],
    ] as const) {
      await server.call('navigate_page', {type: 'url', url: fixtures.url('/shop')});
      const trace = await server.call('performance_start_trace', {reload: true, autoStop: true});
      assert.equal(trace.isError, false, `${side}: ${trace.text}`);
      texts[side].push(trace.text);
      for (const insightName of ['LCPBreakdown', 'RenderBlocking', 'CharacterSet', 'NoSuchInsight']) {
        const insight = await server.call('performance_analyze_insight', {insightSetId: 'NAVIGATION_0', insightName});
        texts[side].push(insight.text);
      }
    }
    const normalise = (t: string) => normaliseNumbers(t).replace(/^- Date: .*$/m, '- Date: <date>');
    assert.deepEqual(texts.ours.map(normalise), texts.theirs.map(normalise));
  });
});
