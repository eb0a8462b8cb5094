/**
 * Aimed snapshots (issue 22): take_snapshot's uid, depth, interactive and
 * openLayer, and find_elements, on real apps of the corpus (a Bootstrap
 * modal, a Shoelace menu, a Material listbox) and on big pages. Defaults
 * stay the reference's; every uid shown is the full snapshot's.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {bootstrap} from '../support/corpus/bootstrap.js';
import {materialWeb} from '../support/corpus/materialWeb.js';
import {openCorpusPage, runStep, serveCorpus, snapshot} from '../support/corpus/runner.js';
import {shoelace} from '../support/corpus/shoelace.js';
import type {CorpusPage} from '../support/corpus/types.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const SHOP = `<!doctype html><title>Shop</title>
<header><nav aria-label="Site"><a href="#home">Home</a> <a href="#cart">Cart</a></nav></header>
<main><h1>Shoes</h1><p>Our range.</p>
<h2>Running</h2><p>Fast ones.</p><button>Add runner</button>
<h3>Trail</h3><button>Add trail</button>
<h2>Walking</h2><ul><li>Comfy</li><li>Light</li></ul><button>Add walker</button>
<form aria-label="Newsletter"><label>Email <input id="email" value="a@b.c"></label><button>Join</button></form></main>`;

function bigPage(count: number): string {
  const items = Array.from({length: count}, (_, i) => `<li><button>b${i}</button></li>`).join('');
  return `<!doctype html><title>Big</title><main><h1>Buttons</h1><ul>${items}</ul></main>`;
}

/** The lines of a snapshot answer after its heading. */
const body = (text: string) => text.split('\n').slice(1);

