import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

/**
 * A site whose login lives in an HttpOnly cookie (checked by the server) and
 * a localStorage token (checked by the page), plus a sessionStorage marker.
 */
function loginSite(fixtures: FixtureServer): void {
  fixtures.route('/login', {
    headers: {'set-cookie': 'sid=s3cret; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600'},
    body: `<!doctype html><title>login</title><script>
      localStorage.setItem('token', 'tok-42'); sessionStorage.setItem('tab', 'seen');
      document.title = 'logged in now';</script>`,
  });
  fixtures.route('/', (req, res) => {
    const cookie = /(?:^|; )sid=s3cret(?:;|$)/.test(req.headers.cookie ?? '');
    res.writeHead(200, {'content-type': 'text/html'});
    res.end(`<!doctype html><title>home</title><h1 id="state"></h1><script>
      const ok = ${cookie} && localStorage.getItem('token') === 'tok-42';
      document.getElementById('state').textContent = ok ? 'Logged in' : 'Logged out';
      document.title = ok ? 'Logged in' : 'Logged out';
      window.tab = sessionStorage.getItem('tab');</script>`);
  });
}

async function pageState(mcp: TestServer): Promise<string> {
  const r = await mcp.call('evaluate_script', {pageId: 1, function: '() => document.title + "|" + window.tab'});
  return /"(.*)"/.exec(r.text)?.[1] ?? r.text;
}

