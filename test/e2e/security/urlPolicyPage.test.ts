/**
 * The URL policy covers what a page starts by itself: WebSockets,
 * EventSources, workers and new windows to a blocked host never reach it,
 * and the call during which the page tried says so.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {startServer, type TestServer} from '../../support/mcpClient.js';
import {TrapHost as Trap} from '../../support/trapHost.js';

describe('URL policy: what the page starts by itself', () => {
  let fixtures: FixtureServer;
  let trap: Trap;
  let mcp: TestServer;
  let trapUrl: (path: string) => string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    trap = await new Trap().start();
    trapUrl = path => `http://localhost:${trap.port}${path}`;
    const ws = `ws://localhost:${trap.port}/ws`;
    const workerWs = `ws://localhost:${trap.port}/worker-ws`;
    fixtures.html('/blank', '<!doctype html><title>blank</title>');
    fixtures.route('/blocked/worker.js', {headers: {'content-type': 'text/javascript'}, body: 'postMessage("ran")'});
    fixtures.route('/worker.js', {
      headers: {'content-type': 'text/javascript'},
      body: `const s = new WebSocket(${JSON.stringify(workerWs)}); s.onerror = () => postMessage('worker ws failed');`,
    });
    fixtures.html(
      '/page',
      `<!doctype html><title>starts things</title>
      <link rel=preconnect href="${trapUrl('/')}"><link rel=dns-prefetch href="${trapUrl('/')}">
      <a id=blank href="${trapUrl('/anchor')}" target=_blank>open</a>
      <button id=go onclick="start()">go</button>
      <script>
        window.events = [];
        function start() {
          const socket = new WebSocket(${JSON.stringify(ws)});
          socket.onerror = () => events.push('ws error');
          const source = new EventSource(${JSON.stringify(trapUrl('/sse'))});
          source.onerror = () => { events.push('sse error'); source.close(); };
          const blocked = new Worker('/blocked/worker.js');
          blocked.onerror = () => events.push('worker error');
          blocked.onmessage = e => events.push('blocked worker ' + e.data);
          const worker = new Worker('/worker.js');
          worker.onmessage = e => events.push(e.data);
          window.popup = window.open(${JSON.stringify(trapUrl('/popup'))});
        }
      </script>`,
    );
    mcp = await startServer({
      args: ['--blockedUrlPattern', `*://localhost:${trap.port}/*`, '--blockedUrlPattern', fixtures.url('/blocked/*')],
    });
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/blank')});
    assert.equal(nav.isError, false, nav.text);
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await trap?.stop();
  });

  it('blocks and reports WebSockets, EventSources, workers and windows the page opens', async () => {
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
    assert.equal(nav.isError, false, nav.text);
    const clicked = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `async () => { start();
        // The popup is cross-origin once its blocked navigation has ended in Chrome's error page.
        const ended = () => { try { return !popup.location.href; } catch { return true; } };
        while (!['ws error', 'sse error', 'worker ws failed'].every(e => events.includes(e)) || !ended()) await new Promise(r => setTimeout(r, 20));
        return events; }`,
    });
    assert.equal(clicked.isError, false, clicked.text);
    const section = (text: string) => text.slice(text.indexOf('## Blocked by the URL policy')).split('\n').sort();
    assert.deepEqual(section(clicked.text), [
      '## Blocked by the URL policy',
      `- eventsource ${trapUrl('/sse')}`,
      `- script ${fixtures.url('/blocked/worker.js')}`,
      `- websocket ws://localhost:${trap.port}/worker-ws`,
      `- websocket ws://localhost:${trap.port}/ws`,
      `- window ${trapUrl('/popup')}`,
    ]);
    const anchor = await mcp.call('click', {
      pageId: 1,
      uid: /uid=(\S+) link "open"/.exec((await mcp.call('take_snapshot', {pageId: 1})).text)?.[1] ?? '',
    });
    assert.match(anchor.text, new RegExp(`\n## Blocked by the URL policy\n- window ${trapUrl('/anchor')}$`));
    const later = await mcp.call('list_pages');
    assert.doesNotMatch(later.text, /Blocked by the URL policy/, 'reported once, by the call during which it happened');
    assert.deepEqual(trap.requests, []);
    assert.equal(trap.connections, 0);
    assert.ok(!fixtures.requests.some(r => r.url.startsWith('/blocked/')));
  });
});
