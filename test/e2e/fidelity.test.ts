import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {buttonsPage, CHILD_FRAME, CROSS_FRAME, framesPage, KITCHEN_SINK} from '../../src/testing/fixtures.js';
import {FixtureServer} from '../../src/testing/fixtureServer.js';
import {startServer, type TestServer} from '../../src/testing/mcpClient.js';

/**
 * The fast snapshot (roles and names computed in the page) must say what
 * Chrome's own accessibility tree says. The oracle is the same server built
 * from Accessibility.getFullAXTree with the reference's filter
 * (CDP_MCP_SNAPSHOT_ENGINE=ax), on the same page in the same browser build.
 */
describe("snapshot fidelity against Chrome's accessibility tree", () => {
  let fixtures: FixtureServer;
  let fast: TestServer;
  let ax: TestServer;
  const args = ['--chromeArg=--site-per-process'];

  before(async () => {
    fixtures = await new FixtureServer().start();
    const cross = `http://localhost:${fixtures.port}`;
    fixtures.html('/kitchen', KITCHEN_SINK);
    fixtures.html('/buttons', buttonsPage(300));
    fixtures.html('/frames', framesPage(cross));
    fixtures.html('/child', CHILD_FRAME);
    fixtures.html('/cross', CROSS_FRAME);
    [fast, ax] = await Promise.all([startServer({args}), startServer({args, env: {CDP_MCP_SNAPSHOT_ENGINE: 'ax'}})]);
  });

  after(async () => {
    await Promise.all([fast?.close(), ax?.close()]);
    await fixtures?.stop();
  });

  /** Snapshot text without uids (numbering differs: we skip uids for text hidden as redundant). */
  const lines = (text: string) => text.replace(/uid=\d+_\d+ ?/g, '').split('\n');

  async function both(path: string): Promise<[string[], string[]]> {
    const url = fixtures.url(path);
    const results = await Promise.all(
      [fast, ax].map(async server => {
        await server.call('navigate_page', {pageId: 1, url});
        await server.call('wait_for', {pageId: 1, text: ['Top', 'Kitchen', 'Button 1', 'Title one']});
        const r = await server.call('take_snapshot', {pageId: 1});
        assert.equal(r.isError, false, r.text);
        return lines(r.text);
      }),
    );
    return results as [string[], string[]];
  }

  for (const path of ['/kitchen', '/buttons', '/frames']) {
    it(`gives the same tree as the AX tree for ${path}`, async () => {
      const [ours, chrome] = await both(path);
      assert.ok(chrome.length > 5, chrome.join('\n'));
      assert.deepEqual(ours, chrome);
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

  it('interactive elements have the same role and name (kitchen sink)', async () => {
    const [ours, chrome] = await both('/kitchen');
    const interactive = (l: string[]) =>
      l.filter(line =>
        /^\s*(button|link|textbox|checkbox|radio|combobox|listbox|option|slider|spinbutton|searchbox|switch|tab|ColorWell|DisclosureTriangle|Date)\b/.test(
          line.trim(),
        ),
      );
    assert.ok(interactive(chrome).length > 30);
    assert.deepEqual(interactive(ours), interactive(chrome));
  });
});
