/**
 * The tools a page offers (--categoryExperimentalThirdParty,
 * --categoryExperimentalWebmcp) against a page that holds its answers: a
 * cancelled call stops, as a cancelled take_snapshot does
 * (snapshotCancel.test.ts). The server drives a Chromium through a proxy
 * that records every CDP command it sends.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {type RunningChromium, startChromium} from '../support/chromium.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {HUNG_BOUND_S, until} from '../support/hungPages.js';
import {CALL_TIMEOUT_MS, openPage, startServer, type TestServer} from '../support/mcpClient.js';
import {WsProxy} from '../support/wsProxy.js';

const HEADER = {name: 'Authorization', value: 'Bearer page-tools-cancel'};

/** What a cancelled call may still send: the release of its objects, the cancel of a WebMCP invocation. */
const RELEASE = /^(Runtime\.releaseObject(Group)?|WebMCP\.cancelInvocation)$/;

/** A debug-log line that says a third-party run or a snapshot ended (stopped, or a frame taken). */
const RUN_END =
  /third-party tool run on page \d+ stopped|snapshot of frame \S+: (full tree|walked)|snapshot of page \d+ stopped/g;

/** The main thread of the page that runs this waits in a synchronous request to `path` (the test holds it). */
const block = (path: string) => `{ const x = new XMLHttpRequest(); x.open('GET', '${path}', false); x.send(); }`;

const THIRD_PARTY_PAGE = `<title>Tools</title><button id="b">Press</button><script>
  window.addEventListener('devtoolstooldiscovery', event => event.respondWith({
    name: 'Held',
    tools: [{
      name: 'heldButton',
      description: 'Waits for the test, then returns the button',
      inputSchema: {type: 'object'},
      execute: async () => { ${block('/hold-3p')} return document.getElementById('b'); },
    }],
  }));
</script>`;

const WEBMCP_PAGE = `<title>WebMCP</title><p>tools</p><script>
  document.modelContext.registerTool({
    name: 'never',
    description: 'Never answers',
    execute: () => new Promise(() => {}),
  });
</script>`;

