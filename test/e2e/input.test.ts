import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {CHILD_FRAME, CROSS_FRAME, framesPage} from '../support/fixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const FORM = `<!doctype html><title>Form</title><form id="f" onsubmit="event.preventDefault(); window.submitted = (window.submitted || 0) + 1">
<input aria-label="Text" value="old"><input type="email" aria-label="Email"><input type="password" aria-label="Secret">
<input type="number" aria-label="Count"><input type="search" aria-label="Query"><input type="tel" aria-label="Phone">
<input type="url" aria-label="Site"><textarea aria-label="Notes"></textarea>
<select aria-label="Fruit"><option value="a">Apple</option><option value="b">Banana</option></select>
<select aria-label="Size"><option value="s">Small</option><option value="l">Large</option></select>
<input type="checkbox" aria-label="Agree"><input type="checkbox" aria-label="News" checked>
<input type="radio" name="r" aria-label="One"><input type="radio" name="r" aria-label="Two">
<input type="date" aria-label="Day"><input type="color" aria-label="Colour"><input type="range" aria-label="Level">
<div contenteditable="true" aria-label="Rich"></div><div role="switch" aria-label="Power" aria-checked="false" tabindex="0" style="display:inline-block; width:20px; height:20px" onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') === 'true' ? 'false' : 'true')"></div>
<input aria-label="Long"><input aria-label="Typed" onkeydown="if (event.key === 'Enter') window.submitted = (window.submitted || 0) + 1">
<button type="button" disabled>Disabled</button>
<button type="button" id="later" style="display:none">Later</button>
</form>`;

const ACTIONS = `<!doctype html><title>Actions</title>
<button id="count" onclick="this.textContent = 'Clicked ' + (++window.clicks || (window.clicks = 1))">Count</button>
<button ondblclick="this.textContent = 'Double'">Dbl</button>
<button onmouseenter="this.textContent = 'Hovered'">Hover me</button>
<button onclick="alert('Hi there')">Alert</button>
<a href="/landing">Go</a>
<button onclick="this.textContent = 'Loading'; setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>Appeared</p>'), 30)">Later text</button>
<div style="height:3000px"></div><button onclick="this.textContent = 'Far clicked'">Far away</button>
<input type="file" id="direct" aria-label="Direct file">
<input type="file" id="hidden" style="display:none" onchange="document.getElementById('picked').textContent = this.files[0].name">
<button onclick="document.getElementById('hidden').click()">Choose</button><span id="picked"></span>
<button>Nothing here</button>
<script>
window.keys = [];
addEventListener('keydown', e => { if (['Control', 'Shift', 'Alt', 'Meta'].includes(e.key)) return; if (e.ctrlKey || e.metaKey || e.altKey) { e.preventDefault(); window.keys.push([e.ctrlKey && 'Control', e.shiftKey && 'Shift', e.altKey && 'Alt', e.key].filter(Boolean).join('+')); } });
</script>`;

const DND = `<!doctype html><title>DnD</title><ul id="list">
<li draggable="true">First</li><li draggable="true">Second</li><li draggable="true">Third</li></ul>
<script>
let dragged;
const list = document.getElementById('list');
list.addEventListener('dragstart', e => { dragged = e.target; e.dataTransfer.setData('text/plain', e.target.textContent); });
list.addEventListener('dragover', e => e.preventDefault());
list.addEventListener('drop', e => {
  e.preventDefault();
  const target = e.target.closest('li');
  if (target && dragged && target !== dragged) { list.insertBefore(dragged, target.nextSibling); window.dropped = e.dataTransfer.getData('text/plain'); }
});
</script>`;

// Which animation frame each move of a pressed pointer came in.
const MOVES = `<!doctype html><title>Moves</title><p>Drag from here</p><div style="height:300px"></div><p>Drop here</p>
<script>
let frame = 0;
(function tick() { frame++; requestAnimationFrame(tick); })();
window.moveFrames = [];
addEventListener('pointermove', e => { if (e.buttons) window.moveFrames.push(frame); });
</script>`;

describe('input tools', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let snap = '';

  const evaluate = async (fn: string) => {
    const r = await mcp.call('evaluate_script', {pageId: 1, function: fn});
    assert.equal(r.isError, false, r.text);
    const json = /```json\n([\s\S]*)\n```/.exec(r.text)?.[1] ?? 'null';
    return json === 'undefined' ? undefined : (JSON.parse(json) as unknown);
  };
  const open = async (path: string) => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url(path)});
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
  };
  const uid = (pattern: RegExp) => uidOf(snap, pattern);

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/form', FORM);
    fixtures.html('/actions', ACTIONS);
    fixtures.html('/dnd', DND);
    fixtures.html('/moves', MOVES);
    fixtures.html('/landing', '<title>Landing</title><p>landed</p>');
    fixtures.html('/frames', framesPage(`http://localhost:${fixtures.port}`));
    fixtures.html('/child', CHILD_FRAME);
    fixtures.html('/cross', CROSS_FRAME);
    mcp = await startServer({args: ['--chromeArg=--site-per-process']});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('fills every kind of form control', async () => {
    await open('/form');
    const values: Array<[RegExp, string]> = [
      [/textbox "Text"/, 'new text'],
      [/textbox "Email"/, 'a@b.c'],
      [/textbox "Secret"/, 'pw'],
      [/spinbutton "Count"/, '42'],
      [/searchbox "Query"/, 'find me'],
      [/textbox "Phone"/, '+1 555'],
      [/textbox "Site"/, 'https://x.y/'],
      [/textbox "Notes"/, 'line one'],
      [/combobox "Fruit"/, 'Banana'],
      [/combobox "Size"/, 'l'],
      [/checkbox "Agree"/, 'true'],
      [/checkbox "News"/, 'false'],
      [/radio "Two"/, 'true'],
      [/Date "Day"/, '2024-05-06'],
      [/ColorWell "Colour"/, '#00ff00'],
      [/slider "Level"/, '70'],
      [/generic "Rich"|textbox "Rich"/, 'rich text'],
      [/switch "Power"/, 'true'],
      [/textbox "Long"/, 'x'.repeat(150)],
    ];
    for (const [pattern, value] of values) {
      const r = await mcp.call('fill', {pageId: 1, uid: uid(pattern), value});
      assert.equal(r.isError, false, `${pattern}: ${r.text}`);
      assert.equal(r.text, 'Successfully filled out the element');
    }
    const state = await evaluate(`() => {
      const q = l => document.querySelector('[aria-label="' + l + '"]');
      return [q('Text').value, q('Email').value, q('Secret').value, q('Count').value, q('Query').value, q('Phone').value,
        q('Site').value, q('Notes').value, q('Fruit').value, q('Size').value, q('Agree').checked, q('News').checked,
        q('Two').checked, q('Day').value, q('Colour').value, q('Level').value, q('Rich').innerText.trim(),
        q('Power').getAttribute('aria-checked'), q('Long').value.length];
    }`);
    assert.deepEqual(state, [
      'new text',
      'a@b.c',
      'pw',
      '42',
      'find me',
      '+1 555',
      'https://x.y/',
      'line one',
      'b',
      'l',
      true,
      false,
      true,
      '2024-05-06',
      '#00ff00',
      '70',
      'rich text',
      'true',
      150,
    ]);
  });

  it('fill_form fills several elements and reports bad toggle values', async () => {
    const r = await mcp.call('fill_form', {
      pageId: 1,
      elements: [
        {uid: uid(/textbox "Text"/), value: 'from form'},
        {uid: uid(/combobox "Fruit"/), value: 'Apple'},
      ],
    });
    assert.equal(r.text, 'Successfully filled out the form');
    assert.deepEqual(
      await evaluate(
        `() => [document.querySelector('[aria-label="Text"]').value, document.querySelector('[aria-label="Fruit"]').value]`,
      ),
      ['from form', 'a'],
    );
    const bad = await mcp.call('fill', {pageId: 1, uid: uid(/checkbox "Agree"/), value: 'yes'});
    assert.equal(bad.isError, true);
    assert.match(bad.text, /require "true" or "false" value, but yes was used/);
    const missing = await mcp.call('fill', {pageId: 1, uid: uid(/combobox "Fruit"/), value: 'Cherry'});
    assert.match(missing.text, /Could not find option with text "Cherry"/);
  });

  it('types into the focused element and presses a submit key', async () => {
    await mcp.call('click', {pageId: 1, uid: uid(/textbox "Typed"/)});
    const r = await mcp.call('type_text', {pageId: 1, text: 'Hi, you! é', submitKey: 'Enter'});
    assert.equal(r.text, 'Typed text "Hi, you! é + Enter"');
    assert.deepEqual(await evaluate(`() => [document.querySelector('[aria-label="Typed"]').value, window.submitted]`), [
      'Hi, you! é',
      1,
    ]);
  });

  it('refuses disabled elements and times out on hidden ones', async () => {
    const disabled = await mcp.call('click', {pageId: 1, uid: uid(/button "Disabled"/)});
    assert.equal(disabled.isError, true);
    assert.match(disabled.text, /Element with uid \d+_\d+ is disabled/);
    await evaluate(`() => { const b = document.getElementById('later'); b.style.display = ''; }`);
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
    const later = uid(/button "Later"/);
    await evaluate(`() => { document.getElementById('later').style.display = 'none'; }`);
    const hidden = await mcp.call('click', {pageId: 1, uid: later});
    assert.equal(hidden.isError, true);
    assert.match(
      hidden.text,
      /Failed to interact with the element with uid \d+_\d+\. The element did not become interactive within the configured timeout\./,
    );
  });

  it('clicks, double-clicks, hovers and scrolls to far elements', async () => {
    await open('/actions');
    const r = await mcp.call('click', {pageId: 1, uid: uid(/button "Count"/), includeSnapshot: true});
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^Successfully clicked on the element\n## Latest page snapshot\n/);
    assert.match(r.text, /button "Clicked 1"/);
    const dbl = await mcp.call('click', {pageId: 1, uid: uid(/button "Dbl"/), dblClick: true});
    assert.equal(dbl.text, 'Successfully double clicked on the element');
    const hovered = await mcp.call('hover', {pageId: 1, uid: uid(/button "Hover me"/)});
    assert.equal(hovered.text, 'Successfully hovered over the element');
    await mcp.call('click', {pageId: 1, uid: uid(/button "Far away"/)});
    const texts = await evaluate(
      `() => [...document.querySelectorAll('button')].slice(1, 3).map(b => b.textContent).concat(document.querySelectorAll('button')[5].textContent)`,
    );
    assert.deepEqual(texts, ['Double', 'Hovered', 'Far clicked']);
  });

  it('waits for DOM changes the click causes', async () => {
    const r = await mcp.call('click', {pageId: 1, uid: uid(/button "Later text"/), includeSnapshot: true});
    assert.match(r.text, /"Appeared"/);
  });

  it('reports a dialog opened by a click instead of hanging', async () => {
    const r = await mcp.call('click', {pageId: 1, uid: uid(/button "Alert"/)});
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      'Successfully clicked on the element\n# Open dialog\nalert: Hi there.\nCall handle_dialog to handle it before continuing.',
    );
    const handled = await mcp.call('handle_dialog', {pageId: 1, action: 'accept'});
    assert.match(handled.text, /^Successfully accepted the dialog/);
  });

  it('presses keys and shortcuts the page observes', async () => {
    for (const key of ['Control+Shift+K', 'Control++', 'Alt+a', 'Control+A']) {
      const r = await mcp.call('press_key', {pageId: 1, key});
      assert.equal(r.text, `Successfully pressed key: ${key}`);
    }
    assert.deepEqual(await evaluate('() => window.keys'), ['Control+Shift+K', 'Control++', 'Alt+a', 'Control+A']);
    const invalid = await mcp.call('press_key', {pageId: 1, key: 'Control+Nope'});
    assert.match(invalid.text, /^Error: Nope is invalid\. Valid keys are: .*Enter.*\.$/);
    const duplicate = await mcp.call('press_key', {pageId: 1, key: 'Shift+Shift'});
    assert.equal(duplicate.text, 'Error: Key Shift+Shift contains duplicate keys.');
  });

  it('uploads through a file input and through a file chooser', async () => {
    const file = join(tmpdir(), `cdp-mcp-upload-${process.pid}.txt`);
    await writeFile(file, 'hello');
    const direct = await mcp.call('upload_file', {pageId: 1, uid: uid(/button "Direct file"/), filePaths: [file]});
    assert.equal(direct.text, `File uploaded from ${file}.`);
    const chooser = await mcp.call('upload_file', {pageId: 1, uid: uid(/button "Choose"/), filePaths: [file]});
    assert.equal(chooser.isError, false, chooser.text);
    const names = await evaluate(
      `() => [document.getElementById('direct').files[0]?.name, document.getElementById('picked').textContent]`,
    );
    assert.deepEqual(names, [file.split('/').pop(), file.split('/').pop()]);
    const none = await mcp.call('upload_file', {pageId: 1, uid: uid(/button "Nothing here"/), filePaths: [file]});
    assert.equal(none.isError, true);
    assert.match(
      none.text,
      /Failed to upload file\. The element could not accept the file directly, and clicking it did not trigger a file chooser\./,
    );
  });

  it('passes elements to evaluate_script and screenshots one', async () => {
    const r = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '(el) => el.textContent',
      args: [uid(/button "Hover me"|button "Hovered"/)],
    });
    assert.match(r.text, /```json\n"Hovered"\n```/);
    const shot = await mcp.call('take_screenshot', {pageId: 1, uid: uid(/button "Dbl"|button "Double"/)});
    assert.equal(shot.isError, false, shot.text);
    assert.equal(shot.images.length, 1);
  });

  it('reports the navigation a click starts', async () => {
    const r = await mcp.call('click', {pageId: 1, uid: uid(/link "Go"/)});
    assert.equal(r.text, `Successfully clicked on the element\nPage navigated to ${fixtures.url('/landing')}.`);
  });

  it('drags an item of an HTML5 drag-and-drop list', async () => {
    await open('/dnd');
    const r = await mcp.call('drag', {pageId: 1, from_uid: uid(/"First"/), to_uid: uid(/"Third"/)});
    assert.equal(r.text, 'Successfully dragged an element');
    assert.deepEqual(
      await evaluate(`() => [[...document.querySelectorAll('li')].map(li => li.textContent), window.dropped]`),
      [['Second', 'Third', 'First'], 'First'],
    );
  });

  it('moves a dragged pointer one animation frame at a time, as a drag library expects', async () => {
    await open('/moves');
    const r = await mcp.call('drag', {pageId: 1, from_uid: uid(/"Drag from here"/), to_uid: uid(/"Drop here"/)});
    assert.equal(r.text, 'Successfully dragged an element');
    const frames = (await evaluate('() => window.moveFrames')) as number[];
    assert.ok(frames.length >= 3, `moves: ${frames.length}`);
    assert.equal(new Set(frames).size, frames.length, `several moves in one frame: ${frames.join(', ')}`);
  });

  it('acts inside same-origin and out-of-process iframes and shadow roots', async () => {
    await open('/frames');
    await mcp.call('wait_for', {pageId: 1, text: ['Cross button']});
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
    for (const pattern of [/button "In child"/, /button "Cross button"/, /button "Shadow btn"/]) {
      const r = await mcp.call('click', {pageId: 1, uid: uid(pattern)});
      assert.equal(r.isError, false, r.text);
    }
    const after = (await mcp.call('take_snapshot', {pageId: 1})).text;
    assert.match(after, /button "Child clicked"/);
    assert.match(after, /button "Cross clicked 1"/);
    assert.equal(await evaluate('() => window.shadowClicks'), 1);
    snap = after;
    await mcp.call('fill', {pageId: 1, uid: uid(/textbox "cross input"/), value: 'typed across'});
    assert.match(
      (await mcp.call('take_snapshot', {pageId: 1})).text,
      /textbox "cross input" focusable focused value="typed across"/,
    );
    const mixed = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '(a, b) => 1',
      args: [uid(/button "Child clicked"/), uid(/button "Shadow btn"/)],
    });
    assert.equal(mixed.text, "Error: Elements from different frames can't be evaluated together.");
  });

  it('gates click_at behind --experimentalVision', async () => {
    const r = await mcp.call('click_at', {pageId: 1, x: 1, y: 1});
    assert.equal(r.isError, true);
    assert.match(r.text, /requires experimental feature --experimentalVision/);
  });
});
