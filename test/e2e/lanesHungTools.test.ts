/**
 * Issue 23's audit: every page tool that waits on its page, against a page
 * whose main thread never yields, with --pageCallTimeout HUNG_BOUND_S. Each
 * call ends at that bound (its error names it), says the page is busy and
 * what to do, and leaves the other pages' lanes free. Before, most of them
 * waited out Chrome's default 30 s (or a fixed 10 s) whatever the flag, and
 * press_key waited twice.
 *
 * Each tool has a stuck page of its own, and they all run at once (issue 19:
 * the file costs about one bound, not one per tool). The pages are blocked
 * in a request that never gets its answer (hungPages.ts, Holds): stuck as in
 * while (true), which lanesHung.test.ts keeps, without a
 * core spinning for each.
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

type Uids = Record<'heading' | 'button' | 'name' | 'upload' | 'drag' | 'drop', string>;

const PAGE = `<title>Tools</title><h1 style="color: red">Head</h1><button>Press</button><input aria-label="Name">
<input type="file" aria-label="Upload"><div draggable="true">drag me</div><div>drop here</div>`;

/** The uids of PAGE's elements in its snapshot. */
function uidsOf(snapshot: string): Uids {
  const uid = (what: RegExp) => {
    const found = new RegExp(`uid=(\\S+) ${what.source}`).exec(snapshot)?.[1];
    assert.ok(found, `${what.source} in ${snapshot}`);
    return found;
  };
  return {
    heading: uid(/heading "Head"/),
    button: uid(/button "Press"/),
    name: uid(/textbox "Name"/),
    upload: uid(/button "Upload"[^\n]*/),
    drag: uid(/[^\n]*"drag me"/),
    drop: uid(/[^\n]*"drop here"/),
  };
}

describe('--lanes page: every page tool on a stuck page ends at --pageCallTimeout, saying what the page does', () => {
  let hb: HungBrowser;
  let healthy = 0;
  const upload = join(tmpdir(), `lanes-hung-tools-${process.pid}.txt`);
  const calls: Array<[string, (uids: Uids) => Record<string, unknown>]> = [
    ['get_css_styles', uids => ({uid: uids.heading})],
    ['click', uids => ({uid: uids.button})],
    ['hover', uids => ({uid: uids.button})],
    ['fill_form', uids => ({elements: [{uid: uids.name, value: 'x'}]})],
    ['drag', uids => ({from_uid: uids.drag, to_uid: uids.drop})],
    ['upload_file', uids => ({uid: uids.upload, filePaths: [upload]})],
    ['press_key', () => ({key: 'Control+A'})],
    ['type_text', () => ({text: 'ab'})],
    ['emulate', () => ({colorScheme: 'dark'})],
    ['get_page_text', () => ({})],
    ['take_heapsnapshot', () => ({filePath: join(tmpdir(), `lanes-hung-tools-${process.pid}.heapsnapshot`)})],
    ['screencast_start', () => ({})],
  ];
  /** Each tool's page, and the uids of its snapshot (taken before the page got stuck). */
  const pages = new Map<string, {pageId: number; uids: Uids}>();
  const pageOf = (tool: string) => {
    const page = pages.get(tool);
    assert.ok(page, `no page for ${tool}`);
    return page;
  };
  /** The tool whose page is stuck first, before save_storage_state. */
  const first = 'get_css_styles';
  const navigating = {pageId: 0, heading: ''};

  before(async () => {
    writeFileSync(upload, 'upload');
    hb = await startHungBrowser('page', true);
    healthy = await hb.healthyPage();
    // Every page up front: new_page waits for the page calls in flight, which here run to their bounds.
    for (const [tool] of calls) {
      pages.set(tool, {pageId: await hb.page(PAGE), uids: {} as Uids});
    }
    hb.fixtures.html('/before-navigation', '<title>Before</title><h1>Before</h1>');
    const opened = await hb.mcp.call('new_page', {url: hb.fixtures.url('/before-navigation')});
    navigating.pageId = Number(/^(\d+): .*\/before-navigation/m.exec(opened.text)?.[1]);
    // The uids of each page (a snapshot of each at once: each page has its lane).
    await Promise.all(
      [...pages.values()].map(async page => {
        page.uids = uidsOf((await hb.mcp.call('take_snapshot', {pageId: page.pageId})).text);
      }),
    );
    const snapshot = await hb.mcp.call('take_snapshot', {pageId: navigating.pageId});
    navigating.heading = /uid=(\S+) heading "Before"/.exec(snapshot.text)?.[1] ?? '';
    assert.ok(navigating.heading, snapshot.text);
    // The uids are taken; now the first tool's page never yields again (the others get stuck below).
    await hb.block(pageOf(first).pageId);
  });

  after(async () => {
    await hb?.close();
  });

  // Before the others are stuck: it waits for each page that does not answer, one after the other.
  it('save_storage_state says which page it could not read', async () => {
    const saved = await hb.mcp.call('save_storage_state', {
      pageId: healthy,
      filePath: join(tmpdir(), `lanes-hung-tools-${process.pid}.json`),
    });
    assert.equal(saved.isError, false, saved.text);
    assert.match(saved.text, /Saved the storage state/, saved.text);
    // Before, the stuck page's origins were left out without a word.
    const stuck = pageOf(first).pageId;
    assert.match(saved.text, new RegExp(`Page ${stuck} did not answer .* not in the file`), saved.text);
  });

  describe('each tool on its own stuck page, all at once', {concurrency: true}, () => {
    before(async () => {
      await Promise.all(calls.filter(([tool]) => tool !== first).map(([tool]) => hb.block(pageOf(tool).pageId)));
    });

    it('a call on a page whose navigation never gets its response says the page is navigating, not busy', async () => {
      let release!: () => void;
      const held = new Promise<void>(resolve => (release = resolve));
      hb.fixtures.route('/never-answers', async (_req, res) => {
        await held;
        res.writeHead(204).end();
      });
      try {
        const {pageId, heading} = navigating;
        // The navigation's own timeout ends navigate_page; Chrome goes on waiting for the response.
        const navigation = await hb.mcp.call('navigate_page', {
          pageId,
          url: hb.fixtures.url('/never-answers'),
          timeout: 1000,
        });
        assert.match(navigation.text, /Navigation timeout/, navigation.text);
        await until(
          () => hb.fixtures.requests.some(r => r.url === '/never-answers'),
          'the navigation to ask for its page',
        );
        const styles = await hb.mcp.call('get_css_styles', {pageId, uid: heading});
        assert.equal(styles.isError, true, styles.text);
        assert.match(styles.text, new RegExp(`within ${HUNG_BOUND_S * 1000} ms`), styles.text);
        assert.match(styles.text, new RegExp(`Page ${pageId} is navigating to \\S+/never-answers`), styles.text);
        assert.doesNotMatch(styles.text, /is busy/, styles.text);
      } finally {
        release();
      }
    });

    for (const [tool, args] of calls) {
      it(tool, async () => {
        const {pageId, uids} = pageOf(tool);
        const before = hb.runs(tool, pageId);
        const hung = track(send(hb, tool, {pageId, ...args(uids)}));
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
});
