/**
 * The effect line on the input tools besides click (issue 22, "Actions that
 * report their effect"): fill, fill_form, hover, press_key, type_text and
 * drag say what they did when asked (`effect: true`), and answer as the
 * reference does without it.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {materialWeb} from '../support/corpus/materialWeb.js';
import {openCorpusPage, serveCorpus} from '../support/corpus/runner.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const PAGE = `<!doctype html><title>Effects</title>
<input id="name" aria-label="Name" value="old">
<input id="city" aria-label="City">
<input id="search" aria-label="Search" onkeydown="if (event.key === 'Enter') document.getElementById('out').insertAdjacentHTML('beforeend', '<li>result</li>')">
<button id="menu" onmouseenter="document.getElementById('out').insertAdjacentHTML('beforeend', '<li>item one</li><li>item two</li><li>item three</li>')">Menu</button>
<p>Plain text</p>
<div id="card" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', 'card')" style="width:80px;height:40px;background:#ccc">Card</div>
<div id="zone" ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.insertAdjacentHTML('beforeend', '<button>Dropped</button>')" style="width:200px;height:80px;border:1px solid">Zone</div>
<div id="tap" onclick="document.getElementById('out').insertAdjacentHTML('beforeend', '<li>tapped</li>')"><span>Tap zone</span></div>
<ul id="out"></ul>`;

describe('input effects', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/effects', PAGE);
    await serveCorpus(fixtures, [materialWeb]);
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  async function fresh(): Promise<string> {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/effects')});
    return (await mcp.call('take_snapshot', {pageId: 1})).text;
  }

  async function call(tool: string, args: Record<string, unknown>): Promise<string> {
    const r = await mcp.call(tool, {pageId: 1, ...args});
    assert.equal(r.isError, false, r.text);
    return r.text;
  }

  it('fill says the value changed, and answers as the reference without effect', async () => {
    const snap = await fresh();
    const name = uidOf(snap, /textbox "Name"/);
    assert.equal(await call('fill', {uid: name, value: 'plain'}), 'Successfully filled out the element');
    // The effect line stands for the success line; the field filled goes by its uid.
    assert.equal(
      await call('fill', {uid: name, value: 'new', effect: true}),
      `Effect: value of uid=${name} changed from "plain" to "new".`,
    );
  });

  it('fill_form says which values changed', async () => {
    const snap = await fresh();
    const text = await call('fill_form', {
      elements: [
        {uid: uidOf(snap, /textbox "Name"/), value: 'Ada'},
        {uid: uidOf(snap, /textbox "City"/), value: 'Paris'},
      ],
      effect: true,
    });
    assert.doesNotMatch(text, /Successfully/);
    assert.match(
      text,
      /^Effect: value of uid=\S+ changed from "old" to "Ada"; value of uid=\S+ changed from nothing to "Paris"\.$/,
    );
    assert.doesNotMatch(text, /focus moved/, 'focus moving to a field it filled goes without saying');
  });

  it('hover says what the page added', async () => {
    const snap = await fresh();
    const text = await call('hover', {uid: uidOf(snap, /button "Menu"/), effect: true});
    assert.match(text, /^Effect: nodes: \d+ added\.$/);
    assert.match(
      await call('hover', {uid: uidOf(snap, / "Plain text"$/), effect: true}),
      /^Effect: no observable change\.$/m,
    );
  });

  it('type_text and press_key say what the keys did', async () => {
    const snap = await fresh();
    await call('click', {uid: uidOf(snap, /textbox "Search"/)});
    assert.match(
      await call('type_text', {text: 'abc', effect: true}),
      /^Effect: value of uid=\S+ textbox "Search"[^;]* changed from nothing to "abc"\.$/,
    );
    assert.match(await call('press_key', {key: 'Enter', effect: true}), /^Effect: nodes: \d+ added\.$/);
    assert.match(await call('press_key', {key: 'Shift', effect: true}), /^Effect: no observable change\.$/m);
    assert.equal(await call('press_key', {key: 'Shift'}), 'Successfully pressed key: Shift');
  });

  it('drag says what the drop did', async () => {
    const snap = await fresh();
    const text = await call('drag', {
      from_uid: uidOf(snap, / "Card"$/),
      to_uid: uidOf(snap, / "Zone"$/),
      effect: true,
    });
    assert.match(text, /^Effect: nodes: \d+ added\.$/);
    const after = (await mcp.call('take_snapshot', {pageId: 1})).text;
    assert.match(after, /button "Dropped"/);
  });

  it('keeps a uid only a verbose snapshot shows (its snapshots are verbose when the latest was)', async () => {
    const plain = await fresh();
    // A plain snapshot leaves the container out.
    assert.doesNotMatch(plain, / generic/);
    const lines = (await mcp.call('take_snapshot', {pageId: 1, verbose: true})).text.split('\n');
    const tap = lines.findIndex(l => /"Tap zone"/.test(l));
    const generic = lines
      .slice(0, tap)
      .reverse()
      .find(l => /uid=\S+ generic$/.test(l.trim()));
    assert.ok(generic, lines.join('\n'));
    const uid = /uid=(\S+)/.exec(generic)?.[1] ?? '';
    assert.match(await call('click', {uid, effect: true}), /^Effect: nodes: \d+ added\.$/m);
  });

  it("says a switch turned on, where its line changes only by its state and the focus (material-web's md-switch)", async () => {
    await openCorpusPage(mcp, fixtures, materialWeb);
    const uid = uidOf((await mcp.call('take_snapshot', {pageId: 1})).text, /switch$/);
    assert.equal(await call('click', {uid, effect: true}), `Effect: uid=${uid} now checked.`);
    assert.equal(await call('click', {uid, effect: true}), `Effect: uid=${uid} now not checked.`);
    assert.equal(await call('click', {uid}), 'Successfully clicked on the element');
  });

  it('navigate_page with effect says where the page is, without the page list', async () => {
    const url = fixtures.url('/effects');
    assert.equal(await call('navigate_page', {url, effect: true}), `Effect: navigated to ${url}.`);
    assert.equal(await call('navigate_page', {type: 'reload', effect: true}), `Effect: reloaded ${url}.`);
    assert.match(await call('navigate_page', {url}), /^Successfully navigated to \S+\.\n## Pages\n1: Effects /);
  });
});
