/**
 * Issue 23's audit: every page tool that waits on its page, against a page
 * spinning in while(true), with --pageCallTimeout HUNG_BOUND_S. Each call
 * ends at that bound (its error names it), says the page is busy and what to
 * do, and leaves the other pages' lanes free. Before, most of them waited out
 * Chrome's default 30 s (or a fixed 10 s) whatever the flag, and press_key
 * waited twice.
 */
import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {
  HUNG_BOUND_S,
  type HungBrowser,
  send,
  startedWhile,
  startHungBrowser,
  textOf,
  track,
  until,
} from '../support/hungPages.js';

const PAGE = `<title>Tools</title><h1 style="color: red">Head</h1><button>Press</button><input aria-label="Name">
<input type="file" aria-label="Upload"><div draggable="true">drag me</div><div>drop here</div>`;

describe('--lanes page: every page tool on a spinning page ends at --pageCallTimeout, saying what the page does', () => {
  let hb: HungBrowser;
  let healthy = 0;
  let pageId = 0;
  const uids: Record<string, string> = {};
  const upload = join(tmpdir(), `lanes-hung-tools-${process.pid}.txt`);

  before(async () => {
    writeFileSync(upload, 'upload');
    hb = await startHungBrowser('page', true);
    healthy = await hb.healthyPage();
    hb.fixtures.html('/tools', PAGE);
    hb.fixtures.route('/tools-spinning', {body: 'ok'});
    const opened = await hb.mcp.call('new_page', {url: hb.fixtures.url('/tools')});
    pageId = Number(/^(\d+): .*\/tools/m.exec(opened.text)?.[1]);
    const snapshot = await hb.mcp.call('take_snapshot', {pageId});
    const uid = (what: RegExp) => {
      const found = new RegExp(`uid=(\\S+) ${what.source}`).exec(snapshot.text)?.[1];
      assert.ok(found, `${what.source} in ${snapshot.text}`);
      return found;
    };
    Object.assign(uids, {
      heading: uid(/heading "Head"/),
      button: uid(/button "Press"/),
      name: uid(/textbox "Name"/),
      upload: uid(/button "Upload"[^\n]*/),
      drag: uid(/[^\n]*"drag me"/),
      drop: uid(/[^\n]*"drop here"/),
    });
    // The uids are taken; now the page never yields again.
    await hb.mcp.call('evaluate_script', {
      pageId,
      function: `() => { setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', '/tools-spinning', false); x.send(); while (true) {} }); }`,
    });
    await until(() => hb.fixtures.requests.some(r => r.url === '/tools-spinning'), `page ${pageId} to start spinning`);
  });

  after(async () => {
    await hb?.close();
  });

  const calls: Array<[string, () => Record<string, unknown>]> = [
    ['get_css_styles', () => ({uid: uids.heading})],
    ['click', () => ({uid: uids.button})],
    ['hover', () => ({uid: uids.button})],
    ['fill_form', () => ({elements: [{uid: uids.name, value: 'x'}]})],
    ['drag', () => ({from_uid: uids.drag, to_uid: uids.drop})],
    ['upload_file', () => ({uid: uids.upload, filePaths: [upload]})],
    ['press_key', () => ({key: 'Control+A'})],
    ['type_text', () => ({text: 'ab'})],
    ['emulate', () => ({colorScheme: 'dark'})],
    ['get_page_text', () => ({})],
    ['take_heapsnapshot', () => ({filePath: join(tmpdir(), `lanes-hung-tools-${process.pid}.heapsnapshot`)})],
    ['screencast_start', () => ({})],
  ];

  it('a call on a page whose navigation never gets its response says the page is navigating, not busy', async () => {
    let release!: () => void;
    const held = new Promise<void>(resolve => (release = resolve));
    hb.fixtures.route('/never-answers', async (_req, res) => {
      await held;
      res.writeHead(204).end();
    });
    try {
      hb.fixtures.html('/before-navigation', '<title>Before</title><h1>Before</h1>');
      const opened = await hb.mcp.call('new_page', {url: hb.fixtures.url('/before-navigation')});
      const navigating = Number(/^(\d+): .*\/before-navigation/m.exec(opened.text)?.[1]);
      const snapshot = await hb.mcp.call('take_snapshot', {pageId: navigating});
      const heading = /uid=(\S+) heading "Before"/.exec(snapshot.text)?.[1];
      assert.ok(heading, snapshot.text);
      // The navigation's own timeout ends navigate_page; Chrome goes on waiting for the response.
      const navigation = await hb.mcp.call('navigate_page', {
        pageId: navigating,
        url: hb.fixtures.url('/never-answers'),
        timeout: 1000,
      });
      assert.match(navigation.text, /Navigation timeout/, navigation.text);
      await until(
        () => hb.fixtures.requests.some(r => r.url === '/never-answers'),
        'the navigation to ask for its page',
      );
      const styles = await hb.mcp.call('get_css_styles', {pageId: navigating, uid: heading});
      assert.equal(styles.isError, true, styles.text);
      assert.match(styles.text, new RegExp(`within ${HUNG_BOUND_S * 1000} ms`), styles.text);
      assert.match(styles.text, new RegExp(`Page ${navigating} is navigating to \\S+/never-answers`), styles.text);
      assert.doesNotMatch(styles.text, /is busy/, styles.text);
    } finally {
      release();
    }
  });

  it('save_storage_state says which page it could not read', async () => {
    const saved = await hb.mcp.call('save_storage_state', {
      pageId: healthy,
      filePath: join(tmpdir(), `lanes-hung-tools-${process.pid}.json`),
    });
    assert.equal(saved.isError, false, saved.text);
    assert.match(saved.text, /Saved the storage state/, saved.text);
    // Before, the spinning page's origins were left out without a word.
    assert.match(saved.text, new RegExp(`Page ${pageId} did not answer .* not in the file`), saved.text);
  });

  for (const [tool, args] of calls) {
    it(tool, async () => {
      const before = hb.runs(tool, pageId);
      const hung = track(send(hb, tool, {pageId, ...args()}));
      await hb.running(tool, before, pageId);
      // Its lane only is held: a call on another page starts meanwhile.
      const {result, during} = await startedWhile(hb.mcp.stderr, 'list_console_messages', healthy, hung, () =>
        hb.mcp.call('list_console_messages', {pageId: healthy}),
      );
      assert.equal(result.isError, false, result.text);
      assert.equal(during, true, `${tool} ended before a call on another page started`);
      const text = textOf(await hung.promise);
      assert.match(text, new RegExp(`within ${HUNG_BOUND_S * 1000} ms|within ${HUNG_BOUND_S} s`), text);
      assert.match(text, new RegExp(`Page ${pageId} is busy: .* close_page`), text);
      assert.match(text, new RegExp(`${tool} gave up on it; calls on other pages were not held back`), text);
    });
  }
});
