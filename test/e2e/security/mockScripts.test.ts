/**
 * Threat: `--no-javascript-evaluation` bypassed through a network mock. A
 * mock is content the server itself serves: an HTML body with an inline
 * script, or a mocked script URL, would run caller-given JavaScript in the
 * page. With the switch on, mocks whose type a browser runs as a document or
 * a script (HTML, XHTML, SVG, XML, JavaScript, WebAssembly) are refused, and
 * every other mock is served with `X-Content-Type-Options: nosniff` and
 * `Content-Security-Policy: script-src 'none'`, so neither a script element
 * nor the body opened as a page runs it.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {startServer, type TestServer} from '../../support/mcpClient.js';

const SCRIPT = 'document.title = "pwned"';

describe('security: network mocks under --no-javascript-evaluation', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/page', '<title>page</title><script src="/app.js"></script>page');
    fixtures.route('/app.js', {body: '/* the real script */', headers: {'content-type': 'text/javascript'}});
    fixtures.html('/doc', '<title>doc</title>real document');
    mcp = await startServer({args: ['--no-javascript-evaluation']});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  const mock = (args: Record<string, unknown>) => mcp.call('mock_network_request', {pageId: 1, status: 200, ...args});

  it('refuses mocks a browser would run as a document or a script', async () => {
    for (const args of [
      {urlPattern: fixtures.url('/doc'), contentType: 'text/html', body: `<script>${SCRIPT}</script>`},
      {urlPattern: fixtures.url('/doc'), headers: '{"Content-Type": "text/html"}', body: `<script>${SCRIPT}</script>`},
      {urlPattern: fixtures.url('/doc'), contentType: 'application/xhtml+xml', body: '<html/>'},
      {urlPattern: fixtures.url('/doc'), contentType: 'image/svg+xml', body: '<svg onload="x()"/>'},
      {urlPattern: fixtures.url('/doc'), contentType: 'text/xml', body: '<x/>'},
      {urlPattern: fixtures.url('/app.js'), contentType: 'text/javascript', body: SCRIPT},
      {urlPattern: fixtures.url('/app.js'), contentType: 'application/wasm', body: ''},
    ]) {
      const r = await mock(args);
      assert.equal(r.isError, true, `a mock went through: ${JSON.stringify(args)}: ${r.text}`);
      assert.match(r.text, /--no-javascript-evaluation/, r.text);
    }
    const pages = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/doc')});
    assert.match(pages.text, /1: doc \(/, 'the real document was answered by a mock');
  });

  it('serves other mocks so that no script element or document runs them', async () => {
    const asText = await mock({urlPattern: fixtures.url('/app.js'), contentType: 'text/plain', body: SCRIPT});
    assert.equal(asText.isError, false, asText.text);
    const page = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
    assert.equal(page.isError, false, page.text);
    const requests = await mcp.call('list_network_requests', {pageId: 1});
    assert.match(requests.text, /app\.js.*\[mocked by/, requests.text);
    assert.match((await mcp.call('list_pages')).text, /1: page \(/, 'the mocked text ran as a script');
    const asJson = await mock({urlPattern: fixtures.url('/doc'), contentType: 'application/json', body: '{"a": 1}'});
    assert.equal(asJson.isError, false, asJson.text);
    const doc = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/doc')});
    assert.equal(doc.isError, false, doc.text);
    const listed = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const reqid = Number(/reqid=(\d+) GET \S+\/doc \[200\] \[mocked by/.exec(listed)?.[1]);
    assert.ok(reqid, listed);
    const headers = await mcp.call('get_network_request', {pageId: 1, reqid});
    assert.match(headers.text, /x-content-type-options: ?nosniff/i, headers.text);
    assert.match(headers.text, /content-security-policy: ?script-src 'none'/i, headers.text);
  });
});

describe('security: network mocks with JavaScript evaluation on', () => {
  it('still serve HTML with scripts', async () => {
    const fixtures = await new FixtureServer().start();
    const mcp = await startServer();
    try {
      const url = fixtures.url('/doc');
      const r = await mcp.call('mock_network_request', {
        pageId: 1,
        urlPattern: url,
        status: 200,
        contentType: 'text/html',
        body: `<title>mocked</title><script>${SCRIPT}</script>`,
      });
      assert.equal(r.isError, false, r.text);
      await mcp.call('navigate_page', {pageId: 1, url});
      assert.match((await mcp.call('list_pages')).text, /1: pwned \(/);
    } finally {
      await mcp.close();
      await fixtures.stop();
    }
  });
});
