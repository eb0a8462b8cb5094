import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const API_PAGE = `<!doctype html><title>api</title><script>
window.get = (url, init) => fetch(url, init).then(async r => r.status + ' ' + (r.headers.get('content-type') || '-') + ' ' + await r.text(), e => 'failed: ' + e.message);
</script>`;

/** The value evaluate_script returned (a JSON string). */
async function evaluate(mcp: TestServer, pageId: number, fn: string): Promise<string> {
  const r = await mcp.call('evaluate_script', {pageId, function: fn});
  assert.equal(r.isError, false, r.text);
  return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(r.text)?.[1] ?? 'null') as string;
}

describe('mock_network_request / clear_network_mocks', () => {
  let fixtures: FixtureServer;
  let other: FixtureServer;
  let mcp: TestServer;
  let dir: string;
  const hits = (path: string) => fixtures.requests.filter(r => r.url === path).length;

  before(async () => {
    fixtures = await new FixtureServer().start();
    other = await new FixtureServer().start();
    for (const path of ['/api/users', '/api/other', '/api/post', '/api/limited', '/blocked/data']) {
      fixtures.route(path, {headers: {'content-type': 'text/plain'}, body: 'real'});
    }
    fixtures.html('/page', API_PAGE);
    fixtures.route('/worker.js', {
      headers: {'content-type': 'text/javascript'},
      body: 'fetch("/api/users").then(r => r.text()).then(t => postMessage(t), e => postMessage("failed"))',
    });
    other.html('/frame', `${API_PAGE}<p>frame</p>`);
    other.route('/cross', {headers: {'content-type': 'text/plain'}, body: 'real cross'});
    dir = await mkdtemp(join(tmpdir(), 'cdp-mcp-mock-test-'));
    mcp = await startServer({args: ['--blockedUrlPattern', '*://*:*/blocked/*']});
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await other?.stop();
    await rm(dir, {recursive: true, force: true});
  });

  it('answers matching requests only, and lists the mock', async () => {
    const r = await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: `http://127.0.0.1:${fixtures.port}/api/users`,
      status: 201,
      contentType: 'application/json',
      body: '{"users":["ada"]}',
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      [
        `Mocking all requests matching http://127.0.0.1:${fixtures.port}/api/users in the default browser context with status 201 (17 bytes), until cleared.`,
        '## Network mocks',
        `mock=${/mock=(\d+)/.exec(r.text)?.[1]} any method http://127.0.0.1:${fixtures.port}/api/users → 201 (application/json, 17 bytes; answered 0)`,
      ].join('\n'),
    );
    assert.equal(await evaluate(mcp, 1, '() => get("/api/users")'), '201 application/json {"users":["ada"]}');
    assert.equal(await evaluate(mcp, 1, '() => get("/api/other")'), '200 text/plain real');
    assert.equal(hits('/api/users'), 0, 'the mocked URL never reached the server');
    assert.equal(hits('/api/other'), 1);
    const list = await mcp.call('list_network_requests', {pageId: 1});
    assert.match(
      list.text,
      new RegExp(
        `GET http://127\\.0\\.0\\.1:\\d+/api/users \\[201\\] \\[mocked by http://127\\.0\\.0\\.1:${fixtures.port}/api/users\\]`,
      ),
    );
    assert.match(list.text, /GET http:\/\/127\.0\.0\.1:\d+\/api\/other \[200\]$/m);
    const reqid = Number(/reqid=(\d+) GET \S+\/api\/users \[201\]/.exec(list.text)?.[1]);
    const detail = await mcp.call('get_network_request', {pageId: 1, reqid});
    assert.match(detail.text, /^Status: 201$/m);
    assert.match(detail.text, /### Response Body\n\{"users":\["ada"\]\}/, 'the mock body, which Chrome does not keep');
  });

  it('filters by method and stops after `times` answers', async () => {
    await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: '*://*:*/api/post',
      method: 'post',
      status: 200,
      body: 'posted',
    });
    assert.equal(
      await evaluate(mcp, 1, '() => get("/api/post", {method: "POST"})'),
      '200 text/plain; charset=utf-8 posted',
    );
    assert.equal(await evaluate(mcp, 1, '() => get("/api/post")'), '200 text/plain real');
    await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: '*://*:*/api/limited',
      status: 503,
      body: 'busy',
      times: 2,
    });
    const answers = await evaluate(mcp, 1, '() => Promise.all([1, 2, 3].map(() => get("/api/limited")))');
    assert.deepEqual([...answers].sort(), [
      '200 text/plain real',
      '503 text/plain; charset=utf-8 busy',
      '503 text/plain; charset=utf-8 busy',
    ]);
    const list = await mcp.call('clear_network_mocks', {pageId: 1, urlPattern: '*://*:*/api/post'});
    assert.match(list.text, /^Removed 1 network mock from the default browser context\.\n## Network mocks\n/);
    assert.doesNotMatch(list.text, /api\/limited|api\/post/, 'the used-up mock removed itself');
  });

  it('answers requests of out-of-process frames and dedicated workers', async () => {
    const frameUrl = other.url('/frame').replace('127.0.0.1', 'localhost');
    await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => new Promise(r => { const f = document.createElement('iframe'); f.src = ${JSON.stringify(frameUrl)}; f.onload = r; document.body.append(f); })`,
    });
    await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: '*://localhost:*/cross',
      status: 200,
      body: 'mocked cross',
    });
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    const inFrame = uidOf(snapshot.text, /"frame"/);
    const r = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '(p) => p.ownerDocument.defaultView.get("/cross")',
      args: [inFrame],
    });
    assert.match(r.text, /"200 text\/plain; charset=utf-8 mocked cross"/);
    assert.equal(other.requests.filter(req => req.url === '/cross').length, 0);
    const worker = await evaluate(
      mcp,
      1,
      '() => new Promise(r => { const w = new Worker("/worker.js"); w.onmessage = e => r(e.data); })',
    );
    assert.equal(worker, '{"users":["ada"]}');
  });

  it('never answers a URL the URL policy blocks', async () => {
    await mcp.call('mock_network_request', {pageId: 1, urlPattern: '*://*:*/blocked/*', status: 200, body: 'sneaked'});
    const r = await evaluate(mcp, 1, '() => get("/blocked/data")');
    assert.match(r, /^failed: /);
    assert.equal(hits('/blocked/data'), 0);
    const list = await mcp.call('list_network_requests', {pageId: 1});
    assert.match(list.text, /\/blocked\/data \[net::ERR_INTERNET_DISCONNECTED\]$/m);
  });

  it('adds CORS headers and answers preflights for cross-origin mocks', async () => {
    await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: `http://localhost:${other.port}/cross`,
      method: 'PUT',
      status: 200,
      headers: '{"x-mock": "yes"}',
      body: 'cross mocked',
    });
    const r = await evaluate(
      mcp,
      1,
      `() => get("http://localhost:${other.port}/cross", {method: "PUT", headers: {"x-custom": "1"}})`,
    );
    assert.equal(r, '200 text/plain; charset=utf-8 cross mocked');
    assert.equal(other.requests.filter(req => req.url === '/cross').length, 0);
  });

  it('serves a body file and mocks documents', async () => {
    const file = join(dir, 'page.html');
    await writeFile(file, '<!doctype html><title>From file</title><p>mocked document</p>');
    const r = await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: `http://127.0.0.1:${fixtures.port}/virtual/*`,
      status: 200,
      bodyFilePath: file,
    });
    assert.match(r.text, /\(text\/html; charset=utf-8, 61 bytes; answered 0\)/);
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/virtual/page')});
    assert.match(nav.text, /Successfully navigated to http:\/\/127\.0\.0\.1:\d+\/virtual\/page\./);
    const title = await evaluate(mcp, 1, '() => document.title');
    assert.equal(title, 'From file');
  });

  it('keeps mocks to their browser context', async () => {
    await mcp.call('new_page', {url: fixtures.url('/page'), isolatedContext: 'other'});
    const pages = await mcp.call('list_pages');
    const id = Number(/(\d+): .*isolatedContext=other/.exec(pages.text)?.[1]);
    assert.equal(await evaluate(mcp, id, '() => get("/api/users")'), '200 text/plain real');
    const mocks = await mcp.call('clear_network_mocks', {pageId: id});
    assert.match(
      mocks.text,
      /^Removed 0 network mocks from isolated context "other"\.\n## Network mocks\nNo network mocks in isolated context "other"\.$/,
    );
  });

  it('rejects bad input with what to change', async () => {
    const bad = async (args: Record<string, unknown>) => {
      const r = await mcp.call('mock_network_request', {pageId: 1, status: 200, ...args});
      assert.equal(r.isError, true, r.text);
      return r.text;
    };
    assert.match(
      await bad({urlPattern: 'https://exa mple.com/*'}),
      /"https:\/\/exa mple\.com\/\*" is not a valid URL pattern \(.*\)\. Use a URL with wildcards such as "https:\/\/api\.example\.com\/users\/\*", "\*\*\/api\/price" \(any site\), a path/,
    );
    assert.match(
      await bad({urlPattern: 'https://x.test/*', body: 'a', bodyFilePath: join(dir, 'page.html')}),
      /either as "body" or as "bodyFilePath", not both/,
    );
    assert.match(await bad({urlPattern: 'https://x.test/*', headers: '{"a": '}), /Invalid JSON for headers: /);
    assert.match(await bad({urlPattern: 'https://x.test/*', status: 99}), /"status": Invalid value: Expected >=200/);
    assert.match(await bad({urlPattern: 'https://x.test/*', method: 'GE T'}), /"method": Expected an HTTP method/);
    assert.match(
      await bad({urlPattern: 'https://x.test/*', bodyFilePath: '/etc/hostname'}),
      /Access denied: path \/etc\/hostname/,
    );
    assert.match(
      await bad({urlPattern: 'https://x.test/*', bodyFilePath: join(dir, 'missing.json')}),
      /Could not read \S+missing\.json: ENOENT/,
    );
    const clear = await mcp.call('clear_network_mocks', {pageId: 1, urlPattern: 'https://nothing.test/*'});
    assert.equal(clear.isError, true);
    assert.match(
      clear.text,
      /^Error: No network mock with urlPattern https:\/\/nothing\.test\/\* in the default browser context\. Active patterns: .*\. Omit urlPattern to remove all mocks\.$/,
    );
  });

  it('takes patterns as agents write them: a path on the page origin, globs, a wildcard host on any port', async () => {
    await mcp.call('clear_network_mocks', {pageId: 1});
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
    const origin = `http://127.0.0.1:${fixtures.port}`;
    const cases: Array<[string, string, string | undefined]> = [
      ['/api/users', '/api/users', `${origin}/api/users`],
      ['**/api/other', '/api/other', '*://*:*/:_*/api/other'],
      ['*/api/post', '/api/post', '*://*:*/:_*/api/post'],
      ['*://*/api/limited', '/api/limited', '*://*:*/api/limited'],
      [`${origin}/api/*`, '/api/users?page=2', undefined],
    ];
    for (const [urlPattern, path, matchedAs] of cases) {
      const r = await mcp.call('mock_network_request', {
        pageId: 1,
        urlPattern,
        status: 200,
        body: `mocked ${urlPattern}`,
      });
      assert.equal(r.isError, false, r.text);
      const lines = r.text.split('\n');
      assert.equal(lines[1], matchedAs ? `Matched as the URLPattern ${matchedAs}.` : '## Network mocks', urlPattern);
      const before = hits(path.split('?')[0] ?? path);
      assert.equal(
        await evaluate(mcp, 1, `() => get(${JSON.stringify(path)})`),
        `200 text/plain; charset=utf-8 mocked ${urlPattern}`,
      );
      assert.equal(hits(path.split('?')[0] ?? path), before, `${urlPattern} kept ${path} from the server`);
      await mcp.call('clear_network_mocks', {pageId: 1});
    }
    // Deeper paths match a ** glob too; a pattern for another origin says it cannot match this page's.
    await mcp.call('mock_network_request', {pageId: 1, urlPattern: '**/users', status: 200, body: 'deep'});
    assert.equal(await evaluate(mcp, 1, '() => get("/api/users")'), '200 text/plain; charset=utf-8 deep');
    const elsewhere = await mcp.call('mock_network_request', {
      pageId: 1,
      urlPattern: 'https://api.example.test/*',
      status: 200,
    });
    assert.match(
      elsewhere.text,
      new RegExp(
        `\nNote: https://api\\.example\\.test/\\* can match no URL of this page's origin \\(${origin.replace(/[.]/g, '\\.')}\\): only requests to other origins are answered\\.`,
      ),
    );
    await mcp.call('clear_network_mocks', {pageId: 1});
  });
});
