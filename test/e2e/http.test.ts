import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import type {ServerResponse} from 'node:http';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {connectSession, type HttpSession, type HttpTestServer, startHttpServer} from '../support/httpClient.js';
import {SERVER_BIN, TEST_FLAGS} from '../support/mcpClient.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}},
};

/** One raw POST to the endpoint (what the SDK client does, without it). */
async function post(url: string, headers: Record<string, string>, body: unknown = INITIALIZE): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers},
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function errorText(response: Response): Promise<string> {
  const body = (await response.json()) as {error?: {message?: string}};
  return body.error?.message ?? '';
}

const ENV_TOKEN = 'env-token-0123456789abcdef';
/**
 * A server with its token from CDP_MCP_AUTH_TOKEN and heap reports on: the
 * token test and the context-per-session tests need nothing else of theirs,
 * so they share it. Started once, when first asked for.
 */
let envServer: Promise<HttpTestServer> | undefined;
const serverWithEnvToken = () =>
  (envServer ??= startHttpServer({env: {CDP_MCP_AUTH_TOKEN: ENV_TOKEN, CDP_MCP_HEAP_REPORT: '1'}}));

after(async () => {
  await (await envServer)?.close();
});

describe('Streamable HTTP: access', () => {
  let server: HttpTestServer;

  before(async () => {
    server = await startHttpServer({args: ['--allowedOrigin', 'https://app.example.test', '--maxSessions', '3']});
  });

  after(async () => {
    await server?.close();
  });

  it('prints a generated token once on stderr, never on stdout', async () => {
    assert.equal(server.stderr().split(server.token).length - 1, 1);
    assert.match(server.token, /^[A-Za-z0-9_-]{32}$/);
  });

  it('answers 401 with WWW-Authenticate to a missing or wrong token, and serves the right one', async () => {
    const missing = await post(server.url, {});
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="cdp-mcp"');
    assert.match(await errorText(missing), /Authorization: Bearer <token>/);
    const wrong = await post(server.url, {authorization: `Bearer ${server.token.slice(1)}x`});
    assert.equal(wrong.status, 401);
    const basic = await post(server.url, {authorization: `Basic ${server.token}`});
    assert.equal(basic.status, 401);
    await assert.rejects(connectSession(server.url, 'not-the-token'), /Wrong token/);
    const session = await server.connect();
    assert.ok(session.sessionId);
    const pages = await session.call('list_pages');
    assert.match(pages.text, /^## Pages\n\d+: about:blank \[selected\]$/);
    await session.close();
  });

  it('refuses a foreign Origin with 403, even with the token; the own and --allowedOrigin ones pass', async () => {
    const auth = {authorization: `Bearer ${server.token}`};
    const foreign = await post(server.url, {...auth, origin: 'http://evil.example'});
    assert.equal(foreign.status, 403);
    assert.match(await errorText(foreign), /Origin http:\/\/evil\.example is not allowed/);
    const port = new URL(server.url).port;
    // A rebinding page has the attacker's host name in its origin, whatever it resolves to.
    const rebound = await post(server.url, {...auth, origin: `http://attacker.example:${port}`});
    assert.equal(rebound.status, 403);
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'https://app.example.test']) {
      const response = await post(server.url, {...auth, origin});
      assert.equal(response.status, 200, origin);
      assert.equal(response.headers.get('access-control-allow-origin'), origin);
      const id = response.headers.get('mcp-session-id');
      assert.ok(id);
      await response.body?.cancel();
      const ended = await fetch(server.url, {method: 'DELETE', headers: {...auth, origin, 'mcp-session-id': id}});
      assert.equal(ended.status, 200);
    }
  });

  it('answers clear errors outside the protocol: unknown session, no session, wrong path and method', async () => {
    const auth = {authorization: `Bearer ${server.token}`};
    const gone = await post(
      server.url,
      {...auth, 'mcp-session-id': 'no-such-session'},
      {jsonrpc: '2.0', id: 2, method: 'tools/list'},
    );
    assert.equal(gone.status, 404);
    assert.match(await errorText(gone), /Session not found: it ended or expired/);
    const noSession = await post(server.url, auth, {jsonrpc: '2.0', id: 2, method: 'tools/list'});
    assert.equal(noSession.status, 400);
    assert.match(await errorText(noSession), /start a session with an initialize request/);
    const path = await post(server.url.replace(/\/mcp$/, '/other'), auth);
    assert.equal(path.status, 404);
    const put = await fetch(server.url, {method: 'PUT', headers: auth});
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');
    const malformed = await post(server.url, auth, '{not json');
    assert.equal(malformed.status, 400);
  });

  it('refuses a body over the cap with 413 and keeps serving the session', async () => {
    const session = await server.connect();
    const huge = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: {name: 'list_pages', arguments: {x: 'y'.repeat(5 * 1024 * 1024)}},
    };
    const response = await post(
      server.url,
      {authorization: `Bearer ${server.token}`, 'mcp-session-id': session.sessionId ?? ''},
      huge,
    );
    assert.equal(response.status, 413);
    assert.match(await errorText(response), /Request body over 4194304 bytes/);
    assert.equal((await session.call('list_pages')).isError, false);
    await session.close();
  });

  it('over --maxSessions, closes the session idle longest to make room', async () => {
    const sessions: HttpSession[] = [];
    for (let i = 0; i < 3; i++) {
      sessions.push(await server.connect());
    }
    assert.equal((await sessions[1]?.call('list_pages'))?.isError, false);
    assert.equal((await sessions[2]?.call('list_pages'))?.isError, false);
    // The first never called anything after connecting: it is the idlest, and goes.
    const fourth = await server.connect();
    assert.equal((await fourth.call('list_pages')).isError, false);
    await assert.rejects(sessions[0]!.call('list_pages'), /Session not found/);
    assert.match(server.stderr(), /closed to make room \(--maxSessions 3\): it was idle longest/);
    assert.equal((await sessions[1]?.call('list_pages'))?.isError, false);
    await Promise.all([...sessions.slice(1), fourth].map(s => s.close()));
    await sessions[0]!.client.close();
  });
});

