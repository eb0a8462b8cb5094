/**
 * Threat: a token holder in HTTP session B uses raw CDP (`send_cdp_command`,
 * `--experimentalRawCdp`) to reach session A: see A's pages and contexts,
 * read or change A's cookies, attach to A's page and run code in it, open
 * pages or grant permissions in A's context, renumber A's page ids, or act
 * on the whole browser. Raw CDP stays inside the caller's own browser
 * context: browser-level commands come from an allow-list whose parameters
 * are checked against the caller's contexts and targets (results filtered to
 * them), everything else is refused saying what is allowed. A single stdio
 * session in the default context keeps what it legitimately does.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {type HttpSession, type HttpTestServer, startHttpServer} from '../../support/httpClient.js';
import {type CallResult, startServer, type TestServer} from '../../support/mcpClient.js';

const SECRET = 'A-secret-4711';

type Caller = Pick<HttpSession, 'call'> | Pick<TestServer, 'call'>;

function raw(
  caller: Caller,
  pageId: number,
  method: string,
  params: Record<string, unknown> = {},
  target: 'page' | 'browser' = 'browser',
): Promise<CallResult> {
  return caller.call('send_cdp_command', {pageId, method, params: JSON.stringify(params), target});
}

/** The JSON result of a raw command that must succeed. */
async function result<T>(
  caller: Caller,
  pageId: number,
  method: string,
  params: Record<string, unknown> = {},
  target: 'page' | 'browser' = 'browser',
): Promise<T> {
  const r = await raw(caller, pageId, method, params, target);
  assert.equal(r.isError, false, `${method}: ${r.text}`);
  const json = /```json\n([\s\S]*)\n```/.exec(r.text)?.[1];
  assert.ok(json, r.text);
  return JSON.parse(json) as T;
}

const pageIdOf = (text: string) => Number(/(\d+): .*\[selected\]/.exec(text)?.[1]);

