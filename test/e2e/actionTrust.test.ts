/**
 * An action never reports success when it did not happen where it was asked
 * (issue 22, "Actions that report their effect"): a uid whose element the
 * page re-rendered is an error naming the new element's uid (never an action
 * on it), and hover and drag refuse a target under an overlay or under a
 * cross-site iframe, as click does.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

/** `rerender()` replaces the Save button and the Name field with identical new ones; `twins()` adds a second Save. */
const RERENDER = `<!doctype html><title>Rerender</title>
<div id="box"></div>
<script>
window.log = [];
window.render = () => {
  document.getElementById('box').innerHTML = '<button onclick="log.push(\\'save\\')" onmousemove="log.push(\\'hover\\')">Save</button><input aria-label="Name" oninput="log.push(\\'input\\')">';
};
window.twins = () => document.body.insertAdjacentHTML('beforeend', '<button>Save</button>');
render();
</script>`;

const VEIL =
  '<div id="veil" style="position: fixed; left: 0; top: 0; width: 100%; height: 100%; background: rgba(0,0,0,.3)" onmousemove="log.push(\'veil-move\')" ondragover="event.preventDefault()" ondrop="event.preventDefault(); log.push(\'veil-drop\')">Cookie banner</div>';

const DRAG = `<!doctype html><title>Drag</title>
<script>window.log = [];</script>
<div id="card" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', 'card')" style="width: 80px; height: 40px">Card</div>
<div id="zone" ondragover="event.preventDefault()" ondrop="event.preventDefault(); log.push('drop')" style="margin-top: 20px; width: 200px; height: 80px">Zone</div>`;

/**
 * A mouse-driven sortable list (no HTML5 drag): a mirror of the dragged item
 * follows the pointer, as drag libraries draw one. With `VEILED` true, the
 * drag's first move also opens an overlay over the whole page. The log says
 * over which item the button went up.
 */
const MOUSE_DRAG = `<!doctype html><title>Mouse drag</title>
<script>window.log = []; window.veiled = VEILED;</script>
<ul id="list" style="list-style: none; margin: 0; padding: 0">
<li id="a" style="height: 40px">Alpha</li><li id="b" style="height: 40px">Beta</li><li id="c" style="height: 40px">Gamma</li>
</ul>
<script>
let dragging = null;
let mirror = null;
document.getElementById('list').addEventListener('mousedown', e => { dragging = e.target.closest('li'); });
document.addEventListener('mousemove', e => {
  if (!dragging) return;
  if (!mirror) {
    mirror = dragging.cloneNode(true);
    mirror.removeAttribute('id');
    mirror.style.cssText = 'position: fixed; margin: 0; width: 100px; height: 40px; background: #eee';
    document.body.append(mirror);
    if (veiled) document.body.insertAdjacentHTML('beforeend', '<div id="veil" style="position: fixed; inset: 0; background: rgba(0,0,0,.3)">Session expired</div>');
  }
  mirror.style.left = e.clientX - 50 + 'px';
  mirror.style.top = e.clientY - 20 + 'px';
});
document.addEventListener('mouseup', e => {
  if (dragging) log.push(document.elementsFromPoint(e.clientX, e.clientY).find(n => n.localName === 'li' && n.id)?.id);
  dragging = null;
});
</script>`;

