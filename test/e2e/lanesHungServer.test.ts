import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {
  cancellationTests,
  HUNG_BOUND_S,
  PROMPT_MS,
  send,
  startHungBrowser,
  textOf,
  track,
} from '../support/hungPages.js';

describe('--lanes server: cancelling a hung call', () => {
  // Every call waits for the one in flight.
  cancellationTests('server', (hb, healthy) =>
    hb.mcp.client.callTool(
      {name: 'evaluate_script', arguments: {pageId: healthy, function: '() => document.title'}},
      undefined,
      {timeout: PROMPT_MS},
    ),
  );
});

describe('--lanes server: a hung call ends at its bound, saying what its page does', () => {
  it('take_snapshot of a page whose main thread never yields, with the call on another page after it', async () => {
    const hb = await startHungBrowser('server', true);
    try {
      const healthy = await hb.healthyPage();
      // Blocked in a request that never gets its answer: stuck as in while (true), with no core spinning.
      const blocked = await hb.blockedPage();
      const before = hb.runs('take_snapshot');
      const hung = track(send(hb, 'take_snapshot', {pageId: blocked}));
      await hb.running('take_snapshot', before);
      const other = track(send(hb, 'take_snapshot', {pageId: healthy}));
      const text = textOf(await hung.promise);
      assert.match(text, new RegExp(`The page did not answer the snapshot within ${HUNG_BOUND_S} s`), text);
      assert.match(text, new RegExp(`Page ${blocked} is busy: .* close_page`), text);
      assert.match(text, /calls on other pages waited for it; --lanes page runs them meanwhile/, text);
      assert.match(textOf(await other.promise), /button "Press"/);
      assert.equal((await hb.mcp.call('close_page', {pageId: blocked})).isError, false);
    } finally {
      await hb.close();
    }
  });
});
