/**
 * What an action waits for once it has acted (issues 21 and 25): the work the
 * action started (its timers, a request and the read of its body, a message it
 * posted, what observers do in the next frame), and not the page's own loops.
 * A page whose widget re-arms a setTimeout forever (as GOV.UK's
 * accessible-autocomplete polls its input) or draws every frame must not hold
 * every action and script for the whole settle cap; a chain the action starts
 * itself is followed for a short while only. The page counts how many times
 * its chain re-armed during a call: at 50 ms a turn, waiting for the 3 s cap
 * takes about 60.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

/** Fewer re-arms than this during one call: the call did not wait for the chain to reach the cap. */
const FEWER_THAN_CAP = 30;

const LOOPS = `<!doctype html><title>Loops</title>
<button onclick="window.atCall = window.rearms; document.getElementById('out').textContent = 'Clicked'">Change</button>
<button onclick="window.atCall = window.started; (function spin() { window.started++; setTimeout(spin, 50); })()">Start a chain</button>
<output id="out"></output>
<script>
window.rearms = 0;
window.started = 0;
window.painted = 0;
// The page's own loops, from before any action: a timer that re-arms itself and an animation.
(function tick() { window.rearms++; setTimeout(tick, 50); })();
(function paint() { window.painted++; requestAnimationFrame(paint); })();
</script>`;

const WORK = `<!doctype html><title>Work</title>
<button onclick="load()">Load</button>
<output id="loaded"></output><output id="posted"></output><output id="width"></output>
<div id="box" style="width: 100px; height: 20px"></div>
<script>
const channel = new MessageChannel();
channel.port1.onmessage = e => { document.getElementById('posted').textContent = e.data; };
new ResizeObserver(([entry]) => {
  document.getElementById('width').textContent = 'Width ' + entry.contentRect.width;
}).observe(document.getElementById('box'));
function load() {
  fetch('/slow-body').then(r => r.json()).then(d => { document.getElementById('loaded').textContent = d.text; });
  channel.port2.postMessage('Posted');
  document.getElementById('box').style.width = '200px';
}
</script>`;

describe('settling after an action', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let snap = '';

  const evaluate = async (fn: string) => {
    const r = await mcp.call('evaluate_script', {pageId: 1, function: fn});
    assert.equal(r.isError, false, r.text);
    return JSON.parse(/```json\n([\s\S]*)\n```/.exec(r.text)?.[1] ?? 'null') as unknown;
  };
  const open = async (path: string) => {
    const r = await mcp.call('navigate_page', {pageId: 1, type: 'url', url: fixtures.url(path)});
    assert.equal(r.isError, false, r.text);
    snap = (await mcp.call('take_snapshot', {pageId: 1})).text;
  };

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/loops', LOOPS);
    fixtures.html('/work', WORK);
    // The body comes well after the headers: a read of it is work the page waits for.
    fixtures.route('/slow-body', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'});
      res.flushHeaders();
      setTimeout(() => res.end(JSON.stringify({text: 'Loaded'})), 300).unref();
    });
    mcp = await startServer();
  });
  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it("does not wait for the page's own self-renewing timer chain and animation loop", async () => {
    await open('/loops');
    const click = await mcp.call('click', {pageId: 1, uid: uidOf(snap, /button "Change"/), includeSnapshot: true});
    assert.equal(click.isError, false, click.text);
    assert.match(click.text, /"Clicked"/, 'the change the click made');
    const duringClick = (await evaluate('() => window.rearms - window.atCall')) as number;
    assert.ok(duringClick < FEWER_THAN_CAP, `the click waited while the chain re-armed ${duringClick} times`);

    const script = `() => { window.atCall = window.rearms; document.getElementById('out').textContent = 'Scripted'; return window.painted > 0; }`;
    assert.equal(await evaluate(script), true, 'the animation loop runs');
    const duringScript = (await evaluate('() => window.rearms - window.atCall')) as number;
    assert.ok(duringScript < FEWER_THAN_CAP, `the script waited while the chain re-armed ${duringScript} times`);
  });

  it('follows a chain the action starts for a short while only', async () => {
    await open('/loops');
    const click = await mcp.call('click', {pageId: 1, uid: uidOf(snap, /button "Start a chain"/)});
    assert.equal(click.isError, false, click.text);
    const during = (await evaluate('() => window.started - window.atCall')) as number;
    assert.ok(during > 0, 'the chain runs');
    assert.ok(during < FEWER_THAN_CAP, `the click waited while its chain re-armed ${during} times`);
  });

  it("waits for the action's own work: a request and the read of its body, a posted message, an observer's frame", async () => {
    await open('/work');
    const click = await mcp.call('click', {pageId: 1, uid: uidOf(snap, /button "Load"/), includeSnapshot: true});
    assert.equal(click.isError, false, click.text);
    assert.match(click.text, /"Loaded"/, 'the body read after the headers');
    assert.match(click.text, /"Posted"/, 'the posted message');
    assert.match(click.text, /"Width 200"/, "the resize observer's callback in the next frame");
  });
});
