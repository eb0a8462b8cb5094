import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {type HttpTestServer, startHttpServer} from '../support/httpClient.js';

/** Sessions opened and closed; a few at a time, as several agents would. */
const SESSIONS = 200;
const AT_ONCE = 4;
/** Heap growth allowed after GC (as the soak check): what is left is noise, not per-session state. */
const HEAP_GROWTH_LIMIT = 0.1;

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
      const end = await server.heapReport();
      const figures = `baseline ${JSON.stringify(baseline)}\nend ${JSON.stringify(end)}`;
      assert.equal(end.mcpSessions, 0, figures);
      assert.equal(end.sessions, baseline.sessions, figures);
      assert.equal(end.listeners, baseline.listeners, figures);
      assert.equal(end.contexts, baseline.contexts, figures);
      assert.equal(end.targets, baseline.targets, figures);
      assert.equal(end.pages, baseline.pages, figures);
      assert.equal(end.pending, 0, figures);
      assert.ok(end.heapUsed <= baseline.heapUsed * (1 + HEAP_GROWTH_LIMIT), figures);
      process.stderr.write(`# session leak check: ${figures}\n`);
    } finally {
      await server.close();
    }
  });
});