describe('security: raw CDP stays inside the calling HTTP session', () => {
  let fixtures: FixtureServer;
  let server: HttpTestServer;
  let a: HttpSession;
  let b: HttpSession;
  let pageA: number;
  let pageB: number;
  /** A's page target and browser context, as A itself sees them. */
  let targetA: string;
  let contextA: string;
  let contextB: string;
  let pagesOfA: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.route('/secret', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': `sid=${SECRET}; HttpOnly; Path=/`,
      });
      res.end('<title>A private</title>private page of A');
    });
    fixtures.html('/b', '<title>B page</title>b');
    server = await startHttpServer({args: ['--experimentalRawCdp']});
    a = await server.connect();
    b = await server.connect();
    pageA = pageIdOf((await a.call('list_pages')).text);
    pageB = pageIdOf((await b.call('list_pages')).text);
    const navigated = await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/secret')});
    assert.equal(navigated.isError, false, navigated.text);
    const info = await result<{targetInfo: {targetId: string; browserContextId: string}}>(
      a,
      pageA,
      'Target.getTargetInfo',
      {},
      'page',
    );
    targetA = info.targetInfo.targetId;
    contextA = info.targetInfo.browserContextId;
    const infoB = await result<{targetInfo: {browserContextId: string}}>(b, pageB, 'Target.getTargetInfo', {}, 'page');
    contextB = infoB.targetInfo.browserContextId;
    assert.notEqual(contextA, contextB);
    pagesOfA = (await a.call('list_pages')).text;
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await server?.close();
    await fixtures?.stop();
  });

  /** A's page, cookie and page ids are as before B's attempts. */
  async function assertAUntouched(): Promise<void> {
    assert.equal((await a.call('list_pages')).text, pagesOfA, "A's pages (ids, URLs) changed");
    const cookies = await result<{cookies: Array<{name: string; value: string}>}>(
      a,
      pageA,
      'Network.getCookies',
      {},
      'page',
    );
    assert.deepEqual(
      cookies.cookies.map(c => `${c.name}=${c.value}`),
      [`sid=${SECRET}`],
      "A's cookies changed",
    );
  }

  it("B's browser-level listings show only B's own targets and contexts", async () => {
    const targets = await raw(b, pageB, 'Target.getTargets');
    assert.equal(targets.isError, false, targets.text);
    assert.ok(!targets.text.includes(targetA), `B sees A's target:\n${targets.text}`);
    assert.ok(!targets.text.includes(contextA), `B sees A's context:\n${targets.text}`);
    assert.ok(!targets.text.includes('/secret'), `B sees A's URL:\n${targets.text}`);
    const contexts = await raw(b, pageB, 'Target.getBrowserContexts');
    assert.ok(!contexts.text.includes(contextA), `B sees A's context:\n${contexts.text}`);
  });

  it("B cannot read, write or clear A's cookies", async () => {
    const attempts: Array<[string, Record<string, unknown>, 'page' | 'browser']> = [
      ['Storage.getCookies', {browserContextId: contextA}, 'browser'],
      ['Storage.getCookies', {browserContextId: contextA}, 'page'],
      [
        'Storage.setCookies',
        {browserContextId: contextA, cookies: [{name: 'sid', value: 'B-was-here', domain: '127.0.0.1', path: '/'}]},
        'browser',
      ],
      ['Storage.clearCookies', {browserContextId: contextA}, 'browser'],
      ['Storage.clearCookies', {browserContextId: contextA}, 'page'],
    ];
    for (const [method, params, target] of attempts) {
      const r = await raw(b, pageB, method, params, target);
      assert.equal(r.isError, true, `${method} (${target}) with A's context went through: ${r.text}`);
      assert.ok(!r.text.includes(SECRET), `${method} leaked A's cookie`);
    }
    const own = await raw(b, pageB, 'Network.getAllCookies', {}, 'page');
    assert.ok(!own.text.includes(SECRET), "Network.getAllCookies on B's page shows A's cookie");
    await assertAUntouched();
  });

  it("B cannot attach to A's page, run code in it, or renumber A's pages", async () => {
    const attach = await raw(b, pageB, 'Target.attachToTarget', {targetId: targetA, flatten: false});
    assert.equal(attach.isError, true, `attachToTarget (not flat) went through: ${attach.text}`);
    const sessionId = /"sessionId": "([0-9A-F]+)"/.exec(attach.text)?.[1] ?? 'none';
    const message = JSON.stringify({id: 1, method: 'Runtime.evaluate', params: {expression: 'document.cookie'}});
    const sent = await raw(b, pageB, 'Target.sendMessageToTarget', {sessionId, message});
    assert.equal(sent.isError, true, `sendMessageToTarget went through: ${sent.text}`);
    for (const [method, params, target] of [
      ['Target.attachToTarget', {targetId: targetA, flatten: true}, 'browser'],
      ['Target.attachToTarget', {targetId: targetA, flatten: true}, 'page'],
      ['Target.autoAttachRelated', {targetId: targetA, waitForDebuggerOnStart: false}, 'browser'],
      ['Target.exposeDevToolsProtocol', {targetId: targetA}, 'browser'],
      ['Target.getTargetInfo', {targetId: targetA}, 'browser'],
      ['Target.getTargetInfo', {targetId: targetA}, 'page'],
      ['Target.activateTarget', {targetId: targetA}, 'browser'],
      ['Target.closeTarget', {targetId: targetA}, 'browser'],
      ['Target.openDevTools', {targetId: targetA}, 'browser'],
      ['Browser.getWindowForTarget', {targetId: targetA}, 'browser'],
    ] as const) {
      const r = await raw(b, pageB, method, params, target);
      assert.equal(r.isError, true, `${method} (${target}) on A's target went through: ${r.text}`);
      assert.ok(!r.text.includes('/secret'), `${method} leaked A's URL: ${r.text}`);
    }
    await assertAUntouched();
  });

  it("B cannot open pages, grant permissions or dispose in A's context", async () => {
    for (const [method, params] of [
      ['Target.createTarget', {url: 'about:blank', browserContextId: contextA}],
      ['Browser.grantPermissions', {permissions: ['geolocation'], browserContextId: contextA}],
      ['Browser.setPermission', {permission: {name: 'geolocation'}, setting: 'granted', browserContextId: contextA}],
      ['Browser.resetPermissions', {browserContextId: contextA}],
      ['Browser.cancelDownload', {guid: '00000000-0000-0000-0000-000000000000', browserContextId: contextA}],
      ['Target.disposeBrowserContext', {browserContextId: contextA}],
    ] as const) {
      const r = await raw(b, pageB, method, params);
      assert.equal(r.isError, true, `${method} in A's context went through: ${r.text}`);
    }
    await assertAUntouched();
  });

  it('B cannot act on the whole browser (other contexts, tracing, ports, the browser process)', async () => {
    for (const [method, params] of [
      ['Target.createBrowserContext', {proxyServer: 'http://127.0.0.1:9'}],
      ['Target.setDiscoverTargets', {discover: true}],
      ['Target.setRemoteLocations', {locations: [{host: '127.0.0.1', port: 9}]}],
      ['Tethering.bind', {port: 0}],
      ['Tracing.start', {}],
      ['Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: '/tmp'}],
      ['SystemInfo.getProcessInfo', {}],
      ['Browser.getHistograms', {}],
      ['Browser.crashGpuProcess', {}],
    ] as const) {
      const r = await raw(b, pageB, method, params);
      assert.equal(r.isError, true, `${method} went through: ${r.text}`);
      assert.match(r.text, /send_cdp_command refuses/, `${method}: not our refusal: ${r.text}`);
    }
    await assertAUntouched();
  });

  it('a refusal says what is allowed and why', async () => {
    const r = await raw(b, pageB, 'Target.attachToTarget', {targetId: targetA, flatten: true});
    assert.match(r.text, /^Error: send_cdp_command refuses Target\.attachToTarget: /);
    assert.match(r.text, /this session/);
  });

  it("B's own context keeps working: its targets, cookies, new pages and permissions", async () => {
    const targets = await result<{targetInfos: Array<{targetId: string; type: string}>}>(b, pageB, 'Target.getTargets');
    assert.ok(
      targets.targetInfos.some(t => t.type === 'page'),
      JSON.stringify(targets),
    );
    await result(b, pageB, 'Storage.setCookies', {
      browserContextId: contextB,
      cookies: [{name: 'own', value: 'b', domain: '127.0.0.1', path: '/'}],
    });
    const cookies = await result<{cookies: Array<{name: string}>}>(b, pageB, 'Storage.getCookies', {
      browserContextId: contextB,
    });
    assert.deepEqual(
      cookies.cookies.map(c => c.name),
      ['own'],
    );
    await result(b, pageB, 'Browser.grantPermissions', {permissions: ['geolocation'], browserContextId: contextB});
    const created = await result<{targetId: string}>(b, pageB, 'Target.createTarget', {
      url: fixtures.url('/b'),
      browserContextId: contextB,
    });
    assert.ok(created.targetId);
    const pages = await b.call('list_pages');
    assert.ok(pages.text.includes(fixtures.url('/b')), `the new page is not B's: ${pages.text}`);
    await assertAUntouched();
  });
});

