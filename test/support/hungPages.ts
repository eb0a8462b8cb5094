import assert from 'node:assert/strict';
import {after, before, it} from 'node:test';

import ws from 'ws';

import {type RunningChromium, startChromium} from './chromium.js';
import {FixtureServer} from './fixtureServer.js';
import {CALL_TIMEOUT_MS, openPage, startServer, type TestServer} from './mcpClient.js';

/**
 * A server attached to a Chromium the test runs itself, so that the test can
 * stop a page the way a user's DevTools does (a second CDP client that pauses
 * it), with pages that hang in the ways issue 23 names.
 */
export interface HungBrowser {
  mcp: TestServer;
  fixtures: FixtureServer;
  chromium: RunningChromium;
  /** Opens a page with a button; returns its id. */
  healthyPage(): Promise<number>;
  /** Opens a page that spins in `while (true)` once loaded; returns its id once it spins. */
  spinningPage(): Promise<number>;
  /** Opens a page whose main thread blocks for good (Holds); returns its id once it blocks. */
  blockedPage(): Promise<number>;
  /** Opens a page showing `html` (at a path of its own); returns its id. */
  page(html: string): Promise<number>;
  /** Blocks the main thread of `pageId` (opened here) for good (Holds); resolves once it blocks. */
  block(pageId: number): Promise<void>;
  /** Opens a page and pauses it in the debugger from another CDP client (a `debugger;` statement). */
  pausedPage(): Promise<{pageId: number; resume(): Promise<void>}>;
  /** How many calls of `tool` (on `pageId`, when given) the server has started running (its debug log). */
  runs(tool: string, pageId?: number): number;
  /** Resolves once the server has started running more than `than` calls of `tool` (on `pageId`, when given). */
  running(tool: string, than: number, pageId?: number): Promise<void>;
  close(): Promise<void>;
}

/** Polls `check` (a state, not a time) until it holds; fails after `ms`. */
export async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

let pages = 0;

/**
 * Servers that take a request and never answer it. A page's synchronous
 * XMLHttpRequest to one blocks its main thread for good, as `while (true)`
 * does, but burns no CPU: the page answers no CDP command (Chrome runs them
 * on that thread), and the server's probe of a stuck page (laneNotes.ts)
 * gets no answer either way, so it says the same ("is busy"). Each hold has
 * a port of its own: Chrome opens at most 6 connections to one host and
 * port, and the 7th blocked page's request would wait in Chrome, never
 * reaching the server (nor would a page load from that origin meanwhile).
 */
export class Holds {
  readonly #servers: FixtureServer[] = [];

  /**
   * A URL whose request never gets its answer; `script`: a script for the page
   * that asks for it synchronously once the current task ends; `reached`: whether the request arrived.
   */
  async next(): Promise<{url: string; script: string; reached: () => boolean}> {
    const server = await new FixtureServer().start();
    this.#servers.push(server);
    // Never answered (stop() closes the connection).
    server.route('/hold', () => undefined);
    const url = server.url('/hold');
    return {
      url,
      script: `setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', '${url}', false); x.send(); })`,
      reached: () => server.requests.some(r => r.url === '/hold'),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.#servers.splice(0).map(server => server.stop()));
  }
}

/**
 * The bound (--pageCallTimeout, seconds) of the servers whose tests wait for
 * a hung call to run out: its error names it. Far above what a page that
 * answers takes, even with two CPU burners beside the test.
 */
export const HUNG_BOUND_S = 5;

/** How many lines of the server's debug log say that `tool` started running (on `pageId`, when given). */
export function countRuns(stderr: string, tool: string, pageId?: number): number {
  const line = new RegExp(`${tool} runs \\(session \\d+${pageId === undefined ? '' : `, page ${pageId}\\)`}`, 'g');
  return stderr.match(line)?.length ?? 0;
}

/**
 * Runs `call` (a call of `tool` on `pageId`, or on none) and tells whether the server
 * started running it while `other` was still in flight: the state that shows
 * a lane did not hold it back (under a lock it would start only once `other`
 * ended), whatever either call's length. `stderr`: the server's debug log.
 */
