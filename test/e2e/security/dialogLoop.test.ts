import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {type CallResult, startServer, type TestServer} from '../../support/mcpClient.js';
import {uidOf} from '../../support/snapshotText.js';

/** Bound of waiting for a state the page reaches by itself. */
const STATE_MS = 30_000;

/** A button that shows `count` alerts in a row, then writes `done` into the page. */
function loopPage(title: string, prefix: string, count: number): string {
  return `<title>${title}</title><p id="out">waiting</p><button onclick="for (let i = 0; i < ${count}; i++) alert('${prefix}' + i); document.getElementById('out').textContent = '${prefix} done'">Start</button>`;
}

/**
 * Dialog state follows Chrome's events: an alert() loop, in the page, in an
 * out-of-process iframe or in a popup, is answered one alert after another
 * (handle_dialog never says "No open dialog found" while one is open), tools
 * report the open dialog instead of hanging, and a navigation the dialogs
 * hold back is not reported as done.
 */
describe('alert() loops', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/loop', loopPage('Loop', 'n', 12));
    fixtures.html('/held', loopPage('Held', 'h', 30));
    fixtures.html('/inner', loopPage('Inner', 'f', 6));
    fixtures.html(
      '/outer',
      `<title>Outer</title><h1>outer</h1><iframe src="${fixtures.crossSiteUrl('/inner')}"></iframe>`,
    );
    fixtures.html('/opener', `<title>Opener</title><button onclick="window.open('/popup')">Open popup</button>`);
    fixtures.html(
      '/popup',
      `<title>Popup</title><p id="out">waiting</p><script>setTimeout(() => { for (let i = 0; i < 5; i++) alert('p' + i); document.getElementById('out').textContent = 'p done'; }, 0)</script>`,
    );
    fixtures.html('/other', '<title>Other</title><p>other</p>');
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  /** Waits until page `pageId` reports the alert `message` open (a tool that is not blocked by dialogs shows it). */
  async function waitForAlert(pageId: number, message: string): Promise<void> {
    const deadline = Date.now() + STATE_MS;
    let last: CallResult | undefined;
    while (Date.now() < deadline) {
      last = await mcp.call('list_console_messages', {pageId});
      if (last.text.includes(`# Open dialog\nalert: ${message}.`)) {
        return;
      }
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    assert.fail(`alert "${message}" was never reported open on page ${pageId}; last response:\n${last?.text}`);
  }

  /** Waits until `text` is in page `pageId`'s snapshot. */
  async function waitForText(pageId: number, text: string): Promise<CallResult> {
    const deadline = Date.now() + STATE_MS;
    let last: CallResult | undefined;
    while (Date.now() < deadline) {
      last = await mcp.call('take_snapshot', {pageId});
      if (!last.isError && last.text.includes(text)) {
        return last;
      }
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    assert.fail(`"${text}" never showed on page ${pageId}; last snapshot:\n${last?.text}`);
  }

  /** Clicks the button named `name` in page `pageId` (its uid from a fresh snapshot). */
  async function clickButton(pageId: number, name: string): Promise<CallResult> {
    const snapshot = await mcp.call('take_snapshot', {pageId});
    return mcp.call('click', {pageId, uid: uidOf(snapshot.text, new RegExp(`button "${name}"`))});
  }

  /** Answers alerts `prefix`0 … `prefix`(count-1) of page `pageId` one by one, each once it is open. */
  async function acceptAll(pageId: number, prefix: string, count: number, from = 0): Promise<void> {
    for (let i = from; i < count; i++) {
      await waitForAlert(pageId, `${prefix}${i}`);
      const r = await mcp.call('handle_dialog', {pageId, action: 'accept'});
      assert.equal(r.isError, false, `alert ${prefix}${i}: ${r.text}`);
      assert.match(r.text, /^Successfully accepted the dialog\n/);
    }
  }

  it('answers every alert of a loop in the page; tools report the open one instead of hanging', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/loop')});
    const click = await clickButton(1, 'Start');
    assert.match(click.text, /# Open dialog\nalert: n0\./);
    await acceptAll(1, 'n', 4);
    await waitForAlert(1, 'n4');
    // Paused by the dialog: reported at once, with the dialog to answer.
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    assert.equal(snapshot.isError, true, snapshot.text);
    assert.match(snapshot.text, /# Open dialog\nalert: n4\.\nCall handle_dialog to handle it before continuing\./);
    const shot = await mcp.call('take_screenshot', {pageId: 1});
    assert.equal(shot.isError, true, shot.text);
    assert.match(shot.text, /alert: n4\./);
    await acceptAll(1, 'n', 12, 4);
    await waitForText(1, 'n done');
    const none = await mcp.call('handle_dialog', {pageId: 1, action: 'accept'});
    assert.match(none.text, /Error: No open dialog found$/);
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/other')});
    assert.match(nav.text, /^Successfully navigated to .*\/other\.\n/);
    assert.match((await mcp.call('list_pages')).text, /1: Other \(.*\/other\) \[selected\]/);
  });

  it('never reports a navigation the dialogs hold back as done', async () => {
    const opened = await mcp.call('new_page', {url: fixtures.url('/held')});
    const pageId = Number(/(\d+): Held .*\[selected\]/.exec(opened.text)?.[1]);
    assert.ok(pageId > 1, opened.text);
    await clickButton(pageId, 'Start');
    await acceptAll(pageId, 'h', 2);
    await waitForAlert(pageId, 'h2');
    const nav = await mcp.call('navigate_page', {pageId, url: fixtures.url('/other')});
    assert.doesNotMatch(nav.text, /Successfully navigated/, nav.text);
    assert.match(nav.text, /dialog/);
    const list = await mcp.call('list_pages');
    assert.match(list.text, new RegExp(`${pageId}: .*/held`), 'the page stayed where it was');
    const closed = await mcp.call('close_page', {pageId});
    assert.equal(closed.isError, false, closed.text);
  });

  it('answers every alert of a loop in an out-of-process iframe', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/outer')});
    await waitForText(1, 'button "Start"');
    const click = await clickButton(1, 'Start');
    assert.match(click.text, /# Open dialog\nalert: f0\./);
    await acceptAll(1, 'f', 6);
    await waitForText(1, 'f done');
  });

  it('answers every alert of a loop in a popup, on the popup', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/opener')});
    await clickButton(1, 'Open popup');
    const deadline = Date.now() + STATE_MS;
    let popupId = 0;
    while (!popupId && Date.now() < deadline) {
      popupId = Number(/(\d+): .*\/popup/.exec((await mcp.call('list_pages')).text)?.[1] ?? 0);
    }
    assert.ok(popupId, 'the popup never showed in list_pages');
    await acceptAll(popupId, 'p', 5);
    await waitForText(popupId, 'p done');
    const opener = await mcp.call('take_snapshot', {pageId: 1});
    assert.equal(opener.isError, false, opener.text);
  });

  it('stops answering the alerts of an endless loop in evaluate_script: the call names the loop, the next alert stays open', async () => {
    // MAX_ANSWERED_DIALOGS in src/browser/core/navigationWatcher.ts.
    const max = 20;
    const opened = await mcp.call('new_page', {url: fixtures.url('/other')});
    const pageId = Number(/(\d+): Other .*\[selected\]/.exec(opened.text)?.[1]);
    assert.ok(pageId > 1, opened.text);
    const looped = await mcp.call('evaluate_script', {
      pageId,
      function: '() => { for (let i = 1; ; i++) alert("again " + i); }',
    });
    assert.equal(looped.isError, true, looped.text);
    assert.match(
      looped.text,
      new RegExp(
        `The page opens dialogs in a loop: ${max} were answered during this call and the next, an alert \\("again ${max + 1}"\\), is left open, which pauses the page's scripts`,
      ),
      looped.text,
    );
    // Nobody answers it any more: the page stays paused on that alert.
    await waitForAlert(pageId, `again ${max + 1}`);
    // The agent's answer lets the loop go one step further, to the next alert, which stays open too.
    const answered = await mcp.call('handle_dialog', {pageId, action: 'accept'});
    assert.equal(answered.isError, false, answered.text);
    await waitForAlert(pageId, `again ${max + 2}`);
    const closed = await mcp.call('close_page', {pageId});
    assert.equal(closed.isError, false, closed.text);
  });
});
