import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import WebSocket from 'ws';

import {type RunningChromium, startChromium} from '../support/chromium.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {WsProxy} from '../support/wsProxy.js';

const HEADER = {name: 'Authorization', value: 'Bearer css-element'};

const PAGE = `<style>button { color: red }</style>
<div id="host"></div>
<button id="gone">Gone</button>
<button id="mover">Mover</button>
<button id="stay">Stay</button>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'closed'});
  root.innerHTML = '<style>button { color: blue }</style><button>Inside</button>';
  window.hide = () => root.append(document.getElementById('mover'));
</script>`;

/** Collects garbage in the page at `url` over a CDP connection of the test's own: a removed element is then gone for good. */
async function collectGarbage(chromium: RunningChromium, url: string): Promise<void> {
  const targets = (await (await fetch(`http://127.0.0.1:${chromium.port}/json/list`)).json()) as Array<{
    url: string;
    webSocketDebuggerUrl: string;
  }>;
  const target = targets.find(t => t.url === url);
  assert.ok(target, `no page at ${url}: ${JSON.stringify(targets)}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  try {
    socket.send(JSON.stringify({id: 1, method: 'HeapProfiler.collectGarbage'}));
    await new Promise((resolve, reject) => socket.once('message', resolve).once('error', reject));
  } finally {
    socket.close();
  }
}

function uidOf(snapshot: string, pattern: RegExp): string {
  const uid = new RegExp(`uid=(\\S+) ${pattern.source}`).exec(snapshot)?.[1];
  assert.ok(uid, `no ${pattern} in:\n${snapshot}`);
  return uid;
}

/**
 * get_css_styles on elements that are still there, gone, or moved into a
 * closed shadow root since the snapshot. The server drives a Chromium
 * through a proxy that records the CDP commands it sends.
 */
describe('get_css_styles: whether the element is still there', () => {
  let fixtures: FixtureServer;
  let chromium: RunningChromium;
  let proxy: WsProxy;
  let mcp: TestServer;
  let snapshot: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/elements', PAGE);
    chromium = await startChromium();
    proxy = await new WsProxy(chromium.browserWsUrl, HEADER).start();
    mcp = await startServer({
      args: ['--wsEndpoint', proxy.url, '--wsHeaders', JSON.stringify({[HEADER.name]: HEADER.value})],
      replaceFlags: true,
    });
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/elements')});
    snapshot = (await mcp.call('take_snapshot', {pageId: 1})).text;
  });

  after(async () => {
    await mcp?.close();
    await proxy?.stop();
    chromium?.kill();
    await fixtures?.stop();
  });

  it("reads a live element's cascade without a question of its own about the element", async () => {
    const uid = uidOf(snapshot, /button "Stay"/);
    // The first call sets DevTools' models up; the second is a call as any other.
    assert.equal((await mcp.call('get_css_styles', {pageId: 1, uid})).isError, false);
    const sent = proxy.commands.length;
    const result = await mcp.call('get_css_styles', {pageId: 1, uid});
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /button \(elements:1\) \{\n {4}color: red;/);
    const commands = proxy.commands.slice(sent).map(c => c.method);
    assert.deepEqual(
      commands.filter(method => method === 'DOM.resolveNode' || method === 'Runtime.callFunctionOn'),
      [],
      `commands of the call: ${commands.join(', ')}`,
    );
  });

  it('says an element removed since the snapshot is gone', async () => {
    const uid = uidOf(snapshot, /button "Gone"/);
    await mcp.call('evaluate_script', {pageId: 1, function: "() => document.getElementById('gone').remove()"});
    await collectGarbage(chromium, fixtures.url('/elements'));
    const result = await mcp.call('get_css_styles', {pageId: 1, uid});
    assert.equal(result.isError, true);
    assert.match(
      result.text,
      new RegExp(`Element with uid "?${uid}"? (was detached or )?no longer exists on the page`),
    );
  });

  it('says an element moved into a closed shadow root since the snapshot is not the one it showed', async () => {
    const uid = uidOf(snapshot, /button "Mover"/);
    await mcp.call('evaluate_script', {pageId: 1, function: '() => window.hide()'});
    const result = await mcp.call('get_css_styles', {pageId: 1, uid});
    assert.equal(result.isError, true);
    assert.match(result.text, new RegExp(`Element with uid ${uid} moved into a closed shadow root after the snapshot`));
  });
});
