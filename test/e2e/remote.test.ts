import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {type RunningChromium, startChromium} from '../support/chromium.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer} from '../support/mcpClient.js';
import {WsProxy} from '../support/wsProxy.js';

const HEADER = {name: 'Authorization', value: 'Bearer farm-secret'};

describe('remote browser behind a CDP WebSocket gateway', () => {
  let chromium: RunningChromium;
  let proxy: WsProxy;
  let fixtures: FixtureServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/remote', '<title>Remote</title><p>remote page</p>');
    chromium = await startChromium();
    proxy = await new WsProxy(chromium.browserWsUrl, HEADER).start();
  });

  after(async () => {
    await proxy?.stop();
    chromium?.kill();
    await fixtures?.stop();
  });

  const farmArgs = () => ['--wsEndpoint', proxy.url, '--wsHeaders', JSON.stringify({[HEADER.name]: HEADER.value})];

  it('sends --wsHeaders on the handshake, reconnects with backoff after the farm drops the socket', async () => {
    const mcp = await startServer({args: farmArgs(), replaceFlags: true});
    try {
      const opened = await mcp.call('new_page', {url: fixtures.url('/remote'), isolatedContext: 'kept'});
      assert.equal(opened.isError, false, opened.text);
      assert.deepEqual(proxy.handshakes, ['accepted']);
      // The gateway drops us and turns the next two handshakes away (a node restarting).
      proxy.refuseNext(2);
      proxy.dropAll();
      for (const end = Date.now() + 30_000; !/dropped; reconnecting/.test(mcp.stderr()) && Date.now() < end;) {
        await new Promise(resolve => setTimeout(resolve, 25));
      }
      assert.match(
        mcp.stderr(),
        /The connection to Chrome at ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+ dropped; reconnecting\./,
      );
      const after = await mcp.call('list_pages');
      assert.equal(after.isError, false, after.text);
      assert.deepEqual(proxy.handshakes, ['accepted', 'refused', 'refused', 'accepted']);
      assert.match(
        after.text,
        /^Note: the browser was restarted or reconnected since the last call\. Page ids have changed\./,
      );
      // The browser kept the session's isolated context: its page is back (with a new id).
      assert.match(after.text, /\n\d+: Remote \(http:\/\/127\.0\.0\.1:\d+\/remote\) .*isolatedContext=kept/);
      const again = await mcp.call('list_pages');
      assert.doesNotMatch(again.text, /Note:/);
      assert.equal(proxy.liveConnections, 1);
    } finally {
      await mcp.close();
    }
    assert.equal(chromium.alive(), true, 'the attached browser was closed');
  });

  it('says what is wrong when the gateway refuses the handshake headers', async () => {
    const before = proxy.handshakes.length;
    const mcp = await startServer({
      args: ['--wsEndpoint', proxy.url, '--wsHeaders', '{"Authorization":"Bearer wrong"}'],
      replaceFlags: true,
    });
    try {
      const r = await mcp.call('list_pages');
      assert.equal(r.isError, true);
      assert.match(
        r.text,
        /^Could not connect to Chrome at ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+\. Check that it is running with remote debugging enabled and that --wsHeaders has what the endpoint asks for\.\nCause: .*401/,
      );
      // A first connection retries briefly (twice), then gives up.
      assert.deepEqual(proxy.handshakes.slice(before), ['unauthorized', 'unauthorized', 'unauthorized']);
    } finally {
      await mcp.close();
    }
  });
});
