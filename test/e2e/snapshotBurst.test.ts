import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {type RunningChromium, startChromium} from '../support/chromium.js';
import {buttonsPage} from '../support/fixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {WsProxy} from '../support/wsProxy.js';

const HEADER = {name: 'Authorization', value: 'Bearer snapshot-burst'};
const BUTTONS = 600;
/** The walk's bound on node questions in flight (snapshot/pageWalk.ts IN_FLIGHT). */
const IN_FLIGHT = 64;

/**
 * The in-page walk's first snapshot of a page asks Chrome about every node it
 * prints for the first time (its backend id). Pipelined, but not all at once:
 * each pending command holds its promise, timer and stack trace until answered.
 * The server drives a Chromium through a proxy that counts commands in flight.
 */
describe('take_snapshot: questions about single nodes are pipelined within a bound', () => {
  let fixtures: FixtureServer;
  let chromium: RunningChromium;
  let proxy: WsProxy;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.route('/buttons', {body: buttonsPage(BUTTONS)});
    chromium = await startChromium();
    proxy = await new WsProxy(chromium.browserWsUrl, HEADER).start();
    mcp = await startServer({
      args: ['--wsEndpoint', proxy.url, '--wsHeaders', JSON.stringify({[HEADER.name]: HEADER.value})],
      replaceFlags: true,
      env: {CDP_MCP_SNAPSHOT_ENGINE: 'fast'},
    });
  });

  after(async () => {
    await mcp?.close();
    await proxy?.stop();
    chromium?.kill();
    await fixtures?.stop();
  });

  it(`the first snapshot of ${BUTTONS} new buttons has at most ${IN_FLIGHT} DOM.describeNode in flight`, async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/buttons')});
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    assert.equal(snapshot.isError, false, snapshot.text);
    assert.match(snapshot.text, new RegExp(`button "Button ${BUTTONS}"`));
    const sent = proxy.commands.filter(c => c.method === 'DOM.describeNode').length;
    assert.ok(sent >= BUTTONS, `the walk asked about each new button (${sent} DOM.describeNode)`);
    const most = proxy.maxInFlight.get('DOM.describeNode') ?? 0;
    assert.ok(most <= IN_FLIGHT, `${most} DOM.describeNode in flight at once`);
    // Each command in flight listens to the call's signal: no leak warning on the server's stderr for that.
    assert.doesNotMatch(mcp.stderr(), /MaxListenersExceededWarning/);
  });
});
