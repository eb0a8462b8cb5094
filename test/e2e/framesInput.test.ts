/**
 * Input tools across frames (issue 9, items 4 and 5): clicks, hovers, fills,
 * drags and uploads in cross-site (out-of-process) iframes that start below
 * the page's first screen or whose control starts below the frame's first
 * screen, nested frames, covered elements; and bad input: uids of a frame's
 * old document, a node moved into a closed shadow root, a frame that
 * navigates away while the action waits. Never an action on another element.
 */
import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, beforeEach, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

/** Inner documents report to the top page, which keeps the log an assertion reads. */
const REPORT = `<script>window.reported = []; function report(what) { reported.push(what); top.postMessage(what, '*'); }</script>`;

describe('input in frames', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let snap = '';

  const evaluate = async (fn: string) => {
    const r = await mcp.call('evaluate_script', {pageId: 1, function: fn});
    assert.equal(r.isError, false, r.text);
    const json = /```json\n([\s\S]*)\n```/.exec(r.text)?.[1] ?? 'null';
    return json === 'undefined' ? undefined : (JSON.parse(json) as unknown);
  };
  /** The messages inner frames posted, once `count` of them arrived (bounded wait in the page: 30 s, for a busy machine). */
  const reports = async (count: number) =>
    evaluate(`async () => {
      const end = Date.now() + 30000;
      while ((window.log || []).length < ${count} && Date.now() < end) await new Promise(r => setTimeout(r, 20));
      return window.log || [];
    }`);
  /** What the document of the element `elementUid` recorded itself (no waiting: handlers run with the event). */
  const reportedIn = async (elementUid: string) => {
    const r = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '(el) => el.ownerDocument.defaultView.reported',
      args: [elementUid],
    });
    assert.equal(r.isError, false, r.text);
    return JSON.parse(/```json\n([\s\S]*)\n```/.exec(r.text)?.[1] ?? 'null') as unknown;
  };
  const open = async (path: string) => {
    const r = await mcp.call('navigate_page', {pageId: 1, type: 'url', url: fixtures.url(path)});
    assert.equal(r.isError, false, r.text);
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
  };
  const uid = (pattern: RegExp) => uidOf(snap, pattern);
  const top = (body: string) =>
    `<!doctype html><title>Top</title>${body}<script>addEventListener('message', e => { (window.log ||= []).push(e.data); });</script>`;

  before(async () => {
    fixtures = await new FixtureServer().start();
    const cross = (path: string) => fixtures.crossSiteUrl(path);
    fixtures.html(
      '/below-fold',
      top(`<h1>Top</h1><div style="height: 1500px"></div>
<iframe title="Far frame" src="${cross('/inner')}" style="width: 500px; height: 300px; border: 10px solid gray; padding: 7px"></iframe>`),
    );
    fixtures.html(
      '/inner',
      `<!doctype html><title>Inner</title>${REPORT}
<button onclick="report('near')">Near</button>
<button onmouseenter="report('hovered')">Hover target</button>
<input aria-label="Inner field" oninput="report('input:' + this.value)">
<div style="height: 900px"></div>
<button onclick="report('far')">Far button</button>
<input type="file" aria-label="Inner file" style="display: block" onchange="report('file:' + this.files[0].name)">
<ul><li draggable="true" id="a">Drag A</li><li id="b">Drop B</li></ul>
<script>
document.getElementById('a').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'A'));
document.getElementById('b').addEventListener('dragover', e => e.preventDefault());
document.getElementById('b').addEventListener('drop', e => { e.preventDefault(); report('drop:' + e.dataTransfer.getData('text/plain')); });
</script>
<iframe title="Nested frame" src="${fixtures.url('/nested')}" style="width: 300px; height: 200px"></iframe>`,
    );
    fixtures.html(
      '/nested',
      `<!doctype html><title>Nested</title>${REPORT}<div style="height: 400px"></div><button onclick="report('nested')">Nested button</button>`,
    );
    fixtures.html(
      '/covered',
      top(`<iframe title="Covered frame" src="${cross('/covered-inner')}" style="width: 400px; height: 200px"></iframe>
<div id="veil" style="position: fixed; left: 0; top: 0; width: 100%; height: 100%; background: rgba(0,0,0,.3)" onclick="(window.log ||= []).push('veil')">Cookie banner</div>`),
    );
    fixtures.html(
      '/covered-inner',
      `<!doctype html><title>Covered</title>${REPORT}
<button onclick="report('under')">Under the veil</button>
<button id="own" style="position: relative" onclick="report('inner-covered')">Inner covered</button>
<div style="position: absolute; left: 0; top: 0; width: 100%; height: 100%" onclick="report('inner-veil')"></div>`,
    );
    // Stale documents: the frame's new document has a button of the same name at the same place.
    fixtures.html(
      '/stale-top',
      top(`<iframe title="Stale frame" src="${cross('/stale-a')}" style="width: 400px; height: 200px"></iframe>
<iframe title="Same-origin frame" src="/stale-a" style="width: 400px; height: 200px"></iframe>`),
    );
    fixtures.html('/stale-a', `<!doctype html><title>A</title>${REPORT}<button onclick="report('old')">Pay</button>`);
    fixtures.html('/stale-b', `<!doctype html><title>B</title>${REPORT}<button onclick="report('new')">Pay</button>`);
    fixtures.html(
      '/closed-shadow',
      top(`<button id="mover" onclick="(window.log ||= []).push('moved-clicked')">Move me</button><div id="host"></div>
<script>window.hide = () => { const root = document.getElementById('host').attachShadow({mode: 'closed'}); root.append(document.getElementById('mover')); };</script>`),
    );
    fixtures.html(
      '/nav-mid-call',
      top(`<iframe title="Leaving frame" src="${cross('/leaving')}" style="width: 400px; height: 200px"></iframe>`),
    );
    fixtures.html(
      '/leaving',
      `<!doctype html><title>Leaving</title>${REPORT}<button id="late" disabled onclick="report('late')">Late button</button>
<script>window.leave = () => setTimeout(() => { location.href = '/trap'; }, 150);</script>`,
    );
    fixtures.html(
      '/trap',
      `<!doctype html><title>Trap</title>${REPORT}<button onclick="report('trap')">Trap button</button>`,
    );
    // Frames of the top page's site inside cross-site frames: each is an out-of-process frame of an out-of-process frame.
    fixtures.html(
      '/frame-grid',
      top(Array.from({length: 6}, (_, i) => `<iframe src="${cross(`/grid-cell?${i}`)}"></iframe>`).join('')),
    );
    fixtures.html(
      '/grid-cell',
      `<!doctype html><title>Cell</title><iframe src="${fixtures.url('/grid-leaf')}"></iframe>`,
    );
    fixtures.html('/grid-leaf', `<!doctype html><title>Leaf</title><button>Leaf button</button>`);
    // wait_for in every frame: an out-of-process frame that renders a result a while after a click,
    // a sandboxed (cross-origin, in-process) frame, and a frame the page adds during the wait.
    fixtures.html(
      '/wait-frames',
      top(`<iframe title="Console" src="${cross('/wait-console')}" style="width: 400px; height: 200px"></iframe>
<iframe title="Sandboxed" sandbox="allow-scripts" srcdoc="<p id=s>Sandbox idle</p><script>setTimeout(() => { s.textContent = 'Sandbox rendered'; }, 400)</script>"></iframe>
<script>window.addFrame = () => setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<iframe src="${cross('/wait-late')}"></iframe>'), 200);</script>`),
    );
    fixtures.html(
      '/wait-console',
      `<!doctype html><title>Console</title><div id="out"><button onclick="setTimeout(() => { document.getElementById('out').innerHTML = '<h4>Server response</h4><pre>[1, 2]</pre>'; }, 300)">Execute</button></div>`,
    );
    fixtures.html('/wait-late', `<!doctype html><title>Late</title><p>Late frame text</p>`);
    mcp = await startServer({args: ['--viewport=1000x700']});
  });
  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });
  beforeEach(() => {
    snap = '';
  });

  it('clicks a button in a cross-site iframe that starts below the first screen (scrolls the page)', async () => {
    await open('/below-fold');
    const r = await mcp.call('click', {pageId: 1, uid: uid(/button "Near"/)});
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(await reports(1), ['near']);
    assert.ok(((await evaluate('() => scrollY')) as number) > 0, 'the page scrolled to the frame');
  });

  it("clicks a button below the cross-site frame's first screen, then one in a nested frame", async () => {
    await open('/below-fold');
    // Each frame's own record, read back in that frame: the message relayed up
    // through two out-of-process frames can take seconds on a loaded machine.
    const clicked: Record<string, unknown> = {};
    for (const name of ['Far button', 'Nested button']) {
      await evaluate('() => scrollTo(0, 0)');
      const buttonUid = uid(new RegExp(`button "${name}"`));
      const r = await mcp.call('click', {pageId: 1, uid: buttonUid});
      assert.equal(r.isError, false, r.text);
      clicked[name] = await reportedIn(buttonUid);
    }
    assert.deepEqual(clicked, {'Far button': ['far'], 'Nested button': ['nested']});
  });

  it('hovers, fills, drags and uploads in a cross-site iframe below the first screen', async () => {
    await open('/below-fold');
    assert.equal((await mcp.call('hover', {pageId: 1, uid: uid(/button "Hover target"/)})).isError, false);
    await evaluate('() => scrollTo(0, 0)');
    const filled = await mcp.call('fill', {pageId: 1, uid: uid(/textbox "Inner field"/), value: 'hi'});
    assert.equal(filled.isError, false, filled.text);
    await evaluate('() => scrollTo(0, 0)');
    const dragged = await mcp.call('drag', {pageId: 1, from_uid: uid(/"Drag A"/), to_uid: uid(/"Drop B"/)});
    assert.equal(dragged.isError, false, dragged.text);
    const file = join(tmpdir(), 'frames-input-upload.txt');
    await writeFile(file, 'x');
    const uploaded = await mcp.call('upload_file', {pageId: 1, uid: uid(/"Inner file"/), filePaths: [file]});
    assert.equal(uploaded.isError, false, uploaded.text);
    assert.deepEqual(await reports(5), ['hovered', 'input:h', 'input:hi', 'drop:A', 'file:frames-input-upload.txt']);
  });

  it('refuses to click an element covered in the page, and names what is on top', async () => {
    await open('/covered');
    const under = uid(/button "Under the veil"/);
    const r = await mcp.call('click', {pageId: 1, uid: under});
    assert.equal(r.isError, true);
    assert.match(r.text, /uid \S+ is covered by another element, <div id="veil">.*Close or dismiss what is on top/);
    assert.deepEqual(await evaluate('() => window.log ?? []'), [], 'the veil got no click');
    assert.deepEqual(await reportedIn(under), [], 'the button got no click');
  });

  it('refuses to click an element covered inside its own cross-site frame', async () => {
    await open('/covered');
    await evaluate(`() => document.getElementById('veil').remove()`);
    const covered = uid(/button "Inner covered"/);
    const r = await mcp.call('click', {pageId: 1, uid: covered});
    assert.equal(r.isError, true);
    assert.match(r.text, /is covered by another element, <div>/);
    assert.deepEqual(await reportedIn(covered), [], 'neither the button nor the inner veil got a click');
  });

  for (const frame of ['Stale frame', 'Same-origin frame']) {
    it(`a uid of a frame's old document fails with "take a new snapshot" (${frame.toLowerCase()})`, async () => {
      await open('/stale-top');
      const old = uidOf(snap.slice(snap.indexOf(`Iframe "${frame}"`)), /button "Pay"/);
      await evaluate(`async () => {
        const frame = document.querySelector('iframe[title="${frame}"]');
        await new Promise(resolve => { frame.addEventListener('load', resolve, {once: true}); frame.src = frame.src.replace('/stale-a', '/stale-b'); });
      }`);
      const r = await mcp.call('click', {pageId: 1, uid: old});
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /no longer exists on the page\. Take a new snapshot/);
      snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
      const fresh = uidOf(snap.slice(snap.indexOf(`Iframe "${frame}"`)), /button "Pay"/);
      assert.deepEqual(await reportedIn(fresh), [], "the new document's button was not clicked");
    });
  }

  it('a node moved into a closed shadow root fails with "take a new snapshot"', async () => {
    await open('/closed-shadow');
    const mover = uid(/button "Move me"/);
    await evaluate('() => hide()');
    const r = await mcp.call('click', {pageId: 1, uid: mover});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /moved into a closed shadow root.*Take a new snapshot/);
    assert.deepEqual(await evaluate('() => window.log ?? []'), [], 'the moved button was not clicked');
  });

  it('a frame that navigates away while the click waits fails cleanly and clicks nothing there', async () => {
    await open('/nav-mid-call');
    const late = uid(/button "Late button"/);
    // The button stays disabled (the click waits for it), and 150 ms later the frame leaves for a page with another button at its place.
    const leave = await mcp.call('evaluate_script', {
      pageId: 1,
      function: '(el) => { el.ownerDocument.defaultView.leave(); return true; }',
      args: [late],
    });
    assert.equal(leave.isError, false, leave.text);
    const r = await mcp.call('click', {pageId: 1, uid: late});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /no longer exists on the page\. Take a new snapshot/);
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
    assert.deepEqual(await reportedIn(uid(/button "Trap button"/)), [], 'the trap was not clicked');
  });

  it('wait_for sees text in out-of-process, sandboxed and late frames (issue 28)', async () => {
    await open('/wait-frames');
    const wait = (text: string) => mcp.call('wait_for', {pageId: 1, text: [text], timeout: 15_000});
    const ready = await wait('Execute');
    assert.equal(ready.isError, false, ready.text);
    snap = ready.text;
    const executed = await mcp.call('click', {pageId: 1, uid: uid(/button "Execute"/)});
    assert.equal(executed.isError, false, executed.text);
    const response = await wait('Server response');
    assert.equal(response.isError, false, response.text);
    assert.match(response.text, /heading "Server response"/);
    const sandboxed = await wait('Sandbox rendered');
    assert.equal(sandboxed.isError, false, sandboxed.text);
    await evaluate('() => addFrame()');
    const late = await wait('Late frame text');
    assert.equal(late.isError, false, late.text);
    const missing = await mcp.call('wait_for', {pageId: 1, text: ['Never shown'], timeout: 300});
    assert.equal(
      missing.text,
      'Error: Timed out after waiting 300 ms for any of ["Never shown"] to appear on the page.',
    );
  });

  it('loads every nested out-of-process frame of a page, navigation after navigation', async () => {
    // Each child target is set up and resumed once: a second auto-attach request on a frame
    // whose own child still waited for us made Chrome drop that child, and its document never loaded.
    for (let i = 0; i < 4; i++) {
      const r = await mcp.call('navigate_page', {pageId: 1, type: 'url', url: fixtures.url('/frame-grid')});
      assert.equal(r.isError, false, r.text);
      assert.doesNotMatch(r.text, /timeout/i, `navigation ${i + 1}`);
      const text = (await mcp.call('take_snapshot', {pageId: 1})).text;
      assert.equal(text.match(/button "Leaf button"/g)?.length, 6, `navigation ${i + 1}:\n${text}`);
    }
  });
});