describe('Streamable HTTP: starting', () => {
  it('refuses a non-loopback address without an explicit token', async () => {
    const child = spawn(process.execPath, [SERVER_BIN, ...TEST_FLAGS, '--port', '0', '--host', '0.0.0.0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {...process.env, CDP_MCP_AUTH_TOKEN: ''},
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /Refusing to listen on 0\.0\.0\.0 without an explicit token.*--authToken/);
  });

  it('uses CDP_MCP_AUTH_TOKEN and prints no token', async () => {
    const server = await serverWithEnvToken();
    assert.equal(server.token, ENV_TOKEN);
    assert.doesNotMatch(server.stderr(), /auth token/);
    const session = await server.connect();
    assert.equal((await session.call('list_pages')).isError, false);
    await session.close();
  });
});

describe('Streamable HTTP: one browser context per session', () => {
  let fixtures: FixtureServer;
  let server: HttpTestServer;
  let a: HttpSession;
  let b: HttpSession;
  const cookies: string[] = [];

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/store', '<title>Secret store of A</title><p>store</p>');
    fixtures.route('/echo', (req, res) => {
      cookies.push(req.headers.cookie ?? '');
      res.writeHead(200, {'content-type': 'text/html'}).end('<p>echo</p>');
    });
    server = await serverWithEnvToken();
    a = await server.connect();
    b = await server.connect();
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await fixtures?.stop();
  });

  const pageIdOf = (text: string) => Number(/(\d+): .*\[selected\]/.exec(text)?.[1]);

  it('gives each session its own pages, cookies and localStorage', async () => {
    const pageA = pageIdOf((await a.call('list_pages')).text);
    const pageB = pageIdOf((await b.call('list_pages')).text);
    assert.notEqual(pageA, pageB);
    await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/store')});
    const set = await a.call('evaluate_script', {
      pageId: pageA,
      function:
        '() => { document.cookie = "who=a; path=/"; localStorage.setItem("who", "a"); return document.cookie; }',
    });
    assert.match(set.text, /who=a/);
    await b.call('navigate_page', {pageId: pageB, url: fixtures.url('/store')});
    const seen = await b.call('evaluate_script', {
      pageId: pageB,
      function: '() => [document.cookie, localStorage.getItem("who")]',
    });
    assert.match(seen.text, /\["",null\]/, seen.text);
    await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/echo')});
    await b.call('navigate_page', {pageId: pageB, url: fixtures.url('/echo')});
    assert.deepEqual(cookies, ['who=a', '']);
    const listA = (await a.call('list_pages')).text;
    const listB = (await b.call('list_pages')).text;
    assert.equal(listA, `## Pages\n${pageA}: ${fixtures.url('/echo')} [selected]`);
    assert.equal(listB, `## Pages\n${pageB}: ${fixtures.url('/echo')} [selected]`);
  });

  it("refuses another session's page id without saying what that page is", async () => {
    const opened = await a.call('new_page', {url: fixtures.url('/store')});
    const secret = pageIdOf(opened.text);
    for (const [tool, args] of [
      ['navigate_page', {pageId: secret, type: 'reload'}],
      ['take_snapshot', {pageId: secret}],
      ['select_page', {pageId: secret}],
    ] as const) {
      const r = await b.call(tool, args);
      assert.equal(r.isError, true, tool);
      assert.match(r.text, new RegExp(`Page ${secret} is not a page of this MCP session`), tool);
      assert.doesNotMatch(r.text, /Secret|store/, tool);
    }
    assert.match((await a.call('list_pages')).text, new RegExp(`${secret}: Secret store of A`));
  });

  it('keeps isolatedContext names per session', async () => {
    const inA = pageIdOf((await a.call('new_page', {url: fixtures.url('/store'), isolatedContext: 'x'})).text);
    await a.call('evaluate_script', {pageId: inA, function: '() => { localStorage.setItem("k", "from a"); }'});
    const inB = pageIdOf((await b.call('new_page', {url: fixtures.url('/store'), isolatedContext: 'x'})).text);
    const read = await b.call('evaluate_script', {pageId: inB, function: '() => localStorage.getItem("k")'});
    assert.match(read.text, /```json\nnull\n```/);
    assert.match((await b.call('list_pages')).text, new RegExp(`${inB}: .* \\[selected\\] isolatedContext=x`));
  });

  it('closes the contexts of a session that ends; page ids are never reused', async () => {
    const before = await server.heapReport();
    const c = await server.connect();
    const first = pageIdOf((await c.call('list_pages')).text);
    await c.call('new_page', {url: 'about:blank', isolatedContext: 'y'});
    const during = await server.heapReport();
    assert.equal(during.contexts, before.contexts + 2);
    await c.close();
    const after = await server.heapReport();
    assert.equal(after.contexts, before.contexts);
    assert.equal(after.targets, before.targets);
    const d = await server.connect();
    assert.ok(pageIdOf((await d.call('list_pages')).text) > first + 1);
    await d.close();
  });
});