describe('security: raw CDP of a single stdio session in the default context', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/own', '<title>Own</title>own');
    mcp = await startServer({args: ['--experimentalRawCdp']});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('keeps browser-level commands on its own default context', async () => {
    const targets = await result<{targetInfos: Array<{type: string; url: string}>}>(mcp, 1, 'Target.getTargets');
    assert.ok(targets.targetInfos.some(t => t.type === 'page' && t.url === 'about:blank'));
    await result(mcp, 1, 'Storage.setCookies', {cookies: [{name: 'k', value: 'v', domain: '127.0.0.1', path: '/'}]});
    const cookies = await result<{cookies: Array<{name: string}>}>(mcp, 1, 'Storage.getCookies');
    assert.deepEqual(
      cookies.cookies.map(c => c.name),
      ['k'],
    );
    await result(mcp, 1, 'Browser.grantPermissions', {permissions: ['geolocation']});
    await result(mcp, 1, 'Target.createTarget', {url: fixtures.url('/own')});
    const pages = await mcp.call('list_pages');
    assert.ok(pages.text.includes(`2: ${fixtures.url('/own')}`) || pages.text.includes('2: Own ('), pages.text);
    const version = await raw(mcp, 1, 'Browser.getVersion');
    assert.equal(version.isError, false, version.text);
  });
});