describe('page tools: stopped when cancelled, bounded on a page that does not answer', () => {
  let fixtures: FixtureServer;
  let chromium: RunningChromium;
  let proxy: WsProxy;
  let mcp: TestServer;
  const releases: Array<() => void> = [];

  /** Holds requests to `path` until released (in `after` at the latest). */
  const hold = (path: string): (() => void) => {
    let release!: () => void;
    const held = new Promise<void>(resolve => (release = resolve));
    releases.push(release);
    fixtures.route(path, async (_req, res) => {
      await held;
      res.writeHead(200, {'content-type': 'text/plain'}).end('released');
    });
    return release;
  };

  const open = async (path: string, html: string): Promise<number> => {
    fixtures.html(path, html);
    return openPage(mcp, fixtures.url(path));
  };

  /** Starts a call the test cancels later. */
  const cancellable = (name: string, args: Record<string, unknown>) => {
    const controller = new AbortController();
    const call = mcp.client.callTool({name, arguments: args}, undefined, {
      timeout: CALL_TIMEOUT_MS,
      signal: controller.signal,
    });
    call.catch(() => undefined);
    return {call, cancel: () => controller.abort()};
  };

  /** The page session's id: the one `method` (sent since `mark`) went to. */
  const sessionOf = async (method: string, mark: number): Promise<string> => {
    let session: string | undefined;
    await until(() => {
      session = proxy.commands.slice(mark).find(c => c.method === method)?.sessionId;
      return session !== undefined;
    }, `the server to send ${method}`);
    return session ?? '';
  };

  before(async () => {
    fixtures = await new FixtureServer().start();
    chromium = await startChromium({args: ['--enable-features=WebMCP']});
    proxy = await new WsProxy(chromium.browserWsUrl, HEADER).start();
    mcp = await startServer({
      args: [
        '--wsEndpoint',
        proxy.url,
        '--wsHeaders',
        JSON.stringify({[HEADER.name]: HEADER.value}),
        '--categoryExperimentalThirdParty',
        '--categoryExperimentalWebmcp',
        '--pageCallTimeout',
        String(HUNG_BOUND_S),
      ],
      replaceFlags: true,
      env: {CDP_MCP_DEBUG: '1'},
    });
  });

  after(async () => {
    for (const release of releases) {
      release();
    }
    await mcp?.close();
    await proxy?.stop();
    chromium?.kill();
    await fixtures?.stop();
  });

  it('a cancelled third-party tool run sends nothing more to the page (no result read, no snapshot)', async () => {
    const release = hold('/hold-3p');
    const other = await open('/other', '<title>Other</title><p>other page</p>');
    const pageId = await open('/tools-3p', THIRD_PARTY_PAGE);
    const listed = await mcp.call('list_3p_developer_tools', {pageId});
    assert.match(listed.text, /heldButton/, listed.text);

    const sent = proxy.commands.length;
    const ends = () => mcp.stderr().match(RUN_END)?.length ?? 0;
    const endsBefore = ends();
    const {call, cancel} = cancellable('execute_3p_developer_tool', {pageId, toolName: 'heldButton'});
    // The tool runs and holds the page's main thread in its request.
    await until(() => fixtures.requests.some(r => r.url === '/hold-3p'), 'the tool to block in its request');
    const session = await sessionOf('Runtime.callFunctionOn', sent);
    cancel();
    await assert.rejects(call, /abort/i);
    const elsewhere = await mcp.call('evaluate_script', {pageId: other, function: '() => document.title'});
    assert.match(elsewhere.text, /"Other"/, elsewhere.text);

    const cancelled = proxy.commands.length;
    release();
    // The run has ended: at the cancel, or (left running) once the tool answered and its snapshot was taken.
    await until(() => ends() > endsBefore, 'the cancelled run to end');
    const later = proxy.commands.slice(cancelled).filter(c => c.sessionId === session && !RELEASE.test(c.method));
    assert.deepEqual(
      later.map(c => c.method),
      [],
      'the cancelled run went on sending commands to the page',
    );
    // The page answers the next run.
    const again = await mcp.call('execute_3p_developer_tool', {pageId, toolName: 'heldButton'});
    assert.equal(again.isError, false, again.text);
    assert.match(again.text, /"uid": "\d+_\d+"/, again.text);
  });

  it('a cancelled WebMCP tool run is cancelled in the page at once', async () => {
    const pageId = await open('/tools-webmcp', WEBMCP_PAGE);
    const listed = await mcp.call('list_webmcp_tools', {pageId});
    assert.match(listed.text, /never/, listed.text);
    const sent = proxy.commands.length;
    const {call, cancel} = cancellable('execute_webmcp_tool', {pageId, toolName: 'never'});
    await sessionOf('WebMCP.invokeTool', sent);
    cancel();
    await assert.rejects(call, /abort/i);
    // Before, the invocation ran on until its bound (60 s whatever --pageCallTimeout), then was cancelled.
    await until(
      () => proxy.commands.slice(sent).some(c => c.method === 'WebMCP.cancelInvocation'),
      'the invocation to be cancelled',
      30_000,
    );
  });

  it('a page that holds its first WebMCP answer fails that call at the bound, saying so; the next call lists', async () => {
    const release = hold('/hold-webmcp');
    const pageId = await open('/held-webmcp', WEBMCP_PAGE);
    await mcp.call('evaluate_script', {pageId, function: `() => { setTimeout(() => ${block('/hold-webmcp')}); }`});
    await until(() => fixtures.requests.some(r => r.url === '/hold-webmcp'), 'the page to block in its request');
    const stuck = await mcp.call('list_webmcp_tools', {pageId});
    assert.equal(stuck.isError, true, stuck.text);
    assert.match(stuck.text, new RegExp(`within ${HUNG_BOUND_S * 1000} ms`), stuck.text);
    assert.match(stuck.text, new RegExp(`Page ${pageId} is busy`), stuck.text);
    release();
    // Before, the first answer that did not come made WebMCP "not offered" on the page for good.
    const listed = await mcp.call('list_webmcp_tools', {pageId});
    assert.equal(listed.isError, false, listed.text);
    assert.match(listed.text, /never/, listed.text);
  });
});
