import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {SERVER_BIN, startServer, type TestServer} from '../support/mcpClient.js';

describe('URL policy, header redaction and category flags', () => {
  let fixtures: FixtureServer;
  let other: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    other = await new FixtureServer().start();
    fixtures.route('/secret.json', {headers: {'content-type': 'application/json'}, body: '{"secret":true}'});
    for (const path of ['/glob-blocked.json', '/v1/glob-blocked.json', '/wild-blocked.json', '/path-blocked.json']) {
      fixtures.route(path, {headers: {'content-type': 'application/json'}, body: '{}'});
    }
    fixtures.route('/ok.json', {
      headers: {'content-type': 'application/json', 'set-cookie': 'session=abc123'},
      body: '{"ok":true}',
    });
    other.html(
      '/frame',
      '<!doctype html><script>fetch("' +
        fixtures.url('/secret.json') +
        '").then(() => console.log("frame fetched"), () => console.log("frame blocked"))</script>',
    );
    fixtures.html(
      '/page',
      `<!doctype html><title>policy</title><iframe src="${other.url('/frame').replace('127.0.0.1', 'localhost')}"></iframe><script>
      window.done = Promise.all([
        fetch('/secret.json').then(() => 'loaded', () => 'blocked'),
        fetch('/ok.json', {headers: {authorization: 'Bearer t0ken'}}).then(r => r.json()).then(() => 'loaded', () => 'blocked'),
        new Promise(r => setTimeout(r, 300)),
      ]);
      </script>`,
    );
    mcp = await startServer({
      args: [
        '--blockedUrlPattern',
        '*://*:*/secret.json',
        '--blockedUrlPattern',
        `http://127.0.0.1:${fixtures.port}/forbidden*`,
        // As people write them: a Playwright glob, a wildcard host without a port, a path.
        '--blockedUrlPattern',
        '**/glob-blocked.json',
        '--blockedUrlPattern',
        '*://*/wild-blocked.json',
        '--blockedUrlPattern',
        '/path-blocked.json',
        '--redactNetworkHeaders',
        '--categoryEmulation=false',
      ],
    });
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
    assert.equal(nav.isError, false, nav.text);
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await other?.stop();
  });

  it('blocks matching requests of the page and of an out-of-process frame', async () => {
    const r = await mcp.call('evaluate_script', {pageId: 1, function: '() => window.done.then(v => v.slice(0, 2))'});
    assert.match(r.text, /\["blocked","loaded"\]/);
    const console = await mcp.call('list_console_messages', {pageId: 1});
    assert.match(console.text, /\[log\] frame blocked/);
    assert.ok(!fixtures.requests.some(req => req.url === '/secret.json'), 'the blocked URL never reached the server');
    const list = await mcp.call('list_network_requests', {pageId: 1});
    assert.match(list.text, /reqid=\d+ GET http:\/\/127\.0\.0\.1:\d+\/secret\.json \[net::ERR_INTERNET_DISCONNECTED\]/);
  });

  it('takes globs, a wildcard host on any port and paths as patterns', async () => {
    const paths = [
      '/glob-blocked.json',
      '/v1/glob-blocked.json',
      '/wild-blocked.json',
      '/path-blocked.json',
      '/ok.json',
    ];
    const r = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => Promise.all(${JSON.stringify(paths)}.map(u => fetch(u).then(() => 'loaded', () => 'blocked')))`,
    });
    assert.match(r.text, /\["blocked","blocked","blocked","blocked","loaded"\]/);
    for (const path of paths.slice(0, -1)) {
      assert.ok(!fixtures.requests.some(req => req.url === path), `${path} never reached the server`);
    }
  });

  it('refuses a blocked navigation with a clear message', async () => {
    const url = fixtures.url('/forbidden/page');
    const r = await mcp.call('navigate_page', {pageId: 1, url});
    assert.equal(r.isError, false);
    assert.match(
      r.text,
      new RegExp(
        `^Unable to navigate in the selected page: Navigation to ${url.replace(/[.]/g, '\\.')} is blocked by blocklist/allowlist rules\\.`,
      ),
    );
    const opened = await mcp.call('new_page', {url});
    assert.equal(opened.isError, true);
    assert.match(opened.text, /Error: Navigation to .* is blocked by blocklist\/allowlist rules$/);
    assert.ok(!fixtures.requests.some(req => req.url.startsWith('/forbidden')));
  });

  it('redacts sensitive header values', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const id = Number(/reqid=(\d+) GET \S+\/ok\.json/.exec(list)?.[1]);
    const r = await mcp.call('get_network_request', {pageId: 1, reqid: id});
    assert.match(r.text, /\n- authorization:<redacted>\n/);
    assert.match(r.text, /\n- set-cookie:<redacted>\n/);
    assert.match(r.text, /\n- accept-language:[a-z]/);
    assert.doesNotMatch(r.text, /t0ken|abc123/);
  });

  it('drops the emulation tools with --categoryEmulation=false', async () => {
    const {tools} = await mcp.client.listTools();
    const names = tools.map(t => t.name);
    assert.ok(!names.includes('emulate') && !names.includes('resize_page'));
    assert.ok(names.includes('list_network_requests') && names.includes('get_console_message'));
    const r = await mcp.call('emulate', {pageId: 1});
    assert.equal(r.isError, true);
    assert.match(r.text, /category Emulation which is currently disabled/);
  });
});

describe('--categoryNetwork=false and invalid URL patterns', () => {
  it('drops the network tools', async () => {
    const mcp = await startServer({args: ['--categoryNetwork=false']});
    try {
      const names = (await mcp.client.listTools()).tools.map(t => t.name);
      assert.ok(!names.includes('list_network_requests') && !names.includes('get_network_request'));
      assert.ok(names.includes('emulate'));
    } finally {
      await mcp.close();
    }
  });

  it('refuses to start with an invalid URL pattern', () => {
    const result = spawnSync(process.execPath, [SERVER_BIN, '--blockedUrlPattern', 'https://exa mple.com/*'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--blockedUrlPattern "https:\/\/exa mple\.com\/\*" is not a valid URL pattern/);
  });
});