export async function startedWhile<T>(
  stderr: () => string,
  tool: string,
  pageId: number | undefined,
  other: {settled: () => boolean},
  call: () => Promise<T>,
): Promise<{result: T; during: boolean}> {
  const before = countRuns(stderr(), tool, pageId);
  const result = call();
  let during = false;
  await until(
    () => {
      during = !other.settled();
      return countRuns(stderr(), tool, pageId) > before;
    },
    `the server to run ${tool}${pageId === undefined ? '' : ` on page ${pageId}`}`,
    CALL_TIMEOUT_MS,
  );
  return {result: await result, during};
}

/**
 * A server attached to a Chromium of the test's own. `bounded`: with
 * --pageCallTimeout HUNG_BOUND_S, for tests that wait for hung calls to run
 * out (without it they run out at the real bounds, 30 and 60 s).
 */
export async function startHungBrowser(lanes: 'server' | 'page', bounded = false): Promise<HungBrowser> {
  const fixtures = await new FixtureServer().start();
  const chromium = await startChromium();
  const sockets: ws[] = [];
  const holds = new Holds();
  const mcp = await startServer({
    args: [
      '--browserUrl',
      `http://127.0.0.1:${chromium.port}`,
      '--lanes',
      lanes,
      ...(bounded ? ['--pageCallTimeout', String(HUNG_BOUND_S)] : []),
    ],
    replaceFlags: true,
    env: {CDP_MCP_DEBUG: '1'},
  });
  const openHtml = async (path: string, html: string): Promise<number> => {
    fixtures.html(path, html);
    return openPage(mcp, fixtures.url(path));
  };
  const paths = new Map<number, string>();
  const open = async (path: string, html: string): Promise<number> => {
    const pageId = await openHtml(path, html);
    paths.set(pageId, path);
    return pageId;
  };
  /** A second CDP client on the page at `path`, as a user's DevTools is. */
  const attach = async (path: string) => {
    const targets = (await (await fetch(`http://127.0.0.1:${chromium.port}/json/list`)).json()) as Array<{
      url: string;
      webSocketDebuggerUrl: string;
    }>;
    const target = targets.find(t => t.url === fixtures.url(path));
    if (!target) {
      throw new Error(`no target for ${path}`);
    }
    const socket = new ws(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return socket;
  };
  // From a CDP client of the test's own: evaluate_script would wait (to its bound) for the request the script starts.
  const block = async (pageId: number) => {
    const path = paths.get(pageId);
    if (!path) {
      throw new Error(`page ${pageId} was not opened by this HungBrowser`);
    }
    const hold = await holds.next();
    const socket = await attach(path);
    try {
      socket.send(JSON.stringify({id: 1, method: 'Runtime.evaluate', params: {expression: hold.script}}));
      await until(hold.reached, `page ${pageId} to block in its request`);
    } finally {
      socket.close();
    }
  };
  return {
    mcp,
    fixtures,
    chromium,
    block,
    page: html => open(`/page-${++pages}`, html),
    healthyPage: () => open(`/healthy-${++pages}`, '<title>Healthy</title><button>Press</button>'),
    async spinningPage() {
      const n = ++pages;
      fixtures.route(`/spinning-${n}`, {body: 'ok'});
      // After load (new_page waits for it), tell the fixture server, then never yield.
      const id = await open(
        `/spin-${n}`,
        `<title>Spin</title><script>addEventListener('load', () => setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', '/spinning-${n}', false); x.send(); while (true) {} }))</script>`,
      );
      await until(() => fixtures.requests.some(r => r.url === `/spinning-${n}`), `page ${id} to start spinning`);
      return id;
    },
    async blockedPage() {
      const pageId = await open(`/blocked-${++pages}`, '<title>Blocked</title><button>Press</button>');
      await block(pageId);
      return pageId;
    },
    async pausedPage() {
      const path = `/paused-${++pages}`;
      const pageId = await open(path, '<title>Paused</title><button>Press</button>');
      const socket = await attach(path);
      sockets.push(socket);
      let paused = false;
      let id = 0;
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as {method?: string};
        paused = message.method === 'Debugger.paused' ? true : message.method === 'Debugger.resumed' ? false : paused;
      });
      const send = (method: string, params: Record<string, unknown> = {}) =>
        socket.send(JSON.stringify({id: ++id, method, params}));
      // What a user's DevTools does: the Debugger domain on, then the page hits `debugger;`.
      send('Debugger.enable');
      send('Runtime.evaluate', {expression: 'setTimeout(() => { debugger; })'});
      await until(() => paused, `page ${pageId} to pause in the debugger`);
      return {
        pageId,
        async resume() {
          send('Debugger.resume');
          await until(() => !paused, `page ${pageId} to resume`);
        },
      };
    },
    runs: (tool, pageId) => countRuns(mcp.stderr(), tool, pageId),
    async running(tool, than, pageId) {
      await until(() => countRuns(mcp.stderr(), tool, pageId) > than, `the server to run ${tool}`, CALL_TIMEOUT_MS);
    },
    async close() {
      for (const socket of sockets) {
        socket.close();
      }
      await mcp.close();
      chromium.kill();
      await fixtures.stop();
      await holds.stop();
    },
  };
}

