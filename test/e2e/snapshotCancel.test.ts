import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {type RunningChromium, startChromium} from '../support/chromium.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {until} from '../support/hungPages.js';
import {CALL_TIMEOUT_MS, openPage, startServer, type TestServer} from '../support/mcpClient.js';
import {WsProxy} from '../support/wsProxy.js';

const HEADER = {name: 'Authorization', value: 'Bearer snapshot-cancel'};

/** The CDP commands a snapshot sends (engine.ts and below), but the release of its objects. */
const SNAPSHOT_COMMAND =
  /^(Runtime\.(evaluate|getProperties|callFunctionOn)|Page\.(createIsolatedWorld|getFrameTree)|Accessibility\.|DOM\.describeNode)/;

/** A debug-log line that says a snapshot ended: a frame taken, or the whole snapshot stopped. */
const SNAPSHOT_END = /snapshot of frame \S+: (full tree|walked)|snapshot of page \d+ stopped/g;

/**
 * take_snapshot against pages that work against it. The server drives a
 * Chromium through a proxy that records every CDP command it sends.
 */
describe('take_snapshot: stopped when cancelled, not steered by the page', () => {
  let fixtures: FixtureServer;
  let chromium: RunningChromium;
  let proxy: WsProxy;
  let mcp: TestServer;

  const open = async (path: string, html: string): Promise<number> => {
    fixtures.html(path, html);
    return openPage(mcp, fixtures.url(path));
  };
  const ends = () => mcp.stderr().match(SNAPSHOT_END)?.length ?? 0;

  before(async () => {
    fixtures = await new FixtureServer().start();
    chromium = await startChromium();
    proxy = await new WsProxy(chromium.browserWsUrl, HEADER).start();
    mcp = await startServer({
      args: ['--wsEndpoint', proxy.url, '--wsHeaders', JSON.stringify({[HEADER.name]: HEADER.value})],
      replaceFlags: true,
      env: {CDP_MCP_DEBUG: '1'},
    });
  });

  after(async () => {
    await mcp?.close();
    await proxy?.stop();
    chromium?.kill();
    await fixtures?.stop();
  });

  it('a page whose getElementsByTagName never returns gets its snapshot, and keeps answering', async () => {
    const pageId = await open(
      '/spin-count',
      '<title>Trap</title><button>Press</button><script>' +
        'Document.prototype.getElementsByTagName = function () { while (true) {} };' +
        'document.getElementsByTagName = Document.prototype.getElementsByTagName;</script>',
    );
    const snapshot = await mcp.call('take_snapshot', {pageId});
    assert.equal(snapshot.isError, false, snapshot.text);
    assert.match(snapshot.text, /button "Press"/, snapshot.text);
    // The count did not start the page's loop: its scripts still run.
    const answer = await mcp.call('evaluate_script', {pageId, function: '() => 6 * 7'});
    assert.match(answer.text, /```json\n42\n```/, answer.text);
  });

  it('a page whose getElementsByTagName lies about its size is read by its real size', async () => {
    const pageId = await open(
      '/lying-count',
      '<title>Liar</title><button>Small</button><script>' +
        'Document.prototype.getElementsByTagName = function () { return {length: 1000000}; };</script>',
    );
    const mark = mcp.stderr().length;
    const snapshot = await mcp.call('take_snapshot', {pageId});
    assert.match(snapshot.text, /button "Small"/, snapshot.text);
    // A first snapshot of a document that small is read whole (engine.ts); a million elements would be walked.
    const log = mcp.stderr().slice(mark);
    assert.match(log, /snapshot of frame \S+: full tree of \d+ nodes/, log);
    assert.doesNotMatch(log, /snapshot of frame \S+: walked/, log);
  });

  it('a cancelled snapshot sends no CDP command after the cancel; the page answers the next call', async () => {
    let release!: () => void;
    const held = new Promise<void>(resolve => (release = resolve));
    fixtures.route('/hold', async (_req, res) => {
      await held;
      res.writeHead(200, {'content-type': 'text/plain'}).end('released');
    });
    const other = await open('/other', '<title>Other</title><p>other page</p>');
    const pageId = await open('/held', '<title>Held</title><button>Press</button>');
    // The page's main thread waits in a synchronous request the test holds: it answers no CDP command meanwhile.
    await mcp.call('evaluate_script', {
      pageId,
      function: `() => { setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', '/hold', false); x.send(); }); }`,
    });
    try {
      await until(() => fixtures.requests.some(r => r.url === '/hold'), 'the page to block in its request');
      const sent = proxy.commands.length;
      const endsBefore = ends();
      const controller = new AbortController();
      const call = mcp.client.callTool({name: 'take_snapshot', arguments: {pageId}}, undefined, {
        timeout: CALL_TIMEOUT_MS,
        signal: controller.signal,
      });
      call.catch(() => undefined);
      // The snapshot's first command is out (the page holds its answer).
      let session: string | undefined;
      await until(() => {
        session = proxy.commands.slice(sent).find(c => SNAPSHOT_COMMAND.test(c.method))?.sessionId;
        return session !== undefined;
      }, 'the snapshot to send its first command').catch((error: unknown) => {
        const commands = proxy.commands.slice(sent).map(c => c.method);
        throw new Error(`${String(error)}; commands: ${commands.join(', ')}; log: ${mcp.stderr().slice(-3000)}`);
      });
      controller.abort();
      await assert.rejects(call, /abort/i);
      // The server took the cancel: the serial lock went to the next call.
      const elsewhere = await mcp.call('evaluate_script', {pageId: other, function: '() => document.title'});
      assert.match(elsewhere.text, /"Other"/, elsewhere.text);

      const cancelled = proxy.commands.length;
      release();
      // The snapshot has ended: at the cancel, or (left running) once the page answered it and it finished.
      await until(() => ends() > endsBefore, 'the cancelled snapshot to end');
      const later = proxy.commands
        .slice(cancelled)
        .filter(c => c.sessionId === session && SNAPSHOT_COMMAND.test(c.method));
      assert.deepEqual(
        later.map(c => c.method),
        [],
        'the cancelled snapshot went on sending commands to the page',
      );
    } finally {
      release();
    }
    const next = await mcp.call('take_snapshot', {pageId});
    assert.equal(next.isError, false, next.text);
    assert.match(next.text, /button "Press"/, next.text);
  });
});
