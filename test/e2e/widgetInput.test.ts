/**
 * Input on real widgets (issue 21), on the smallest pages that show it: a
 * 1x1 px textarea is clicked; a control under its own widget's overlay is
 * clicked through the overlay and the response names what got the event;
 * what protects the agent still refuses (a modal, a cookie banner, a toast,
 * another widget's element on top); a drag onto an item of a list that
 * reorders under the pointer puts the item where the agent asked. The same
 * widgets from real npm packages are corpus pages (monaco, element-plus,
 * jquery-ui-sortable).
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {constructHosts} from '../support/constructs/index.js';
import {pointerTargets} from '../support/constructs/pointer.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

/** A page whose elements record what they received in `window.log`. */
const logged = (body: string) =>
  `<!doctype html><title>Cover</title><script>window.log = []; const log = what => window.log.push(what);</script>${body}`;

/** What covers a select-like control: each one must still be refused. */
const COVERS: Record<string, {body: string; cover: RegExp}> = {
  'a modal': {
    body: `<div tabindex="-1" onclick="log('field')" style="width: 220px"><input aria-label="Target field" readonly onclick="log('input')"></div>
<div id="confirm" role="dialog" aria-modal="true" aria-label="Confirm" style="position: fixed; inset: 0; background: rgba(0, 0, 0, .4)" onclick="log('modal')">
  <div style="background: white; width: 200px; margin: 200px auto"><button>OK</button></div></div>`,
    cover: /<div id="confirm">/,
  },
  'a cookie banner': {
    body: `<div tabindex="-1" onclick="log('field')" style="margin-top: 40px; width: 220px"><input aria-label="Target field" readonly onclick="log('input')"></div>
<div id="cookies" style="position: fixed; left: 0; right: 0; top: 0; height: 120px; background: #333; color: white" onclick="log('banner')">We use cookies <button>Accept</button></div>`,
    cover: /<div id="cookies">/,
  },
  'a toast': {
    body: `<div tabindex="-1" onclick="log('field')" style="margin-top: 40px; width: 220px"><input aria-label="Target field" readonly onclick="log('input')"></div>
<div id="toast" role="status" style="position: fixed; left: 0; top: 30px; width: 400px; padding: 12px; background: #222; color: white" onclick="log('toast')">Saved</div>`,
    cover: /<div id="toast">/,
  },
  "another widget's element": {
    body: `<div tabindex="-1" onclick="log('other widget')" style="position: relative; width: 220px"><input aria-label="Country" readonly value="Austria">
  <ul role="listbox" aria-label="Countries" style="position: absolute; left: 0; top: 100%; margin: 0; width: 200px; background: white; z-index: 1; list-style: none; padding: 0">
    <li role="option" id="opt-be" onclick="log('Belgium')" style="height: 24px">Belgium</li><li role="option" onclick="log('Chile')" style="height: 24px">Chile</li></ul></div>
<div tabindex="-1" onclick="log('field')" style="width: 220px"><input aria-label="Target field" readonly onclick="log('input')"></div>`,
    cover: /<li id="opt-be">/,
  },
};

describe('input on widgets (issue 21)', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let snap = '';

  const evaluate = async (fn: string) => {
    const r = await mcp.call('evaluate_script', {pageId: 1, function: fn});
    assert.equal(r.isError, false, r.text);
    return JSON.parse(/```json\n([\s\S]*)\n```/.exec(r.text)?.[1] ?? 'null') as unknown;
  };
  const open = async (path: string) => {
    const r = await mcp.call('navigate_page', {pageId: 1, type: 'url', url: fixtures.url(path)});
    assert.equal(r.isError, false, r.text);
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
  };
  const uid = (pattern: RegExp) => uidOf(snap, pattern);
  const order = () => evaluate(`() => [...document.querySelectorAll('#steps li')].map(li => li.textContent)`);

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/pointer-targets', pointerTargets.html(constructHosts(fixtures)));
    for (const [name, {body}] of Object.entries(COVERS)) {
      fixtures.html(`/cover/${encodeURIComponent(name)}`, logged(body));
    }
    mcp = await startServer({args: ['--viewport=1000x700']});
  });
  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it("clicks a 1x1 px textarea (a code editor's only handle)", async () => {
    await open('/pointer-targets');
    const r = await mcp.call('click', {pageId: 1, uid: uid(/textbox "Editor content"/)});
    assert.equal(r.text, 'Successfully clicked on the element');
    assert.equal(await evaluate(`() => document.getElementById('editor-state').textContent`), 'Editor pressed');
  });

  it('clicks a control through its own placeholder overlay and names what got the event', async () => {
    await open('/pointer-targets');
    const r = await mcp.call('click', {pageId: 1, uid: uid(/textbox "Default role"/)});
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      'Successfully clicked on the element\nThe event went to <div> "Select a role", drawn over the element by its own control (where a user\'s click lands too).',
    );
    assert.equal(await evaluate(`() => document.getElementById('role-state').textContent`), 'Role menu open');
  });

  for (const [name, {cover}] of Object.entries(COVERS)) {
    it(`still refuses a control covered by ${name}, and nothing gets a click`, async () => {
      await open(`/cover/${encodeURIComponent(name)}`);
      const r = await mcp.call('click', {pageId: 1, uid: uid(/textbox "Target field"/)});
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /is covered by another element, /);
      assert.match(r.text, cover);
      assert.deepEqual(await evaluate('() => window.log'), []);
    });
  }

  it('drags onto an item of a list that reorders under the pointer: the item lands at its place', async () => {
    await open('/pointer-targets');
    let r = await mcp.call('drag', {pageId: 1, from_uid: uid(/listitem "One"|"One"/), to_uid: uid(/"Three"/)});
    assert.equal(r.text, 'Successfully dragged an element');
    assert.deepEqual(await order(), ['Two', 'Three', 'One', 'Four'], 'dragged down onto "Three"');
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
    r = await mcp.call('drag', {pageId: 1, from_uid: uid(/"Four"/), to_uid: uid(/"Two"/)});
    assert.equal(r.text, 'Successfully dragged an element');
    assert.deepEqual(await order(), ['Four', 'Two', 'Three', 'One'], 'dragged up onto "Two"');
    assert.equal(await evaluate('() => window.dropped'), 2);
  });
});
