/**
 * Issue 26: started without `--viewport`, our launched Chrome gives pages the
 * same window and layout viewport as chrome-devtools-mcp 1.11 started with the
 * same flags: CSS sizes (inner, outer, layout viewport without scrollbars),
 * device pixel ratio, screen, window position, on the first page, a new page,
 * a popup tab and a popup window, and viewport and full-page screenshots of
 * the same size. Both servers side by side, headless and with windows on a
 * private X display (Xvfb). A browser we attach to keeps its window.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {CdpConnection} from '../../src/cdp/CdpConnection.js';
import {startChromium} from '../support/chromium.js';
import {startDisplay, type XDisplay} from '../support/display.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

/** How long a popup may take to appear in list_pages. */
const POPUP_WAIT_MS = 15_000;

/** Page-side: what the page's layout depends on. */
const FIGURES = `() => ({
  inner: [innerWidth, innerHeight],
  outer: [outerWidth, outerHeight],
  layoutViewport: [document.documentElement.clientWidth, visualViewport.height],
  devicePixelRatio,
  screen: [screen.width, screen.height, screen.availWidth, screen.availHeight],
  position: [screenX, screenY],
})`;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(base64: string): [number, number] {
  const bytes = Buffer.from(base64, 'base64');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

async function call(server: TestServer, tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await server.call(tool, args);
  assert.equal(result.isError, false, `${tool}: ${result.text}`);
  return result.text;
}

async function figures(server: TestServer, pageId: number): Promise<unknown> {
  const text = await call(server, 'evaluate_script', {pageId, function: FIGURES});
  const json = /```json\n([\s\S]*)\n```/.exec(text)?.[1];
  assert.ok(json, `evaluate_script answered without a value: ${text}`);
  return JSON.parse(json);
}

/** The id list_pages gives the page titled `title`, once it is there. */
async function pageIdOf(server: TestServer, title: string): Promise<number> {
  const deadline = Date.now() + POPUP_WAIT_MS;
  for (;;) {
    const list = await call(server, 'list_pages', {});
    const id = new RegExp(`^(\\d+): ${title} \\(`, 'm').exec(list)?.[1];
    if (id) {
      return Number(id);
    }
    if (Date.now() > deadline) {
      throw new Error(`The page "${title}" never appeared in list_pages within ${POPUP_WAIT_MS} ms:\n${list}`);
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

/** Figures of every kind of page one server opens, and its screenshot sizes. */
async function windowFigures(server: TestServer, fixtures: FixtureServer): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  await call(server, 'navigate_page', {pageId: 1, url: fixtures.url('/tall?first')});
  out['first page'] = await figures(server, 1);
  // While page 1 is in front: a background tab's capture can wait for a frame that never comes.
  for (const fullPage of [false, true]) {
    const shot = await server.call('take_screenshot', {pageId: 1, fullPage});
    assert.equal(shot.isError, false, shot.text);
    out[fullPage ? 'full-page screenshot' : 'viewport screenshot'] = pngSize(shot.images[0]?.data ?? '');
  }
  await call(server, 'new_page', {url: fixtures.url('/tall?new')});
  const newPage = await pageIdOf(server, 'new');
  out['new page'] = await figures(server, newPage);
  for (const [title, features] of [
    ['tab', ''],
    ['popup', 'popup'],
  ] as const) {
    const url = fixtures.url(`/tall?${title}`);
    await call(server, 'evaluate_script', {
      pageId: newPage,
      function: `() => { window.open(${JSON.stringify(url)}, '_blank', '${features}'); }`,
    });
    out[`${title} opened by window.open`] = await figures(server, await pageIdOf(server, title));
  }
  return out;
}

describe('default window: the same page layout as chrome-devtools-mcp without --viewport', () => {
  let fixtures: FixtureServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    // The title is the query; tall, so that a scrollbar would narrow the layout.
    fixtures.route('/tall', (req, res) => {
      const title = new URL(req.url ?? '/', 'http://x').search.slice(1);
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>${title}</title><body style="margin:0"><div style="height:3000px">tall</div>`);
    });
  });
  after(async () => {
    await fixtures?.stop();
  });

  const compare = async (pair: OraclePair) => {
    const [ours, theirs] = await Promise.all([
      windowFigures(pair.ours, fixtures),
      windowFigures(pair.theirs, fixtures),
    ]);
    assert.deepEqual(ours, theirs);
  };

  it('headless', async () => {
    const pair = await startOraclePair({viewport: false, record: 'defaultWindow-headless'});
    try {
      await compare(pair);
    } finally {
      await pair.close();
    }
  });

  describe('with windows (Xvfb)', () => {
    let display: XDisplay;
    before(async () => {
      display = await startDisplay();
      Object.assign(process.env, display.env);
    });
    after(async () => {
      await display?.stop();
    });

    it('headful', async () => {
      const pair = await startOraclePair({viewport: false, headless: false, record: 'defaultWindow-headful'});
      try {
        await compare(pair);
      } finally {
        await pair.close();
      }
    });
  });

  it('leaves the window of a browser it attaches to (--browserUrl) as it was', async () => {
    const chromium = await startChromium();
    const cdp = await CdpConnection.connect(chromium.browserWsUrl);
    let server: TestServer | undefined;
    try {
      const bounds = async () => {
        const {targetInfos} = await cdp.send('Target.getTargets');
        const page = targetInfos.find(target => target.type === 'page');
        assert.ok(page, 'the attached browser has a page');
        const {windowId} = await cdp.send('Browser.getWindowForTarget', {targetId: page.targetId});
        const {
          bounds: {width, height},
        } = await cdp.send('Browser.getWindowBounds', {windowId});
        return [width, height];
      };
      const before = await bounds();
      server = await startServer({replaceFlags: true, args: ['--browserUrl', `http://127.0.0.1:${chromium.port}`]});
      await call(server, 'navigate_page', {pageId: 1, url: fixtures.url('/tall?first')});
      await call(server, 'new_page', {url: fixtures.url('/tall?new')});
      const {outer} = (await figures(server, await pageIdOf(server, 'new'))) as {outer: number[]};
      assert.deepEqual(outer, before, "a new page opens in the user's window size");
      assert.deepEqual(await bounds(), before);
    } finally {
      await server?.close();
      await cdp.close();
      chromium.kill();
    }
  });
});
