import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {after, before, describe, it} from 'node:test';

import {parseSections} from '../../src/response/sections.js';
import {buttonsPage} from '../support/fixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

/** 300 buttons; "Button 1" appends one more button to the first list when clicked. */
const PAGE = buttonsPage(300).replace(
  '</body>',
  `<script>document.getElementById('b1').onclick = () => { const li = document.createElement('li'); li.innerHTML = '<button>Added</button>'; document.querySelector('ul').append(li); };</script></body>`,
);

describe('take_snapshot sinceLast and maxChars', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/buttons', PAGE);
    mcp = await startServer();
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/buttons')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('gives the full snapshot when there is nothing to compare with', async () => {
    const r = await mcp.call('take_snapshot', {pageId: 1, sinceLast: true});
    assert.match(
      r.text,
      /^## Latest page snapshot\nFull snapshot: there is no previous snapshot of this page to compare with\.\nuid=1_0 RootWebArea "Buttons 300"/,
    );
  });

  it('after a click that adds one element, shows only that element and its ancestors (at most 10% of the full text)', async () => {
    const full = await mcp.call('take_snapshot', {pageId: 1});
    const fullText = parseSections(full.text).snapshot?.join('\n') ?? '';
    const first = uidOf(full.text, /button "Button 1"$/);
    const last = uidOf(full.text, /button "Button 300"$/);
    await mcp.call('click', {pageId: 1, uid: first});
    const r = await mcp.call('take_snapshot', {pageId: 1, sinceLast: true});
    const changes = parseSections(r.text).snapshot ?? [];
    assert.equal(changes[0], '## Changes since the previous snapshot');
    const body = changes.slice(1).join('\n');
    assert.match(
      body,
      /^Lines: "\+" added, "~" changed or moved, the others are their ancestors \(unchanged\)\.\n {2}uid=1_0 RootWebArea "Buttons 300"/,
    );
    // The new button (and its list item, where the engine prints one) is all that was added.
    const added = body.split('\n').filter(l => l.startsWith('+'));
    assert.ok(
      added.some(l => /^\+ +uid=\d+_\d+ button "Added"$/.test(l)),
      body,
    );
    assert.ok(
      added.every(l => /^\+ +uid=\d+_\d+ (button "Added"|listitem)$/.test(l)),
      body,
    );
    // The clicked button got focus: a change, shown as such.
    assert.ok(
      body.split('\n').some(l => /^~ +uid=\d+_\d+ button "Button 1" .*focused/.test(l)),
      body,
    );
    assert.match(body, /\nUnchanged: \d+ of \d+ nodes, not shown; their uids stay valid\.\n$/);
    assert.doesNotMatch(body, /Removed:/);
    assert.ok(
      body.length <= fullText.length * 0.1,
      `${body.length} characters against ${fullText.length} for the full snapshot`,
    );
    const added2 = /uid=(\d+_\d+) button "Added"/.exec(body)?.[1];
    const clickNew = await mcp.call('click', {pageId: 1, uid: added2 ?? ''});
    assert.equal(clickNew.isError, false, 'a uid from the sinceLast snapshot resolves');
    const clickOld = await mcp.call('click', {pageId: 1, uid: last});
    assert.equal(clickOld.isError, false, 'a uid from the earlier full snapshot still resolves');
  });

  it('lists removed uids once and says when nothing changed', async () => {
    await mcp.call('take_snapshot', {pageId: 1});
    const none = await mcp.call('take_snapshot', {pageId: 1, sinceLast: true});
    assert.match(
      none.text,
      /^## Changes since the previous snapshot\nNo changes: all \d+ nodes and their uids are as in the previous snapshot\.\n$/,
    );
    await mcp.call('evaluate_script', {
      pageId: 1,
      function: '() => { for (const id of ["b7", "b8", "b9"]) document.getElementById(id).closest("li").remove(); }',
    });
    const r = await mcp.call('take_snapshot', {pageId: 1, sinceLast: true});
    assert.match(r.text, /\nRemoved: \d+_\d+-\d+_\d+\nUnchanged: /);
  });

  it('cuts a snapshot at maxChars with a note saying how to get the rest', async () => {
    const r = await mcp.call('take_snapshot', {pageId: 1, maxChars: 1000});
    const body = parseSections(r.text).snapshot?.slice(1).join('\n') ?? '';
    assert.ok(body.length <= 1000, `${body.length}`);
    assert.match(
      body,
      /\n\[Output cut at 1000 characters: \d+ more lines \(\d+ characters\) left out\. Call take_snapshot with sinceLast=true for only what changed, with maxChars for a shorter cut, or with filePath to save the whole snapshot to a file\.\]$/,
    );
    const bad = await mcp.call('take_snapshot', {pageId: 1, maxChars: 10});
    assert.match(bad.text, /Invalid arguments for tool "take_snapshot": "maxChars": Invalid value: Expected >=200/);
  });
});

describe('--maxOutputChars', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/buttons', PAGE);
    fixtures.html(
      '/long',
      `<!doctype html><title>Long</title><main>${'<p>A paragraph of prose, long enough to count.</p>'.repeat(200)}</main>`,
    );
    mcp = await startServer({args: ['--maxOutputChars', '2000']});
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/buttons')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('caps every tool, with the tool’s own hint', async () => {
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    assert.ok(snapshot.text.length <= 2000);
    const saved =
      /left out\. The whole output \((\d+) characters\) is in (\S+)\. Call take_snapshot with sinceLast=true for only what changed, with maxChars for a shorter cut, or with filePath to save the whole snapshot to a file\.\]$/.exec(
        snapshot.text,
      );
    assert.ok(saved?.[2], snapshot.text);
    // The file holds the whole output, of the size the note gives.
    const whole = await readFile(saved[2], 'utf8');
    assert.equal(whole.length, Number(saved[1]));
    assert.ok(whole.startsWith(snapshot.text.slice(0, 1000)));
    const script = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '() => Array.from({length: 500}, (_, i) => "item " + i)',
    });
    assert.ok(script.text.length <= 2000);
    assert.match(script.text, /\[Output cut at 2000 characters: \d+ more lines \(\d+ characters\) left out\. .+\]$/);
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/long')});
    const text = await mcp.call('get_page_text', {pageId: 1});
    assert.ok(text.text.length <= 2000);
    assert.match(
      text.text,
      /left out\. The whole output \(\d+ characters\) is in \S+\. Call get_page_text with filePath to save the whole text, or with the uid of the part you need\.\]$/,
    );
    const small = await mcp.call('list_pages');
    assert.doesNotMatch(small.text, /Output cut/);
  });

  it('refuses a cap too small for the note', () => {
    // Checked when the flags are read, before anything starts.
    return startServer({args: ['--maxOutputChars', '10']}).then(
      async s => {
        await s.close();
        assert.fail('the server started');
      },
      (error: unknown) => assert.ok(error),
    );
  });
});
