/**
 * HTTP session leak check: sessions opened and closed against one server
 * (`--parallelSessions`, a few at a time, as several agents would), then the
 * server's counts compared with those after a warm-up. Used by the session
 * leak test (a few dozen sessions) and by `npm run soak:sessions` (200).
 *
 * The live object counts (FinalizationRegistry, CDP_MCP_HEAP_REPORT=1) catch a
 * leak of even one session's objects, however small; heap growth after GC is
 * the coarse check that needs many sessions to show a small leak.
 */
import {type HeapReport, type HttpTestServer, startHttpServer} from './httpClient.js';

/** Sessions at once. */
const AT_ONCE = 4;
/** Bound of the wait for the collector to have taken what the closed sessions left. */
const COLLECTED_WAIT_MS = 30_000;

export interface SessionLeakResult {
  baseline: HeapReport;
  end: HeapReport;
  /** Heap growth after GC between the warm-up and the end, in percent. */
  growth: number;
  /** What was left or grew; empty when nothing did. */
  leaks: string[];
  /** The two reports, for a failure message or the script's output. */
  figures: string;
}

/** One agent's visit: initialize, a page in its own context (every 4th one loads a document), DELETE. */
async function visit(server: HttpTestServer, index: number): Promise<void> {
  const session = await server.connect();
  const pages = await session.call('list_pages');
  if (pages.isError) {
    throw new Error(`list_pages failed in session ${index}: ${pages.text}`);
  }
  if (index % 4 === 0) {
    const pageId = Number(/(\d+): .*\[selected\]/.exec(pages.text)?.[1]);
    const nav = await session.call('navigate_page', {pageId, url: 'data:text/html,<p>hello</p>'});
    if (nav.isError) {
      throw new Error(`navigate_page failed in session ${index}: ${nav.text}`);
    }
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

/** Every session, browser scope and closed page collected: only the browser's own pages are left. */
function collected(report: HeapReport): boolean {
  return (
    report.live?.['mcpSession'] === 0 &&
    (report.live['browserScope'] ?? 0) === 0 &&
    (report.live['page'] ?? 0) === report.pages
  );
}

/** Opens and closes `sessions` sessions after `warmup` ones; reports what was left. */
export async function sessionLeakCheck(
  sessions: number,
  warmup: number,
  maxGrowthPercent: number,
): Promise<SessionLeakResult> {
  const server = await startHttpServer({
    args: ['--parallelSessions'],
    env: {CDP_MCP_HEAP_REPORT: '1'},
    nodeArgs: ['--expose-gc'],
  });
  try {
    // Warm up: code paths compiled, caches filled, the browser started.
    await visits(server, warmup);
    const baseline = await server.heapReport();
    await visits(server, sessions);
    // The sessions' objects go once the collector and their finalizers have
    // run: ask again (bounded) until no session or scope is left, and no page
    // but those the browser still has.
    let end = await server.heapReport();
    const deadline = Date.now() + COLLECTED_WAIT_MS;
    while (!collected(end) && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 200));
      end = await server.heapReport();
    }
    const growth = ((end.heapUsed - baseline.heapUsed) / baseline.heapUsed) * 100;
    const leaks: string[] = [];
    if (end.mcpSessions !== 0) {
      leaks.push(`${end.mcpSessions} MCP session(s) still open`);
    }
    for (const key of ['sessions', 'listeners', 'contexts', 'targets', 'pages'] as const) {
      if (end[key] !== baseline[key]) {
        leaks.push(`${key}: ${baseline[key]} after the warm-up, ${end[key]} at the end`);
      }
    }
    if (end.pending !== 0) {
      leaks.push(`${end.pending} CDP command(s) still awaiting an answer`);
    }
    if (!collected(end)) {
      leaks.push(`not collected within ${COLLECTED_WAIT_MS} ms: live ${JSON.stringify(end.live)}`);
    }
    if (growth > maxGrowthPercent) {
      leaks.push(`heap grew ${growth.toFixed(1)}% after GC (limit ${maxGrowthPercent}%)`);
    }
    return {
      baseline,
      end,
      growth,
      leaks,
      figures: `baseline ${JSON.stringify(baseline)}\nend ${JSON.stringify(end)}`,
    };
  } finally {
    await server.close();
  }
}