describe('aimed snapshots', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    await serveCorpus(fixtures, [bootstrap, shoelace, materialWeb]);
    fixtures.html('/shop', SHOP);
    fixtures.html('/big', bigPage(5000));
    mcp = await startServer({args: ['--maxOutputChars', '0']});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.call(name, {pageId: 1, ...args});
    assert.equal(r.isError, false, r.text);
    return r.text;
  };

  /** Opens a corpus page and does its steps up to (and with) the one labelled `upTo`. */
  async function openAndStep(page: CorpusPage, upTo: string): Promise<void> {
    await openCorpusPage(mcp, fixtures, page);
    for (const step of page.steps) {
      await runStep(mcp, await snapshot(mcp), step);
      if (step.label === upTo) {
        return;
      }
    }
    assert.fail(`no step ${upTo}`);
  }

  it('interactive: only what can be acted on, under its landmark and heading; uids unchanged', async () => {
    await call('navigate_page', {url: fixtures.url('/shop')});
    const full = await call('take_snapshot', {});
    const text = await call('take_snapshot', {interactive: true});
    const url = fixtures.url('/shop');
    const u = (pattern: RegExp) => uidOf(full, pattern);
    assert.deepEqual(body(text), [
      'Interactive elements only (7 of 22 nodes), each under the landmark, dialog or heading it sits in.',
      `uid=${u(/RootWebArea/)} RootWebArea "Shop" url="${url}"`,
      `  uid=${u(/banner/)} banner`,
      `    uid=${u(/navigation/)} navigation "Site"`,
      `      uid=${u(/link "Home"/)} link "Home" url="${url}#home"`,
      `      uid=${u(/link "Cart"/)} link "Cart" url="${url}#cart"`,
      `  uid=${u(/main/)} main`,
      `    uid=${u(/heading "Shoes"/)} heading "Shoes" level="1"`,
      `      uid=${u(/heading "Running"/)} heading "Running" level="2"`,
      `        uid=${u(/button "Add runner"/)} button "Add runner"`,
      `        uid=${u(/heading "Trail"/)} heading "Trail" level="3"`,
      `          uid=${u(/button "Add trail"/)} button "Add trail"`,
      `      uid=${u(/heading "Walking"/)} heading "Walking" level="2"`,
      `        uid=${u(/button "Add walker"/)} button "Add walker"`,
      `        uid=${u(/form/)} form "Newsletter"`,
      `          uid=${u(/textbox "Email"/)} textbox "Email" value="a@b.c"`,
      `          uid=${u(/button "Join"/)} button "Join"`,
      '',
    ]);
    // The uids act at once.
    await call('fill', {uid: u(/textbox "Email"/), value: 'x@y.z'});
    const changed = await call('take_snapshot', {interactive: true, sinceLast: true});
    assert.match(changed, /^## Changes since the previous snapshot\n/);
    assert.match(
      changed,
      new RegExp(`^~ {11}uid=${u(/textbox "Email"/)} textbox "Email" focusable focused value="x@y.z"$`, 'm'),
    );
    assert.doesNotMatch(changed, /Add runner|"Our range."/);
  });

  it('uid and depth: one subtree after its ancestor chain, cut at a depth with counts', async () => {
    await call('navigate_page', {url: fixtures.url('/shop')});
    const full = await call('take_snapshot', {});
    const form = uidOf(full, /form "Newsletter"/);
    const root = uidOf(full, /RootWebArea/);
    const main = uidOf(full, /main/);
    const text = await call('take_snapshot', {uid: form});
    assert.deepEqual(body(text), [
      `In: uid=${root} RootWebArea "Shop" > uid=${main} main`,
      `uid=${form} form "Newsletter"`,
      `  uid=${uidOf(full, /"Email "$/)} "Email "`,
      `  uid=${uidOf(full, /textbox "Email"/)} textbox "Email" value="a@b.c"`,
      `  uid=${uidOf(full, /button "Join"/)} button "Join"`,
      '',
    ]);
    const shallow = await call('take_snapshot', {depth: 1});
    assert.deepEqual(body(shallow), [
      `uid=${root} RootWebArea "Shop" url="${fixtures.url('/shop')}"`,
      `  uid=${uidOf(full, /banner/)} banner [+4 below]`,
      `  uid=${main} main [+15 below]`,
      '19 deeper nodes not shown (depth 1); "[+N below]" marks where. Pass a uid to see its subtree.',
      '',
    ]);
    // A uid the page does not have is a clear error.
    const gone = await mcp.call('take_snapshot', {pageId: 1, uid: '999_1'});
    assert.equal(gone.isError, true);
    assert.match(gone.text, /Element uid "999_1" is not on the page \(anymore\): take a snapshot without uid/);
    // Defaults are untouched: the plain snapshot has no view lines.
    assert.equal(await call('take_snapshot', {}), full);
  });

  it('a Bootstrap modal: named at the top, and its subtree alone by uid', async () => {
    await openAndStep(bootstrap, 'open the modal');
    const full = await snapshot(mcp);
    assert.doesNotMatch(full, /^Open:/m);
    const dialog = uidOf(full, /dialog "Delete this report\?"/);
    const text = await call('take_snapshot', {interactive: true});
    assert.equal(
      body(text)[0],
      `Open: modal dialog uid=${dialog} "Delete this report?" (focus inside). Pass its uid to take_snapshot or find_elements to see only it.`,
    );
    const scoped = await call('take_snapshot', {uid: dialog, interactive: true});
    assert.deepEqual(body(scoped).slice(1), [
      'Interactive elements only (4 of 6 nodes), each under the landmark, dialog or heading it sits in.',
      `uid=${dialog} dialog "Delete this report?" focusable focused modal`,
      `  uid=${uidOf(full, /heading "Delete this report\?"/)} heading "Delete this report?" level="2"`,
      `    uid=${uidOf(full, /button "Close"/)} button "Close"`,
      `    uid=${uidOf(full, /button "Keep it"/)} button "Keep it"`,
      `    uid=${uidOf(full, /button "Delete"$/)} button "Delete"`,
      '',
    ]);
    await call('click', {uid: uidOf(scoped, /button "Delete"$/)});
  });

  it('a Shoelace menu and a Material listbox are named with openLayer; nothing open says so', async () => {
    await openAndStep(shoelace, 'open the dropdown');
    const menu = uidOf(await snapshot(mcp), /menu orientation/);
    const open = await call('take_snapshot', {openLayer: true, depth: 0});
    assert.equal(
      body(open)[0],
      `Open: menu uid=${menu}. Pass its uid to take_snapshot or find_elements to see only it.`,
    );

    await openAndStep(materialWeb, 'open the select');
    const listbox = uidOf(await snapshot(mcp), /listbox "Country"/);
    const named = await call('take_snapshot', {openLayer: true, depth: 0});
    assert.match(body(named)[0] ?? '', new RegExp(`^Open: listbox uid=${listbox} "Country"( \\(focus inside\\))?\\. `));

    await call('navigate_page', {url: fixtures.url('/shop')});
    const none = await call('take_snapshot', {openLayer: true, depth: 0});
    assert.equal(body(none)[0], 'Open: no modal dialog, menu or listbox.');
  });

  it('find_elements on a 5000-button page: one button for under 1% of the snapshot, and its uid clicks', async () => {
    await call('navigate_page', {url: fixtures.url('/big')});
    const full = await call('take_snapshot', {});
    const found = await call('find_elements', {query: 'B4321'});
    const uid = uidOf(full, /button "b4321"$/);
    assert.deepEqual(found.split('\n'), [`In: uid=${uidOf(full, /main/)} main`, `  uid=${uid} button "b4321"`]);
    const share = found.length / full.length;
    assert.ok(share < 0.01, `find_elements took ${found.length} characters against ${full.length} (${share})`);
    await call('click', {uid});
    const many = await call('find_elements', {query: 'b43', role: 'button', limit: 2});
    assert.match(many, /^109 more matched: narrow the query/m);
    assert.match(many, new RegExp(`^  uid=\\S+ button "b43"$`, 'm'));
    const none = await call('find_elements', {query: 'b43', role: 'link'});
    assert.match(none, /^No element matches "b43" \(role link\) among 5003 nodes\./m);
    const bad = await mcp.call('find_elements', {pageId: 1, query: 'x', limit: 0});
    assert.equal(bad.isError, true);
  });

  it('interactive, sinceLast and maxChars combine on a big page', async () => {
    await call('navigate_page', {url: fixtures.url('/big')});
    const cut = await call('take_snapshot', {interactive: true, maxChars: 500});
    assert.ok(cut.length < 700, cut);
    assert.match(cut, /\[Output cut at 500 characters: /);
    await call('evaluate_script', {
      function:
        '() => { document.querySelector("ul").insertAdjacentHTML("beforeend", "<li><button>extra</button></li>"); }',
    });
    const changed = await call('take_snapshot', {interactive: true, sinceLast: true});
    assert.match(changed, /^\+ {7}uid=\S+ button "extra"$/m);
    assert.match(changed, /Unchanged: 5003 of 5004 nodes/);
    assert.ok(changed.length < 1000, changed);
  });
});
