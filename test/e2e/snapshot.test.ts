import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const GOLDEN_PAGE = `<!doctype html><title>Golden</title><main><h1>Hello</h1><p>Some text</p><a href="/next">Next</a>
<button disabled>Off</button><input aria-label="Name" value="v"><input type="checkbox" aria-label="Ok" checked>
<select aria-label="S"><option>A</option><option selected>B</option></select></main>`;

const LIST_PAGE = `<!doctype html><title>List</title><ul id="list"></ul>
<script>
function render(items) { document.getElementById('list').innerHTML = items.map(i => '<li><button>' + i + '</button></li>').join(''); }
render(['alpha', 'beta']);
</script>`;

describe('take_snapshot', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/golden', GOLDEN_PAGE);
    fixtures.html('/list', LIST_PAGE);
    fixtures.html('/next', '<title>Next</title><p>next page</p>');
    mcp = await startServer({args: ['--experimentalVision']});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('refuses element tools before any snapshot', async () => {
    const r = await mcp.call('click', {pageId: 1, uid: '1_1'});
    assert.equal(r.isError, true);
    assert.equal(r.text, 'Error: No snapshot found for page 1. Use take_snapshot to capture one.');
  });

  it('prints the golden format', async () => {
    const url = fixtures.url('/golden');
    await mcp.call('navigate_page', {pageId: 1, url});
    const r = await mcp.call('take_snapshot', {pageId: 1});
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      [
        '## Latest page snapshot',
        `uid=1_0 RootWebArea "Golden" url="${url}"`,
        '  uid=1_1 main',
        '    uid=1_2 heading "Hello" level="1"',
        '    uid=1_3 "Some text"',
        `    uid=1_4 link "Next" url="${fixtures.url('/next')}"`,
        // 1_5 is the link's text, which the printout leaves out as redundant (as the reference numbers it).
        '    uid=1_6 button "Off" disableable disabled',
        '    uid=1_7 textbox "Name" value="v"',
        '    uid=1_8 checkbox "Ok" checked',
        '    uid=1_9 combobox "S" expandable haspopup="menu" value="B"',
        '      uid=1_10 option "A"',
        '      uid=1_11 option "B" selected',
        '',
      ].join('\n'),
    );
  });

  it('marks the focused element', async () => {
    await mcp.call('evaluate_script', {pageId: 1, function: '() => document.querySelector("input").focus()'});
    const r = await mcp.call('take_snapshot', {pageId: 1});
    assert.match(r.text, /uid=1_7 textbox "Name" focusable focused value="v"/);
  });

  it('keeps uids of nodes that still exist and mints new ones for new nodes', async () => {
    await mcp.call('evaluate_script', {
      pageId: 1,
      function:
        '() => { const b = document.createElement("button"); b.textContent = "Added"; document.querySelector("main").prepend(b); }',
    });
    const r = await mcp.call('take_snapshot', {pageId: 1});
    assert.match(r.text, /uid=1_4 link "Next"/);
    assert.match(r.text, /uid=3_0 button "Added"/);
  });

  it('renews uids after a navigation', async () => {
    await mcp.call('navigate_page', {pageId: 1, type: 'reload'});
    const r = await mcp.call('take_snapshot', {pageId: 1});
    assert.match(r.text, /uid=4_\d+ link "Next"/);
    assert.doesNotMatch(r.text, /uid=1_/);
  });

  it('includes every AX node in verbose mode', async () => {
    const r = await mcp.call('take_snapshot', {pageId: 1, verbose: true});
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /InlineTextBox "Hello"/);
    assert.match(r.text, /uid=\d+_\d+ StaticText|uid=\d+_\d+ "Some text"/);
    assert.match(r.text, /ignored/);
  });

  it('saves the snapshot to a file', async () => {
    const path = join(tmpdir(), `cdp-mcp-snapshot-${process.pid}.md`);
    const r = await mcp.call('take_snapshot', {pageId: 1, filePath: path});
    const saved = path.replace(/\.md$/, '.txt');
    assert.equal(r.text, `Saved snapshot to ${saved}.`);
    assert.match(await readFile(saved, 'utf8'), /^uid=\d+_0 RootWebArea "Golden"/);
  });

  it('gives distinct errors for unknown, older and vanished uids', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/list')});
    const first = await mcp.call('take_snapshot', {pageId: 1});
    const alpha = uidOf(first.text, /button "alpha"/);
    await mcp.call('evaluate_script', {pageId: 1, function: "() => render(['gamma', 'delta'])"});
    // The list re-rendered: the old button is gone, and the uid never resolves to another element.
    const stale = await mcp.call('click', {pageId: 1, uid: alpha});
    assert.equal(stale.isError, true);
    assert.match(
      stale.text,
      new RegExp(`Error: Element with uid ${alpha} no longer exists on the page\\. Take a new snapshot`),
    );
    const second = await mcp.call('take_snapshot', {pageId: 1});
    assert.match(second.text, /button "gamma"/);
    const older = await mcp.call('click', {pageId: 1, uid: alpha});
    assert.match(
      older.text,
      new RegExp(`Error: Element uid "${alpha}" not found on page 1\\. It is from an older snapshot`),
    );
    const unknown = await mcp.call('hover', {pageId: 1, uid: '999_1'});
    assert.equal(unknown.text, 'Error: Element uid "999_1" not found on page 1.');
  });

  it('wait_for returns a snapshot', async () => {
    await mcp.call('evaluate_script', {pageId: 1, function: "() => setTimeout(() => render(['late']), 50)"});
    const r = await mcp.call('wait_for', {pageId: 1, text: ['late']});
    assert.equal(r.isError, false, r.text);
    assert.match(
      r.text,
      /^Element matching one of \["late"\] found\.\n## Latest page snapshot\nuid=\d+_0 RootWebArea "List"/,
    );
    assert.match(r.text, /button "late"/);
  });

  it('clicks at coordinates with --experimentalVision', async () => {
    await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => {
        const b = document.createElement('button');
        b.id = 'at';
        b.textContent = 'at';
        b.style.cssText = 'position:fixed;left:0;top:0;width:50px;height:50px';
        b.ondblclick = () => (b.textContent = 'dbl');
        document.body.prepend(b);
      }`,
    });
    const r = await mcp.call('click_at', {pageId: 1, x: 20, y: 20, dblClick: true});
    assert.equal(r.text, 'Successfully double clicked at the coordinates');
    const check = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '() => document.getElementById("at").textContent',
    });
    assert.match(check.text, /"dbl"/);
  });

  it('takes a snapshot of a 2000-button page', async () => {
    const items = Array.from({length: 2000}, (_, i) => `'b${i}'`).join(',');
    await mcp.call('evaluate_script', {pageId: 1, function: `() => render([${items}])`});
    const r = await mcp.call('take_snapshot', {pageId: 1});
    // Over the default output cap: the whole snapshot is in the file the note names.
    const saved = /The whole output \(\d+ characters\) is in (\S+)\. /.exec(r.text)?.[1];
    assert.ok(saved, r.text.slice(-600));
    const whole = await readFile(saved, 'utf8');
    assert.equal(whole.split('\n').filter(l => / button "b\d+"$/.test(l)).length, 2000);
  });
});
