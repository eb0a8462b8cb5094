import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {type HeapReport, type HttpTestServer, startHttpServer} from '../support/httpClient.js';

/**
 * Sessions opened and closed; a few at a time, as several agents would. Each
 * costs Chrome a renderer; 60 show a leak in every count below, and the live
 * object counts catch even a small per-session leak that heap growth would hide.
 */
const SESSIONS = 60;
const AT_ONCE = 4;
/** Heap growth allowed after GC (as the soak check): what is left is noise, not per-session state. */
const HEAP_GROWTH_LIMIT = 0.1;
/** Bound of the wait for the collector to have taken what the closed sessions left. */
const COLLECTED_WAIT_MS = 30_000;

/** One agent's visit: initialize, a page in its own context (every 4th one loads a document), DELETE. */
async function visit(server: HttpTestServer, index: number): Promise<void> {
  const session = await server.connect();
  const pages = await session.call('list_pages');
  assert.equal(pages.isError, false, pages.text);
  if (index % 4 === 0) {
    const pageId = Number(/(\d+): .*\[selected\]/.exec(pages.text)?.[1]);
    const nav = await session.call('navigate_page', {pageId, url: 'data:text/html,<p>hello</p>'});
    assert.equal(nav.isError, false, nav.text);
  }
  await session.close();
}

async function visits(server: HttpTestServer, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({length: AT_ONCE}, async () => {
      while (next < count) {
        await visit(server, next++);
      }
    }),
  );
}

describe('HTTP session leaks', () => {
  it(`opens and closes ${SESSIONS} sessions with Chrome targets, contexts and server heap back to baseline`, async () => {
    const server = await startHttpServer({
      args: ['--parallelSessions'],
      env: {CDP_MCP_HEAP_REPORT: '1'},
      nodeArgs: ['--expose-gc'],
    });
    try {
      // Warm up: code paths compiled, caches filled, the browser started.
      await visits(server, 16);
      const baseline = await server.heapReport();
      await visits(server, SESSIONS);
      // The sessions' objects go once the collector and their finalizers have
      // run: ask again (bounded) until no session or scope is left, and no
      // page but those the browser still has.
      const collected = (report: HeapReport) =>
        report.live?.['mcpSession'] === 0 &&
        (report.live['browserScope'] ?? 0) === 0 &&
        (report.live['page'] ?? 0) === report.pages;
      let end = await server.heapReport();
      const deadline = Date.now() + COLLECTED_WAIT_MS;
      while (!collected(end) && Date.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 200));
        end = await server.heapReport();
      }
      const figures = `baseline ${JSON.stringify(baseline)}\nend ${JSON.stringify(end)}`;
      assert.equal(end.mcpSessions, 0, figures);
      assert.equal(end.sessions, baseline.sessions, figures);
      assert.equal(end.listeners, baseline.listeners, figures);
      assert.equal(end.contexts, baseline.contexts, figures);
      assert.equal(end.targets, baseline.targets, figures);
      assert.equal(end.pages, baseline.pages, figures);
      assert.equal(end.pending, 0, figures);
      assert.ok(collected(end), `MCP sessions, browser scopes and closed pages all collected: ${figures}`);
      assert.ok(end.heapUsed <= baseline.heapUsed * (1 + HEAP_GROWTH_LIMIT), figures);
      process.stderr.write(`# session leak check: ${figures}\n`);
    } finally {
      await server.close();
    }
  });
});
