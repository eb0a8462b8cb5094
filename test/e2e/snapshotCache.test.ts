/**
 * The snapshot cache (issue 25, src/snapshot/axCache.ts): a frame whose
 * tree nothing could have changed gives its kept tree again instead of a
 * full read. Each test first waits until the cache reuses the tree of the
 * unchanged page (the server's log says so), then changes the page one way
 * that can change Chrome's tree, and checks the next snapshot shows the
 * change: a cache that wrongly reused the kept tree fails it. The proof on
 * the real apps is corpus.test.ts (its server runs in verify mode).
 */
import assert from 'node:assert/strict';
import {mkdtemp, readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const TRIGGERS = `<!doctype html><title>Triggers</title>
<style>
  .hidden { display: none }
  #tip { display: none }
  #hoverTarget:hover + #tip { display: block }
  #edited { }
  @media (max-width: 600px) { #wide { display: none } }
</style>
<main>
  <input id="field" aria-label="Field" value="start">
  <input type="checkbox" id="box" aria-label="Box">
  <select id="pick" aria-label="Pick"><option>One</option><option>Two</option></select>
  <p id="cls">Class text</p>
  <button id="named" aria-label="Named A">x</button>
  <input type="checkbox" id="plain" aria-label="Plain" style="appearance: none; outline: none; width: 10px; height: 10px">
  <button id="quiet" style="outline: none">Quiet focus</button>
  <button id="hoverTarget">Hover me</button><p id="tip">Tip text</p>
  <p id="animated">Animated text</p>
  <button id="focusMe">Focus me</button>
  <div id="openHost"></div>
  <div id="closedHost"></div>
  <div id="late"><span>Light text</span></div>
  <p id="inserted">Inserted rule text</p>
  <p id="edited">Edited rule text</p>
  <p id="wide">Wide text</p>
  <div id="pop" popover>Popover text</div>
  <div id="frames"></div>
</main>
<script>
  document.getElementById('openHost').attachShadow({mode: 'open'}).innerHTML = '<p>Open shadow A</p>';
  window.closedRoot = document.getElementById('closedHost').attachShadow({mode: 'closed'});
  closedRoot.innerHTML = '<p>Closed shadow A</p>';
</script>`;

const CUSTOM = `<!doctype html><title>Custom</title>
<x-state></x-state><x-late></x-late>
<script>
  customElements.define('x-state', class extends HTMLElement {
    constructor() { super(); this.internals = this.attachInternals(); this.internals.role = 'button'; this.internals.ariaLabel = 'Before'; }
  });
</script>`;

describe('snapshot cache: every change that can change the tree is seen', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let logFile: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/triggers', TRIGGERS);
    fixtures.html('/custom', CUSTOM);
    const buttons = Array.from({length: 399}, (_, i) => `<button>b${i}</button>`).join('');
    fixtures.html('/big', `<!doctype html><title>Big</title><main>${buttons}<button id="last">b399</button></main>`);
    fixtures.html(
      '/big-custom',
      `<!doctype html><title>Big custom</title><main>${buttons}<x-plain>Plain</x-plain></main>
      <script>customElements.define('x-plain', class extends HTMLElement {});</script>`,
    );
    logFile = join(await mkdtemp(join(tmpdir(), 'snapshot-cache-')), 'server.log');
    // Frames of any size kept: the default keeps only big ones, and these pages are small.
    mcp = await startServer({
      args: ['--logFile', logFile, '--viewport', '1000x700'],
      env: {CDP_MCP_SNAPSHOT_CACHE: 'always'},
    });
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await mcp.call(name, {pageId: 1, ...args});
    assert.equal(r.isError, false, r.text);
    return r.text;
  };
  const evaluate = (fn: string) => call('evaluate_script', {function: fn});
  const log = () => readFile(logFile, 'utf8').catch(() => '');
  const reuses = async () => (await log()).split('reused the kept tree').length - 1;

  /** Snapshots the unchanged page until one reuses the kept tree (the log is written before the answer). */
  async function untilReused(): Promise<string> {
    for (let attempt = 0; attempt < 6; attempt++) {
      const before = await reuses();
      const text = await call('take_snapshot');
      if ((await reuses()) > before) {
        return text;
      }
    }
    assert.fail(`the cache never reused the tree of the unchanged page:\n${(await log()).slice(-3000)}`);
  }

  /** Waits for the cache to hold the page, changes it, and returns the next snapshot. */
  async function afterChange(change: () => Promise<unknown>): Promise<string> {
    await untilReused();
    await change();
    return call('take_snapshot');
  }

  it('reuses the tree of an unchanged page, in both modes', async () => {
    await call('navigate_page', {url: fixtures.url('/triggers')});
    const first = await untilReused();
    assert.equal(await call('take_snapshot'), first);
    const before = await reuses();
    const verbose = await call('take_snapshot', {verbose: true});
    assert.ok((await reuses()) > before, 'the verbose snapshot reused the tree too');
    assert.match(verbose, /Class text/);
  });

  it('sees a .value set without events', async () => {
    const text = await afterChange(() =>
      evaluate(`() => { document.getElementById('field').value = 'changed value'; }`),
    );
    assert.match(text, /textbox "Field".*value="changed value"/);
  });

  it('sees .checked and .selectedIndex set without events', async () => {
    const text = await afterChange(() =>
      evaluate(
        `() => { document.getElementById('box').checked = true; document.getElementById('pick').selectedIndex = 1; }`,
      ),
    );
    assert.match(text, /checkbox "Box".*checked/);
    assert.match(text, /combobox "Pick".*value="Two"/);
  });

  it('sees an attribute no style depends on, in the document and in an open shadow root', async () => {
    const text = await afterChange(() =>
      evaluate(`() => {
        document.getElementById('named').setAttribute('aria-label', 'Named B');
        document.getElementById('openHost').shadowRoot.querySelector('p').setAttribute('aria-hidden', 'true');
      }`),
    );
    assert.match(text, /button "Named B"/);
    assert.doesNotMatch(text, /Open shadow A/);
    const restored = await afterChange(() =>
      evaluate(
        `() => document.getElementById('openHost').shadowRoot.querySelector('p').removeAttribute('aria-hidden')`,
      ),
    );
    assert.match(restored, /Open shadow A/);
  });

  it('sees a checkbox ticked and a focus move that change no style', async () => {
    const ticked = await afterChange(() => evaluate(`() => { document.getElementById('plain').checked = true; }`));
    assert.match(ticked, /checkbox "Plain".*checked/);
    const focused = await afterChange(() => evaluate(`() => document.getElementById('quiet').focus()`));
    assert.match(focused, /button "Quiet focus" focusable focused/);
  });

  it('sees a class toggle', async () => {
    const text = await afterChange(() => evaluate(`() => document.getElementById('cls').classList.add('hidden')`));
    assert.doesNotMatch(text, /Class text/);
  });

  it('sees a change only :hover makes (CSS, no mutation)', async () => {
    const before = await untilReused();
    assert.doesNotMatch(before, /Tip text/);
    await call('hover', {uid: uidOf(before, /button "Hover me"/)});
    assert.match(await call('take_snapshot'), /Tip text/);
  });

  it('sees what a script animation leaves behind (no mutation)', async () => {
    const text = await afterChange(() =>
      evaluate(`async () => {
        const animation = document.getElementById('animated').animate([{visibility: 'visible'}, {visibility: 'hidden'}], {duration: 100, fill: 'forwards'});
        await animation.finished;
      }`),
    );
    assert.doesNotMatch(text, /Animated text/);
  });

  it('sees a focus move', async () => {
    const text = await afterChange(() => evaluate(`() => document.getElementById('focusMe').focus()`));
    assert.match(text, /button "Focus me" focusable focused/);
  });

  it('sees changes in open and closed shadow roots, and a root attached to an element already there', async () => {
    const text = await afterChange(() =>
      evaluate(`() => {
        document.getElementById('openHost').shadowRoot.querySelector('p').textContent = 'Open shadow B';
        window.closedRoot.querySelector('p').textContent = 'Closed shadow B';
      }`),
    );
    assert.match(text, /Open shadow B/);
    assert.match(text, /Closed shadow B/);
    const attached = await afterChange(() =>
      evaluate(
        `() => { document.getElementById('late').attachShadow({mode: 'open'}).innerHTML = '<b>Shadow late</b>'; }`,
      ),
    );
    assert.match(attached, /Shadow late/);
    assert.doesNotMatch(attached, /Light text/);
  });

  it('sees CSSOM edits: a rule inserted, a rule edited (no mutation)', async () => {
    const inserted = await afterChange(() =>
      evaluate(`() => { document.styleSheets[0].insertRule('#inserted { display: none }', 0); }`),
    );
    assert.doesNotMatch(inserted, /Inserted rule text/);
    const edited = await afterChange(() =>
      evaluate(`() => {
        const rule = [...document.styleSheets[0].cssRules].find(r => r.selectorText === '#edited');
        rule.style.display = 'none';
      }`),
    );
    assert.doesNotMatch(edited, /Edited rule text/);
  });

  it('sees a popover shown (no attribute changes)', async () => {
    const text = await afterChange(() => evaluate(`() => document.getElementById('pop').showPopover()`));
    assert.match(text, /Popover text/);
  });

  it('sees a viewport change through a media query', async () => {
    const text = await afterChange(() => call('resize_page', {width: 500, height: 700}));
    assert.doesNotMatch(text, /Wide text/);
  });

  it('sees an iframe added, and a change inside it', async () => {
    const added = await afterChange(() =>
      evaluate(`async () => {
        const frame = document.createElement('iframe');
        frame.srcdoc = '<p>Inner frame text</p>';
        const loaded = new Promise(resolve => frame.addEventListener('load', resolve));
        document.getElementById('frames').append(frame);
        await loaded;
      }`),
    );
    assert.match(added, /Inner frame text/);
    const changed = await afterChange(() =>
      evaluate(
        `() => { document.querySelector('iframe').contentDocument.querySelector('p').textContent = 'Inner frame changed'; }`,
      ),
    );
    assert.match(changed, /Inner frame changed/);
  });

  it('by default keeps a big tree and sees its changes; never checks again a document the watch refused', async () => {
    const defaults = await startServer({args: ['--logFile', `${logFile}.default`]});
    try {
      const snap = async () => {
        const r = await defaults.call('take_snapshot', {pageId: 1});
        assert.equal(r.isError, false, r.text);
        return r.text;
      };
      const log = async () => await readFile(`${logFile}.default`, 'utf8').catch(() => '');
      const reused = async () => (await log()).split('reused the kept tree').length - 1;
      await defaults.call('navigate_page', {pageId: 1, url: fixtures.url('/big')});
      // A frame this big is walked, not read whole: a verbose snapshot (always read whole) keeps its tree.
      let text = '';
      for (let attempt = 0; attempt < 6 && (await reused()) === 0; attempt++) {
        await defaults.call('take_snapshot', {pageId: 1, verbose: true});
        text = await snap();
      }
      assert.ok((await reused()) > 0, 'the big page was kept');
      assert.match(text, /button "b399"/);
      await defaults.call('evaluate_script', {
        pageId: 1,
        function: `() => { document.querySelector('button').value = 'x'; document.querySelector('#last').textContent = 'b399 renamed'; }`,
      });
      assert.match(await snap(), /button "b399 renamed"/);
      // The same big page with a custom element: checked once (refused), then read whole without a check.
      await defaults.call('navigate_page', {pageId: 1, url: fixtures.url('/big-custom')});
      for (let i = 0; i < 5; i++) {
        await defaults.call('take_snapshot', {pageId: 1, verbose: true});
      }
      const refusals = (await log()).split('reading the tree (custom element <x-plain>)').length - 1;
      assert.equal(refusals, 1, 'the refused document was checked once');
    } finally {
      await defaults.close();
    }
  });

  it('never keeps the tree of a document with custom elements: ElementInternals change it unseen', async () => {
    await call('navigate_page', {url: fixtures.url('/custom')});
    assert.match(await call('take_snapshot'), /button "Before"/);
    const before = await reuses();
    await evaluate(`() => { document.querySelector('x-state').internals.ariaLabel = 'After'; }`);
    assert.match(await call('take_snapshot'), /button "After"/);
    await evaluate(`() => customElements.define('x-late', class extends HTMLElement {
      constructor() { super(); const i = this.attachInternals(); i.role = 'checkbox'; i.ariaLabel = 'Late'; }
    })`);
    assert.match(await call('take_snapshot'), /checkbox "Late"/);
    assert.equal(await reuses(), before, 'no snapshot of the custom-element page reused a kept tree');
  });
});
