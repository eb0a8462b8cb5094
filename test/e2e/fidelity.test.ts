import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {buttonsPage, CHILD_FRAME, CROSS_FRAME, framesPage, KITCHEN_SINK} from '../support/fixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

/**
 * The engine's two paths must print the same tree with the same uids: the
 * in-page walk with Chrome's answers for the rest (CDP_MCP_SNAPSHOT_ENGINE=fast)
 * and Chrome's full accessibility tree (=ax), and the default engine, which
 * picks one per frame by measured cost, on the same pages in the same browser build.
 * (Equality with chrome-devtools-mcp itself: snapshotOracle.test.ts.)
 */
describe("snapshot fidelity against Chrome's accessibility tree", () => {
  let fixtures: FixtureServer;
  let fast: TestServer;
  let ax: TestServer;
  let auto: TestServer;
  // Whole snapshots: the engines' texts are compared line by line.
  const args = ['--chromeArg=--site-per-process', '--maxOutputChars', '0'];

  before(async () => {
    fixtures = await new FixtureServer().start();
    const cross = `http://localhost:${fixtures.port}`;
    fixtures.html('/kitchen', KITCHEN_SINK);
    fixtures.html('/buttons', buttonsPage(300));
    fixtures.html('/many', buttonsPage(2500));
    // A list the walk reads faster than the full tree, with a closed shadow root on a built-in
    // element: the page cannot see into it, Chrome's tree can.
    fixtures.html(
      '/closed-div',
      buttonsPage(300).replace(
        '<main>',
        `<main><div id="host">light text</div><script>document.getElementById('host').attachShadow({mode: 'closed'}).innerHTML = '<button>Closed secret</button>';</script>`,
      ),
    );
    fixtures.html('/frames', framesPage(cross));
    fixtures.html('/child', CHILD_FRAME);
    fixtures.html('/cross', CROSS_FRAME);
    [fast, ax, auto] = await Promise.all([
      startServer({args, env: {CDP_MCP_SNAPSHOT_ENGINE: 'fast'}}),
      startServer({args, env: {CDP_MCP_SNAPSHOT_ENGINE: 'ax'}}),
      startServer({args}),
    ]);
  });

  after(async () => {
    await Promise.all([fast?.close(), ax?.close(), auto?.close()]);
    await fixtures?.stop();
  });

  /** Snapshot lines; the uids are compared as the servers give them (same algorithm, same numbers). */
  const lines = (text: string) => text.split('\n');

  /** Each page's snapshots, taken once: the kitchen sink's serve two tests. */
  const taken = new Map<string, Promise<[string[], string[], string[]]>>();
  const all = (path: string) => {
    const known = taken.get(path) ?? snapshots(path);
    taken.set(path, known);
    return known;
  };

  async function snapshots(path: string): Promise<[string[], string[], string[]]> {
    const url = fixtures.url(path);
    const results = await Promise.all(
      [fast, ax, auto].map(async server => {
        await server.call('navigate_page', {pageId: 1, url});
        await server.call('wait_for', {pageId: 1, text: ['Top', 'Kitchen', 'Button 1', 'Title one']});
        const r = await server.call('take_snapshot', {pageId: 1});
        assert.equal(r.isError, false, r.text);
        return lines(r.text.replace(/uid=(\d+)_/g, 'uid=N_'));
      }),
    );
    return results as [string[], string[], string[]];
  }

  for (const path of ['/kitchen', '/buttons', '/frames', '/many']) {
    it(`gives the same tree as the AX tree for ${path}`, async () => {
      const [ours, chrome, chosen] = await all(path);
      assert.ok(chrome.length > 5, chrome.join('\n'));
      assert.deepEqual(ours, chrome);
      assert.deepEqual(chosen, chrome);
      if (path === '/frames') {
        // Both frames and the shadow root were reached, not just skipped alike.
        for (const text of ['button "In child"', 'button "Cross button"', 'button "Shadow btn"', '"slotted light"']) {
          assert.ok(
            ours.some(line => line.includes(text)),
            `${text} missing:\n${ours.join('\n')}`,
          );
        }
      }
    });
  }

  it('never prints the walk where it differs from the AX tree, snapshot after snapshot', async () => {
    const url = fixtures.url('/closed-div');
    const take = async (server: TestServer) => {
      const r = await server.call('take_snapshot', {pageId: 1});
      assert.equal(r.isError, false, r.text);
      return lines(r.text.replace(/uid=(\d+)_/g, 'uid=N_'));
    };
    await Promise.all([fast, ax, auto].map(server => server.call('navigate_page', {pageId: 1, url})));
    const chrome = await take(ax);
    assert.ok(
      chrome.some(line => line.includes('button "Closed secret"')),
      chrome.join('\n'),
    );
    // The forced walk shows the host's light DOM instead: this page does tell the paths apart.
    assert.ok(!(await take(fast)).some(line => line.includes('Closed secret')));
    // The default engine reads it whole, then tries the walk (it is cheaper here), finds that it
    // differs, and keeps the full tree: every snapshot equals Chrome's.
    for (let i = 0; i < 8; i++) {
      assert.deepEqual(await take(auto), chrome, `snapshot ${i + 1}`);
    }
  });

  it('interactive elements have the same role and name (kitchen sink)', async () => {
    const [ours, chrome] = await all('/kitchen');
    const interactive = (l: string[]) =>
      l.filter(line =>
        /^\s*(?:uid=\S+ )?(button|link|textbox|checkbox|radio|combobox|listbox|option|slider|spinbutton|searchbox|switch|tab|ColorWell|DisclosureTriangle|Date)\b/.test(
          line.trim(),
        ),
      );
    assert.ok(interactive(chrome).length > 30);
    assert.deepEqual(interactive(ours), interactive(chrome));
  });
});
