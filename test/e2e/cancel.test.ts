import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

/** Long enough that a test passing through it would time out (the client's own bound is 60 s). */
const NEVER_MS = 120_000;

describe('cancellation and progress over stdio', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    // The text shows up 2 s after load: a wait_for on it reports progress meanwhile.
    fixtures.html('/late', '<p>start</p><script>setTimeout(() => document.body.append("arrived"), 2000)</script>');
    mcp = await startServer();
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/late')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('stops a running wait_for on notifications/cancelled; the next call runs at once', async () => {
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>(resolve => (started = resolve));
    const waiting = mcp.client.callTool(
      {name: 'wait_for', arguments: {pageId: 1, text: ['never there'], timeout: NEVER_MS}},
      undefined,
      {
        signal: controller.signal,
        timeout: NEVER_MS * 2,
        onprogress: () => started(),
      },
    );
    await running;
    controller.abort();
    await assert.rejects(waiting, /AbortError|abort/i);
    // Still queued behind the wait_for, this would wait out its 120 s (past the 30 s bound here).
    const next = await mcp.client.callTool(
      {name: 'evaluate_script', arguments: {pageId: 1, function: '() => 6 * 7'}},
      undefined,
      {timeout: 30_000},
    );
    assert.match((next.content as Array<{text: string}>)[0]?.text ?? '', /42/);
  });

  it('never runs a call cancelled while it waits in the queue', async () => {
    await mcp.call('evaluate_script', {pageId: 1, function: '() => { window.ran = 0; }'});
    const first = new AbortController();
    const second = new AbortController();
    let started!: () => void;
    const running = new Promise<void>(resolve => (started = resolve));
    const blocking = mcp.client.callTool(
      {name: 'wait_for', arguments: {pageId: 1, text: ['never there'], timeout: NEVER_MS}},
      undefined,
      {signal: first.signal, timeout: NEVER_MS * 2, onprogress: () => started()},
    );
    await running;
    const queued = mcp.client.callTool(
      {name: 'evaluate_script', arguments: {pageId: 1, function: '() => { window.ran++; return "ran"; }'}},
      undefined,
      {signal: second.signal},
    );
    // The queued call was sent before the cancellation: the server sees the request, then the cancel.
    second.abort();
    await assert.rejects(queued, /abort/i);
    first.abort();
    await assert.rejects(blocking, /abort/i);
    const ran = await mcp.call('evaluate_script', {pageId: 1, function: '() => window.ran'});
    assert.match(ran.text, /```json\n0\n```/, ran.text);
  });

  it('reports progress while wait_for polls, with increasing progress values', async () => {
    await mcp.call('navigate_page', {pageId: 1, type: 'reload'});
    const notes: Array<{progress: number; message?: string}> = [];
    const result = await mcp.client.callTool({name: 'wait_for', arguments: {pageId: 1, text: ['arrived']}}, undefined, {
      onprogress: p => notes.push(p),
    });
    assert.match(
      (result.content as Array<{text: string}>)[0]?.text ?? '',
      /Element matching one of \["arrived"\] found/,
    );
    assert.ok(notes.length >= 2, JSON.stringify(notes));
    assert.match(notes[0]?.message ?? '', /Waiting up to 5000 ms for any of \["arrived"\]/);
    assert.match(notes[1]?.message ?? '', /Still waiting for any of \["arrived"\]: \d\.\d s of 5 s/);
    for (let i = 1; i < notes.length; i++) {
      assert.ok((notes[i]?.progress ?? 0) > (notes[i - 1]?.progress ?? 0));
    }
  });

  it('reports the phases of a navigation', async () => {
    const notes: string[] = [];
    await mcp.client.callTool({name: 'navigate_page', arguments: {pageId: 1, url: fixtures.url('/late')}}, undefined, {
      onprogress: p => notes.push(p.message ?? ''),
    });
    assert.equal(notes[0], `Navigating to ${fixtures.url('/late')}`);
  });
});
