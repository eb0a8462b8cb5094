/**
 * `--experimentalInteropTools`: get_tab_id answers with the id of the tab
 * target that holds the page, checked against the tab targets of a Chrome
 * the test starts itself and the server attaches to.
 */
import assert from 'node:assert/strict';
import {type ChildProcess, spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {CdpConnection} from '../../src/cdp/CdpConnection.js';
import {sleep} from '../../src/util/async.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {CHROME_PATH, startServer, type TestServer} from '../support/mcpClient.js';

/** How long the test's Chrome may take to open its DevTools port. */
const CHROME_START_TIMEOUT_MS = 30_000;

async function portFileText(file: string): Promise<string> {
  const deadline = Date.now() + CHROME_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.includes('\n')) {
      return text;
    }
    await sleep(50);
  }
  throw new Error(`Chrome wrote no ${file} within ${CHROME_START_TIMEOUT_MS} ms`);
}

describe('--experimentalInteropTools', () => {
  let fixtures: FixtureServer;
  let chrome: ChildProcess;
  let profile: string;
  let cdp: CdpConnection;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/a', '<title>A</title>a');
    fixtures.html('/b', '<title>B</title>b');
    profile = mkdtempSync(join(tmpdir(), 'interop-test-'));
    chrome = spawn(
      CHROME_PATH,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        '--no-first-run',
        'about:blank',
      ],
      {stdio: 'ignore', detached: true},
    );
    const [port, path] = (await portFileText(join(profile, 'DevToolsActivePort'))).split('\n');
    cdp = await CdpConnection.connect(`ws://127.0.0.1:${port}${path}`);
    mcp = await startServer({
      args: [
        '--browserUrl',
        `http://127.0.0.1:${port}`,
        '--experimentalInteropTools',
        '--experimentalStructuredContent',
      ],
      replaceFlags: true,
    });
  });

  after(async () => {
    await mcp?.close();
    await cdp?.close();
    if (chrome?.pid) {
      try {
        process.kill(-chrome.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(profile, {recursive: true, force: true});
    await fixtures?.stop();
  });

  it("answers with the id of each page's own tab target", async () => {
    const a = fixtures.url('/a');
    const b = fixtures.url('/b');
    assert.equal((await mcp.call('navigate_page', {pageId: 1, url: a})).isError, false);
    assert.equal((await mcp.call('new_page', {url: b})).isError, false);
    const ids: string[] = [];
    for (const pageId of [1, 2]) {
      const result = await mcp.client.callTool({name: 'get_tab_id', arguments: {pageId}});
      const text = (result.content as Array<{text: string}>)[0]?.text ?? '';
      const id = /^Tab ID: (\S+)$/.exec(text)?.[1];
      assert.ok(id, text);
      assert.deepEqual(result.structuredContent, {message: text, tabId: id});
      ids.push(id);
    }
    const {targetInfos} = await cdp.send('Target.getTargets', {filter: [{}]});
    const tabUrl = (id: string | undefined) => targetInfos.find(t => t.type === 'tab' && t.targetId === id)?.url;
    assert.equal(tabUrl(ids[0]), a);
    assert.equal(tabUrl(ids[1]), b);
    const pageIds = targetInfos.filter(t => t.type === 'page').map(t => t.targetId);
    assert.ok(!ids.some(id => pageIds.includes(id)), 'a tab id, not a page target id');
  });
});