describe('Streamable HTTP with --sharedContext', () => {
  let fixtures: FixtureServer;
  let server: HttpTestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/store', '<title>Store</title><p>store</p>');
    server = await startHttpServer({args: ['--sharedContext'], env: {CDP_MCP_HEAP_REPORT: '1'}});
  });

  after(async () => {
    await server?.close();
    await fixtures?.stop();
  });

  const pageIdOf = (text: string) => Number(/(\d+): .*\[selected\]/.exec(text)?.[1]);

  it("puts every session in the default context: cookies and storage shared, pages still each session's own", async () => {
    const a = await server.connect();
    const b = await server.connect();
    try {
      const pageA = pageIdOf((await a.call('list_pages')).text);
      const pageB = pageIdOf((await b.call('list_pages')).text);
      assert.notEqual(pageA, pageB);
      assert.equal((await server.heapReport()).contexts, 0);
      await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/store')});
      await a.call('evaluate_script', {
        pageId: pageA,
        function: '() => { document.cookie = "who=a; path=/"; localStorage.setItem("who", "a"); }',
      });
      await b.call('navigate_page', {pageId: pageB, url: fixtures.url('/store')});
      const seen = await b.call('evaluate_script', {
        pageId: pageB,
        function: '() => [document.cookie, localStorage.getItem("who")]',
      });
      assert.match(seen.text, /\["who=a","a"\]/, seen.text);
      assert.doesNotMatch((await b.call('list_pages')).text, new RegExp(`^${pageA}: `, 'm'));
      assert.match((await b.call('take_snapshot', {pageId: pageA})).text, /not a page of this MCP session/);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('Streamable HTTP: --maxSessions when every session is running a call', () => {
  let server: HttpTestServer;
  let fixtures: FixtureServer;
  /** Page fetches of /hold, answered only when the test releases them. */
  const held: ServerResponse[] = [];
  let released = false;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/page', '<title>page</title>');
    fixtures.route('/hold', (_req, res) => {
      if (released) {
        res.writeHead(200, {'content-type': 'text/plain'}).end('released');
      } else {
        held.push(res);
      }
    });
    server = await startHttpServer({args: ['--maxSessions', '2', '--parallelSessions']});
  });

  after(async () => {
    await server?.close();
    await fixtures?.stop();
  });

  it('answers 503 with Retry-After to a new session, evicts none, and makes room once a call ends', async () => {
    const sessions = [await server.connect(), await server.connect()];
    const pageIds: number[] = [];
    for (const session of sessions) {
      const pages = await session.call('list_pages');
      const pageId = Number(/(\d+): .*\[selected\]/.exec(pages.text)?.[1]);
      assert.equal((await session.call('navigate_page', {pageId, url: fixtures.url('/page')})).isError, false);
      pageIds.push(pageId);
    }
    const calls = sessions.map((session, i) =>
      session.call('evaluate_script', {pageId: pageIds[i], function: "async () => (await fetch('/hold')).text()"}),
    );
    // Both calls are running once both pages' fetches reached the fixture server.
    const deadline = Date.now() + 60_000;
    while (held.length < 2) {
      assert.ok(Date.now() < deadline, `only ${held.length} of 2 calls reached /hold within 60 s`);
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    const full = await post(server.url, {authorization: `Bearer ${server.token}`});
    assert.equal(full.status, 503);
    assert.equal(full.headers.get('retry-after'), '10');
    assert.match(
      await errorText(full),
      /^Too many sessions: 2 are open \(--maxSessions\) and every one is running a call\. End one \(DELETE \/mcp\) or retry when a call ends\.$/,
    );
    assert.doesNotMatch(server.stderr(), /closed to make room/);
    released = true;
    for (const res of held) {
      res.writeHead(200, {'content-type': 'text/plain'}).end('released');
    }
    for (const result of await Promise.all(calls)) {
      assert.equal(result.isError, false, result.text);
      assert.match(result.text, /"released"/);
    }
    // Idle again: the next session evicts the one idle longest instead of getting 503.
    const third = await server.connect();
    assert.equal((await third.call('list_pages')).isError, false);
    assert.match(server.stderr(), /closed to make room \(--maxSessions 2\): it was idle longest/);
    await Promise.all([...sessions, third].map(s => s.close()));
  });
});
