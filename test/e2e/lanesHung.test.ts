import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {
  cancellationTests,
  HUNG_BOUND_S,
  type HungBrowser,
  PROMPT_MS,
  send,
  startedWhile,
  startHungBrowser,
  textOf,
  track,
} from '../support/hungPages.js';

// With --pageCallTimeout HUNG_BOUND_S: the calls run out at that bound, and their errors name it.
describe('--lanes page: a hung call ends at its bound, saying what its page does', {concurrency: true}, () => {
  let hb: HungBrowser;
  const pages = {healthy: 0, shot: 0, snapshot: 0, paused: 0};
  let resume: () => Promise<void> = async () => undefined;

  before(async () => {
    // Every page up front: new_page waits for the page calls in flight, which here run to their bounds.
    hb = await startHungBrowser('page', true);
    pages.healthy = await hb.healthyPage();
    // One page's main thread is blocked (no core spins for it), one spins for real (last: from here
    // on it keeps a core busy): the server tells neither apart.
    pages.snapshot = await hb.blockedPage();
    const paused = await hb.pausedPage();
    pages.paused = paused.pageId;
    resume = () => paused.resume();
    pages.shot = await hb.spinningPage();
  });

  after(async () => {
    await resume();
    await hb?.close();
  });

  /**
   * Runs `tool` on `pageId`; once it runs, a snapshot of the healthy page
   * starts before it ends (its lane is not held) and answers. Returns the hung call's text.
   */
  async function hungCall(tool: string, pageId: number, args: Record<string, unknown> = {}): Promise<string> {
    const before = hb.runs(tool, pageId);
    const hung = track(send(hb, tool, {pageId, ...args}));
    await hb.running(tool, before, pageId);
    const {result: snapshot, during} = await startedWhile(hb.mcp.stderr, 'take_snapshot', pages.healthy, hung, () =>
      hb.mcp.call('take_snapshot', {pageId: pages.healthy}),
    );
    assert.match(snapshot.text, /button "Press"/, snapshot.text);
    assert.equal(during, true, `${tool} on page ${pageId} ended before a snapshot of another page started`);
    const ended = await hung.promise;
    assert.equal(ended.isError, true, textOf(ended));
    return textOf(ended);
  }

  it('take_screenshot of a page spinning in while(true)', async () => {
    const text = await hungCall('take_screenshot', pages.shot);
    assert.match(text, new RegExp(`Chrome did not finish the screenshot within ${HUNG_BOUND_S} s`), text);
    assert.match(text, new RegExp(`Page ${pages.shot} is busy: .* close_page`), text);
    assert.match(text, /take_screenshot gave up on it; calls on other pages were not held back/, text);
  });

  it('take_snapshot of a page whose main thread never yields (blocked in a request)', async () => {
    const text = await hungCall('take_snapshot', pages.snapshot);
    assert.match(text, new RegExp(`The page did not answer the snapshot within ${HUNG_BOUND_S} s`), text);
    assert.match(text, new RegExp(`Page ${pages.snapshot} is busy: .* close_page`), text);
  });

  it('evaluate_script on a page paused in the debugger', async () => {
    const text = await hungCall('evaluate_script', pages.paused, {function: '() => document.title'});
    assert.match(text, new RegExp(`The script did not finish within ${HUNG_BOUND_S} s`), text);
    assert.match(
      text,
      new RegExp(`Page ${pages.paused} is paused in the debugger: .* Resume it there \\(Debugger.resume\\)`),
      text,
    );
    // Resumed, the page answers again.
    await resume();
    const again = await hb.mcp.call('evaluate_script', {pageId: pages.paused, function: '() => document.title'});
    assert.match(again.text, /"Paused"/, again.text);
  });
});

describe('--lanes page: cancelling a hung call', () => {
  // new_page waits for every page call in flight (it takes the browser alone).
  cancellationTests('page', (hb, _healthy) =>
    hb.mcp.client.callTool({name: 'new_page', arguments: {url: 'about:blank'}}, undefined, {timeout: PROMPT_MS}),
  );
});