export type CallToolResult = Awaited<ReturnType<HungBrowser['mcp']['client']['callTool']>>;

/**
 * Far below every bound a hung call waits out without --pageCallTimeout (30 s
 * for a snapshot, 60 s for a screenshot or a script): a call that waited for
 * a cancelled one to reach its bound fails here, while a machine with two CPU
 * burners beside it answers a call on a healthy page in a few seconds.
 */
export const PROMPT_MS = 20_000;

export function textOf(result: CallToolResult): string {
  return (result.content as Array<{type: string; text?: string}>).map(c => c.text ?? '').join('\n');
}

/** A call in flight whose settling the test can look at without waiting for it. */
export function track(promise: Promise<CallToolResult>): {promise: Promise<CallToolResult>; settled: () => boolean} {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  tracked.catch(() => undefined);
  return {promise: tracked, settled: () => done};
}

export function send(hb: HungBrowser, name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  return hb.mcp.client.callTool({name, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS, signal});
}

/**
 * The hung calls of issue 23, each on the page that hangs it. A page whose
 * main thread never yields is a blocked one: it hangs the call as one
 * spinning in while (true) does, without a core spinning meanwhile.
 */
const HUNG_CALLS = [
  {tool: 'take_screenshot', page: 'blocked', args: {}},
  {tool: 'take_snapshot', page: 'blocked', args: {}},
  {tool: 'evaluate_script', page: 'paused', args: {function: '() => document.title'}},
] as const;

/**
 * For each hung call: the client cancels it while it runs (the SDK's
 * AbortSignal: notifications/cancelled); the call ends at once, and a call
 * that needs what it held (`next`) runs well before the hung call's bound.
 * Then the hung page is closed, as its error advises.
 */
export function cancellationTests(
  lanes: 'server' | 'page',
  next: (hb: HungBrowser, healthy: number) => Promise<CallToolResult>,
): void {
  let hb: HungBrowser;
  let healthy: number;

  before(async () => {
    hb = await startHungBrowser(lanes);
    healthy = await hb.healthyPage();
  });

  after(async () => {
    await hb?.close();
  });

  for (const {tool, page, args} of HUNG_CALLS) {
    it(`a cancelled ${tool} on a ${page} page ends at once and frees ${lanes === 'page' ? 'its lane and the browser' : 'the lock'}`, async () => {
      const hung = page === 'blocked' ? await hb.blockedPage() : (await hb.pausedPage()).pageId;
      const controller = new AbortController();
      const before = hb.runs(tool);
      const call = send(hb, tool, {pageId: hung, ...args}, controller.signal);
      await hb.running(tool, before);
      controller.abort();
      await assert.rejects(call, /abort/i);
      const answered = await next(hb, healthy);
      assert.notEqual(answered.isError, true, textOf(answered));
      const closed = await hb.mcp.call('close_page', {pageId: hung});
      assert.equal(closed.isError, false, closed.text);
    });
  }
}
