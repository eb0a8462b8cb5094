/**
 * click's opt-in effect line (issue 22, "Actions that report their effect"):
 * nodes added, focus moved, a value changed, a navigation, or no observable
 * change; without `effect` the answer is the reference's.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const PAGE = `<!doctype html><title>Effects</title>
<button>Noop</button>
<button onclick="document.getElementById('l').insertAdjacentHTML('beforeend', '<li>one</li><li>two</li>')">Add</button>
<button onclick="document.getElementById('f').value = 'new'">Set</button>
<button onclick="document.getElementById('f').focus()">Focus</button>
<a href="/next">Go</a>
<input id="f" aria-label="Field" value="old"><ul id="l"></ul>`;

describe('click effect', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/effects', PAGE);
    fixtures.html('/next', '<title>Next</title><p>next</p>');
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  async function click(name: string, effect = true): Promise<string> {
    const snap = await mcp.call('take_snapshot', {pageId: 1});
    const r = await mcp.call('click', {pageId: 1, uid: uidOf(snap.text, new RegExp(`"${name}"`)), effect});
    assert.equal(r.isError, false, r.text);
    return r.text;
  }

  it('says what each click did, and nothing without effect', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/effects')});
    assert.equal(await click('Noop', false), 'Successfully clicked on the element');
    assert.match(await click('Noop'), /^Effect: no observable change\.$/m);
    // Focus moving to the clicked element goes without saying.
    assert.match(await click('Add'), /^Effect: nodes: 2 added\.$/m);
    assert.match(await click('Set'), /^Effect: value of uid=\S+ textbox "Field" changed from "old" to "new"\.$/m);
    assert.match(await click('Focus'), /^Effect: focus moved to uid=\S+ textbox "Field"\.$/m);
    assert.match(await click('Go'), new RegExp(`^Effect: navigated to ${fixtures.url('/next')}\\.$`, 'm'));
  });
});