describe('actions never succeed elsewhere', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/rerender', RERENDER);
    fixtures.html('/drag', DRAG);
    fixtures.html('/mouse-drag', MOUSE_DRAG.replace('VEILED', 'false'));
    fixtures.html('/mouse-drag-veiled', MOUSE_DRAG.replace('VEILED', 'true'));
    // The drop zone under a veil that only covers it (the card stays free).
    fixtures.html(
      '/drag-veiled',
      DRAG.replace('</div>\n<div id="zone"', '</div>\n<div id="zone"').replace(
        '<script>window.log = [];</script>',
        `<script>window.log = [];</script>${VEIL.replace('top: 0; width: 100%; height: 100%', 'top: 60px; width: 100%; height: 400px')}`,
      ),
    );
    fixtures.html(
      '/hover-veiled',
      `<!doctype html><title>Hover</title><script>window.log = [];</script>
<button onmousemove="log.push('hover')">Menu</button>${VEIL}`,
    );
    fixtures.html(
      '/hover-framed',
      `<!doctype html><title>Framed</title><script>window.log = [];</script>
<button onmousemove="log.push('hover')" style="position: absolute; left: 10px; top: 10px">Menu</button>
<iframe title="Ad" src="${fixtures.crossSiteUrl('/ad')}" style="position: absolute; left: 0; top: 0; width: 300px; height: 120px; border: 0"></iframe>`,
    );
    fixtures.html('/ad', '<!doctype html><title>Ad</title><p>Advert</p>');
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  async function open(path: string): Promise<string> {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url(path)});
    return (await mcp.call('take_snapshot', {pageId: 1})).text;
  }

  async function log(): Promise<unknown> {
    const r = await mcp.call('evaluate_script', {pageId: 1, function: '() => window.log'});
    return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(r.text)?.[1] ?? 'null');
  }

  for (const tool of ['click', 'hover', 'fill'] as const) {
    it(`${tool} on a uid the page re-rendered is an error naming the new uid, and acts on nothing`, async () => {
      const snap = await open('/rerender');
      const old = uidOf(snap, tool === 'fill' ? /textbox "Name"/ : /button "Save"/);
      await mcp.call('evaluate_script', {pageId: 1, function: '() => { render(); log.length = 0; }'});
      const r = await mcp.call(tool, {pageId: 1, uid: old, ...(tool === 'fill' ? {value: 'x'} : {})});
      assert.equal(r.isError, true, r.text);
      const role = tool === 'fill' ? 'textbox "Name"' : 'button "Save"';
      const named = new RegExp(
        `Element with uid ${old} no longer exists on the page\\..*The page re-rendered it: the same ${role} is now uid=(\\d+_\\d+)`,
      ).exec(r.text);
      assert.ok(named, r.text);
      assert.notEqual(named[1], old);
      assert.deepEqual(await log(), [], 'nothing got the action');
      // The uid it names is the new element, usable at once.
      const again = await mcp.call(tool, {pageId: 1, uid: named[1], ...(tool === 'fill' ? {value: 'x'} : {})});
      assert.equal(again.isError, false, again.text);
      const expected = {fill: 'input', click: 'save', hover: 'hover'}[tool];
      assert.ok(((await log()) as string[]).includes(expected), `the new element got the ${tool}`);
    });
  }

  it('with effect too, a re-rendered uid names the new one', async () => {
    const snap = await open('/rerender');
    const old = uidOf(snap, /button "Save"/);
    await mcp.call('evaluate_script', {pageId: 1, function: '() => { render(); log.length = 0; }'});
    const r = await mcp.call('click', {pageId: 1, uid: old, effect: true});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /The page re-rendered it: the same button "Save" is now uid=\d+_\d+/);
    assert.deepEqual(await log(), []);
  });

  it('names no uid when several elements look the same', async () => {
    const snap = await open('/rerender');
    const old = uidOf(snap, /button "Save"/);
    await mcp.call('evaluate_script', {pageId: 1, function: '() => { render(); twins(); log.length = 0; }'});
    const r = await mcp.call('click', {pageId: 1, uid: old});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /no longer exists on the page\. Take a new snapshot/);
    assert.match(r.text, /2 elements look the same \(button "Save"\)/);
    assert.doesNotMatch(r.text, /is now uid=/);
    assert.deepEqual(await log(), []);
  });

  it('hover refuses an element under an overlay', async () => {
    const snap = await open('/hover-veiled');
    const r = await mcp.call('hover', {pageId: 1, uid: uidOf(snap, /button "Menu"/)});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /is covered by another element, <div id="veil">.*which would get the pointer instead/);
    assert.deepEqual(await log(), []);
  });

  it('hover refuses an element under a cross-site iframe', async () => {
    const snap = await open('/hover-framed');
    const r = await mcp.call('hover', {pageId: 1, uid: uidOf(snap, /button "Menu"/)});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /is covered by another element, <iframe/);
    assert.deepEqual(await log(), []);
  });

  it('drag refuses a drop target under an overlay, and drops nothing', async () => {
    const snap = await open('/drag-veiled');
    const r = await mcp.call('drag', {pageId: 1, from_uid: uidOf(snap, / "Card"$/), to_uid: uidOf(snap, / "Zone"$/)});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /is covered by another element, <div id="veil">.*which would get the drop instead/);
    assert.deepEqual(await log(), []);
  });

  it('drag onto a free target still drops', async () => {
    const snap = await open('/drag');
    const r = await mcp.call('drag', {pageId: 1, from_uid: uidOf(snap, / "Card"$/), to_uid: uidOf(snap, / "Zone"$/)});
    assert.equal(r.isError, false, r.text);
    assert.ok(((await log()) as string[]).includes('drop'));
  });

  it('a mouse drag releases over its target, its mirror under the pointer', async () => {
    const snap = await open('/mouse-drag');
    const r = await mcp.call('drag', {pageId: 1, from_uid: uidOf(snap, / "Alpha"$/), to_uid: uidOf(snap, / "Gamma"$/)});
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(await log(), ['c']);
  });

  it('a mouse drag whose drop point an overlay covered during the drag is an error, not released there', async () => {
    const snap = await open('/mouse-drag-veiled');
    const r = await mcp.call('drag', {pageId: 1, from_uid: uidOf(snap, / "Alpha"$/), to_uid: uidOf(snap, / "Gamma"$/)});
    assert.equal(r.isError, true, r.text);
    assert.match(
      r.text,
      /The drop point on uid \S+ was covered during the drag by another element, <div id="veil"> "Session expired", which would get the drop instead\. The drag went back to its start/,
    );
    // Released where it started (over Alpha), not on the drop point.
    assert.deepEqual(await log(), ['a']);
  });
});