describe('save_storage_state / load_storage_state', () => {
  let fixtures: FixtureServer;
  let dir: string;
  let stateFile: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    loginSite(fixtures);
    dir = await mkdtemp(join(tmpdir(), 'cdp-mcp-storage-test-'));
  });

  after(async () => {
    await fixtures?.stop();
    await rm(dir, {recursive: true, force: true});
  });

  it('saves cookies with their attributes and the storage of open origins', async () => {
    const mcp = await startServer();
    try {
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/login')});
      const r = await mcp.call('save_storage_state', {pageId: 1, filePath: join(dir, 'state.txt')});
      assert.equal(r.isError, false, r.text);
      stateFile = join(dir, 'state.json');
      assert.equal(
        r.text,
        `Saved the storage state of the default browser context to ${stateFile}: 1 cookie, 1 origin (1 localStorage item, 1 sessionStorage item).`,
      );
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, unknown>;
      assert.deepEqual(state, {
        cookies: [
          {
            name: 'sid',
            value: 's3cret',
            domain: '127.0.0.1',
            path: '/',
            expires: (state['cookies'] as Array<{expires: number}>)[0]?.expires,
            httpOnly: true,
            secure: false,
            sameSite: 'Lax',
            priority: 'Medium',
            sourceScheme: 'NonSecure',
            sourcePort: fixtures.port,
          },
        ],
        origins: [
          {
            origin: fixtures.url('/').slice(0, -1),
            localStorage: [{name: 'token', value: 'tok-42'}],
            sessionStorage: [{name: 'tab', value: 'seen'}],
          },
        ],
      });
      const expires = (state['cookies'] as Array<{expires: number}>)[0]?.expires ?? 0;
      assert.ok(Math.abs(expires - (Date.now() / 1000 + 3600)) < 120, `expires ${expires} is about an hour from now`);
    } finally {
      await mcp.close();
    }
  });

  it('restores the login in a fresh browser, before the site is open', async () => {
    const mcp = await startServer();
    try {
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      assert.equal(await pageState(mcp), 'Logged out|null');
      await mcp.call('navigate_page', {pageId: 1, url: 'about:blank'});
      const r = await mcp.call('load_storage_state', {pageId: 1, filePath: stateFile});
      assert.equal(r.isError, false, r.text);
      assert.equal(
        r.text.split('\n').slice(0, 2).join('\n'),
        `Loaded the storage state from ${stateFile} into the default browser context: 1 cookie, localStorage of 1 origin (1 item), sessionStorage of 1 origin (1 item) for page 1.\nReload or navigate the page for it to take effect.`,
      );
      const pages = await mcp.call('list_pages');
      assert.doesNotMatch(pages.text, /cdp-mcp-internal/, 'the helper tab is gone and never listed');
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      assert.equal(await pageState(mcp), 'Logged in|seen');
    } finally {
      await mcp.close();
    }
  });

  it('loads into an isolated context only', async () => {
    const mcp = await startServer();
    try {
      const opened = await mcp.call('new_page', {url: 'about:blank', isolatedContext: 'alice'});
      assert.equal(opened.isError, false, opened.text);
      const r = await mcp.call('load_storage_state', {pageId: 2, filePath: stateFile});
      assert.match(r.text, /into isolated context "alice": 1 cookie/);
      await mcp.call('navigate_page', {pageId: 2, url: fixtures.url('/')});
      const alice = await mcp.call('evaluate_script', {pageId: 2, function: '() => document.title'});
      assert.match(alice.text, /"Logged in"/);
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      assert.equal(await pageState(mcp), 'Logged out|null');
    } finally {
      await mcp.close();
    }
  });

  describe('bad files', () => {
    let mcp: TestServer;
    before(async () => {
      mcp = await startServer();
    });
    after(async () => {
      await mcp?.close();
    });

    async function load(name: string, content: string) {
      const path = join(dir, name);
      await writeFile(path, content);
      return {path, r: await mcp.call('load_storage_state', {pageId: 1, filePath: path})};
    }

    it('says what is wrong with a file that is not a state file', async () => {
      const notJson = await load('notes.json', 'hello');
      assert.equal(notJson.r.isError, true);
      assert.match(notJson.r.text, /^Error: \S+notes\.json is not a storage state file: it is not JSON \(/);
      assert.match(
        notJson.r.text,
        /Expected the JSON that save_storage_state .* writes: \{"cookies": \[\.\.\.\], "origins"/,
      );
      const array = await load('array.json', '[1, 2]');
      assert.match(array.r.text, /is not a storage state file: the file must hold a JSON object .*, not an array\./);
      const badCookie = await load(
        'bad-cookie.json',
        JSON.stringify({cookies: [{name: 'a', value: 'b'}], origins: []}),
      );
      assert.match(
        badCookie.r.text,
        /is not a storage state file: "cookies\[0\]\.domain" must be a string, not missing\./,
      );
      const badOrigin = await load(
        'bad-origin.json',
        JSON.stringify({cookies: [], origins: [{origin: 'https://x.test/path', localStorage: []}]}),
      );
      assert.match(
        badOrigin.r.text,
        /"origins\[0\]\.origin" must be an http\(s\) origin such as "https:\/\/example\.com" \(no path\), not "https:\/\/x\.test\/path"/,
      );
    });

    it('applies nothing when a later entry is invalid', async () => {
      const half = {
        cookies: [
          {
            name: 'first',
            value: '1',
            domain: '127.0.0.1',
            path: '/',
            expires: -1,
            httpOnly: false,
            secure: false,
            sameSite: 'Lax',
          },
          {
            name: 'second',
            value: '2',
            domain: '127.0.0.1',
            path: '/',
            expires: -1,
            httpOnly: false,
            secure: false,
            sameSite: 'Sometimes',
          },
        ],
        origins: [{origin: fixtures.url('/').slice(0, -1), localStorage: [{name: 'token', value: 'tok-42'}]}],
      };
      const {r} = await load('half.json', JSON.stringify(half));
      assert.match(r.text, /"cookies\[1\]\.sameSite" must be "Strict", "Lax" or "None", not string "Sometimes"/);
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      const seen = await mcp.call('evaluate_script', {
        pageId: 1,
        function: '() => [document.cookie, localStorage.getItem("token")]',
      });
      assert.match(seen.text, /\["",null\]/);
    });

    it('refuses missing files and files outside the roots', async () => {
      const missing = await mcp.call('load_storage_state', {pageId: 1, filePath: join(dir, 'nope.json')});
      assert.equal(missing.isError, true);
      assert.match(missing.text, /^Error: Could not read \S+nope\.json: ENOENT/);
      const outside = await mcp.call('load_storage_state', {pageId: 1, filePath: '/etc/passwd'});
      assert.match(
        outside.text,
        /^Error: Access denied: path \/etc\/passwd .* is not within any of the configured workspace roots/,
      );
      const saveOutside = await mcp.call('save_storage_state', {pageId: 1, filePath: '/state.json'});
      assert.match(saveOutside.text, /^Error: Access denied: path \/state\.json/);
    });
  });
});
