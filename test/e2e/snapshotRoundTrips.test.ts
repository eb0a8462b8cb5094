/**
 * Issue 25 (speed): how many times a snapshot of a page with a cross-site
 * (out-of-process) iframe waits on Chrome. The server logs each CDP command
 * with the number of answers it had taken in before it went
 * (test/support/cdpSends.ts): the distinct numbers are the round trips.
 * The main frame's tree and frame tree go together; then the iframe
 * element's content frame; then that frame's tree and its session's frame
 * tree together (they went one after the other: 4 round trips).
 */
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {CdpSends, cdpSendsOptions, roundTrips} from '../support/cdpSends.js';
import {CROSS_FRAME} from '../support/fixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

const MOST_ROUND_TRIPS = 3;
/** Snapshots measured; each must keep to MOST_ROUND_TRIPS. */
const TRIES = 4;

describe('take_snapshot: a page with an out-of-process iframe waits on Chrome as few times as it can', () => {
  let fixtures: FixtureServer;
  let logDir: string;
  let sends: CdpSends;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/cross', CROSS_FRAME);
    fixtures.html(
      '/outer',
      `<!doctype html><title>Outer</title><h1>Outer</h1><iframe src="${fixtures.crossSiteUrl('/cross')}" title="Cross"></iframe>`,
    );
    logDir = await mkdtemp(join(tmpdir(), 'snapshot-round-trips-'));
    sends = new CdpSends(join(logDir, 'server.log'));
    mcp = await startServer(cdpSendsOptions(sends.logFile));
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    if (logDir) {
      await rm(logDir, {recursive: true, force: true});
    }
  });

  it(`takes the snapshot in ${MOST_ROUND_TRIPS} round trips, the iframe's content included`, async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/outer')});
    const waited = await mcp.call('wait_for', {pageId: 1, text: ['Cross button']});
    assert.equal(waited.isError, false, waited.text);
    // The first snapshots of the frame also learn its size (which way the engine reads it).
    await mcp.call('take_snapshot', {pageId: 1});
    for (let i = 0; i < TRIES; i++) {
      const from = await sends.mark();
      const snapshot = await mcp.call('take_snapshot', {pageId: 1});
      assert.match(snapshot.text, /button "Cross button"/);
      const commands = (await sends.since(from)).filter(c => c.sessionId !== undefined);
      const trips = roundTrips(commands);
      assert.ok(
        trips <= MOST_ROUND_TRIPS,
        `${trips} round trips: ${commands.map(c => `${c.method} (after ${c.after})`).join(', ')}`,
      );
    }
  });
});
