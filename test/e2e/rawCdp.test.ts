import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

describe('send_cdp_command', () => {
  let mcp: TestServer;

  before(async () => {
    mcp = await startServer({args: ['--experimentalRawCdp']});
  });

  after(async () => {
    await mcp?.close();
  });

  const send = (method: string, params?: Record<string, unknown>, target?: string) =>
    mcp.call('send_cdp_command', {
      pageId: 1,
      method,
      ...(params ? {params: JSON.stringify(params)} : {}),
      ...(target ? {target} : {}),
    });

  it('is off without --experimentalRawCdp', async () => {
    const off = await startServer();
    try {
      const names = (await off.client.listTools()).tools.map(t => t.name);
      assert.ok(!names.includes('send_cdp_command'));
      const r = await off.call('send_cdp_command', {pageId: 1, method: 'Browser.getVersion'});
      assert.equal(r.isError, true);
      assert.match(r.text, /requires experimental feature --experimentalRawCdp and is currently disabled/);
    } finally {
      await off.close();
    }
  });

  it('returns the JSON result of a page or browser command', async () => {
    const r = await send('Runtime.evaluate', {expression: '6 * 7', returnByValue: true});
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      [
        '## CDP result',
        'Runtime.evaluate sent to page 1.',
        '```json',
        JSON.stringify({result: {type: 'number', value: 42, description: '42'}}, null, 2),
        '```',
      ].join('\n'),
    );
    // Agents send params as an object; the string form above keeps working. The schema says both.
    const asObject = await mcp.call('send_cdp_command', {
      pageId: 1,
      method: 'Runtime.evaluate',
      params: {expression: '6 * 7', returnByValue: true},
    });
    assert.equal(asObject.text, r.text);
    const tool = (await mcp.client.listTools()).tools.find(t => t.name === 'send_cdp_command');
    assert.deepEqual(
      (tool?.inputSchema.properties?.['params'] as {anyOf?: Array<{type?: string}>}).anyOf?.map(s => s.type),
      ['object', 'string'],
    );
    const version = await send('Browser.getVersion', undefined, 'browser');
    assert.match(
      version.text,
      /Browser\.getVersion sent to the browser\.\n```json\n\{\n {2}"protocolVersion": "1\.3",\n {2}"product": "\S*Chrome\//,
    );
  });

  it('passes CDP errors on as Chrome reports them, and never sends commands outside the pinned protocol', async () => {
    const unknown = await send('Nope.nothing');
    assert.equal(unknown.isError, true);
    assert.equal(
      unknown.text,
      "Error: send_cdp_command refuses Nope.nothing: it is not in this server's pinned protocol, so what it does was never reviewed (Chrome may know it; this server does not send it).",
    );
    const missing = await send('DOM.describeNode');
    assert.equal(
      missing.text,
      'Error: Chrome answered DOM.describeNode with an error: {"code":-32000,"message":"Either nodeId, backendNodeId or objectId must be specified"}',
    );
    const bad = await send('Page.navigate', {url: 5});
    assert.match(
      bad.text,
      /^Error: Chrome answered Page\.navigate with an error: \{"code":-32602,"message":"Invalid parameters","data":"Failed to deserialize params\.url/,
    );
  });

  it('refuses commands that would break the server, which keeps working', async () => {
    const info = await send('Target.getTargetInfo');
    const targetId = /"targetId": "([0-9A-F]+)"/.exec(info.text)?.[1];
    assert.ok(targetId, info.text);
    const refused: Array<[string, Record<string, unknown> | undefined, string | undefined, RegExp]> = [
      ['Browser.close', undefined, 'browser', /would close the browser the server drives/],
      ['Runtime.disable', undefined, undefined, /keeps the Runtime domain enabled/],
      ['Network.disable', undefined, undefined, /keeps the Network domain enabled/],
      ['Page.disable', undefined, undefined, /keeps the Page domain enabled/],
      ['Target.closeTarget', {targetId}, 'browser', /tracks that target\. Use close_page/],
      ['Target.detachFromTarget', {targetId}, 'browser', /drives that session/],
      [
        'Target.setAutoAttach',
        {autoAttach: false, waitForDebuggerOnStart: false},
        undefined,
        /relies on its auto-attach settings/,
      ],
      ['Fetch.enable', {}, undefined, /belongs to mock_network_request/],
      ['Network.emulateNetworkConditionsByRule', {matchedNetworkConditions: []}, undefined, /--blockedUrlPattern/],
      ['Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: '/'}, 'browser', /--downloadsDir/],
      ['Debugger.pause', {}, undefined, /paused page would stop every tool/],
    ];
    for (const [method, params, target, why] of refused) {
      const r = await send(method, params, target);
      assert.equal(r.isError, true, `${method} must be refused`);
      assert.match(r.text, new RegExp(`^Error: send_cdp_command refuses ${method.replace('.', '\\.')}: `));
      assert.match(r.text, why);
    }
    const same = await send('Target.setAutoAttach', {autoAttach: true, waitForDebuggerOnStart: true, flatten: true});
    assert.equal(same.isError, false, 'repeating our own settings is allowed');
    const evaluated = await mcp.call('evaluate_script', {pageId: 1, function: '() => 1 + 1'});
    assert.match(evaluated.text, /```json\n2\n```/);
    const pages = await mcp.call('list_pages');
    assert.match(pages.text, /^## Pages\n1: about:blank \[selected\]$/);
  });

  it('checks the method and parameters', async () => {
    const r = await send('getVersion');
    assert.match(
      r.text,
      /Invalid arguments for tool "send_cdp_command": "method": Expected a CDP method such as "Page\.getLayoutMetrics"/,
    );
    const notJson = await mcp.call('send_cdp_command', {pageId: 1, method: 'Runtime.evaluate', params: '{expression'});
    assert.match(notJson.text, /^Error: "params" must be a JSON object: /);
    const array = await mcp.call('send_cdp_command', {pageId: 1, method: 'Runtime.evaluate', params: '[1]'});
    assert.match(array.text, /^Error: "params" must be a JSON object such as/);
    const t = await send('Browser.getVersion', undefined, 'tab');
    assert.match(t.text, /"target": Invalid type: Expected \("page" \| "browser"\)/);
  });

  it('leaves a page whose tree was read alive when the next document turns accessibility on', async () => {
    // Chrome started with RenderDocument off (chrome-launcher's default list) crashed the renderer here:
    // the snapshot path turns the domain on when it looks below a node, and agents send it raw.
    const fixtures = await new FixtureServer().start();
    try {
      const url = fixtures.html('/form', '<!doctype html><title>Form</title><h1>Sign up</h1><button>Send</button>');
      for (let visit = 0; visit < 2; visit++) {
        assert.equal((await mcp.call('navigate_page', {pageId: 1, type: 'url', url})).isError, false);
        assert.match((await mcp.call('take_snapshot', {pageId: 1})).text, /button "Send"/);
      }
      const enabled = await send('Accessibility.enable');
      assert.equal(enabled.isError, false, enabled.text);
      const after = await mcp.call('take_snapshot', {pageId: 1});
      assert.equal(after.isError, false, after.text);
      assert.match(after.text, /heading "Sign up"/);
    } finally {
      await send('Accessibility.disable');
      await fixtures.stop();
    }
  });
});
