import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {type HttpSession, type HttpTestServer, resultOf, startHttpServer} from '../support/httpClient.js';

/** Long enough that a test passing through it would time out (the calls below are bounded at 30 s). */
const NEVER_MS = 120_000;
const BOUND = {timeout: 30_000};

const pageIdOf = (text: string) => Number(/(\d+): .*\[selected\]/.exec(text)?.[1]);

/**
 * A page that shows "released" once the fixture server's /release was
 * requested (it polls /state), so one session can unblock another's
 * wait_for: proof that the two calls overlapped.
 */
function gateFixtures(fixtures: FixtureServer, events: string[]): {reset(): void} {
  let released = false;
  fixtures.html(
    '/gate',
    `<p>gate</p><script>
      setInterval(async () => {
        if (document.body.dataset.done) return;
        const state = await (await fetch('/state')).text();
        if (state === 'released') { document.body.dataset.done = '1'; document.body.append('released'); }
      }, 50);
    </script>`,
  );
  fixtures.route('/state', (_req, res) => {
    res.writeHead(200).end(released ? 'released' : 'closed');
  });
  fixtures.route('/release', (_req, res) => {
    released = true;
    events.push('release');
    res.writeHead(200, {'access-control-allow-origin': '*'}).end('ok');
  });
  return {reset: () => (released = false)};
}

/** Starts a wait_for and resolves once the server reports it running (its first progress notification). */
function startWait(session: HttpSession, pageId: number, timeout: number, signal?: AbortSignal) {
  let running!: () => void;
  const started = new Promise<void>(resolve => (running = resolve));
  const result = session.client
    .callTool({name: 'wait_for', arguments: {pageId, text: ['released'], timeout}}, undefined, {
      ...BOUND,
      ...(signal ? {signal, timeout: NEVER_MS * 2} : {}),
      onprogress: () => running(),
    })
    .then(resultOf);
  return {started, result};
}

/** One server with the default flags, shared by the tests that need no other: started once, when first asked for. */
let defaults: Promise<HttpTestServer> | undefined;
const defaultServer = () => (defaults ??= startHttpServer());

after(async () => {
  await (await defaults)?.close();
});

describe('HTTP sessions: scheduling', () => {
  let fixtures: FixtureServer;
  const events: string[] = [];
  let gate: {reset(): void};

  before(async () => {
    fixtures = await new FixtureServer().start();
    gate = gateFixtures(fixtures, events);
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** Session A waits on the gate; session B opens it. */
  async function twoSessions(server: HttpTestServer) {
    const a = await server.connect();
    const b = await server.connect();
    const pageA = pageIdOf((await a.call('list_pages')).text);
    const pageB = pageIdOf((await b.call('list_pages')).text);
    await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/gate')});
    await b.call('navigate_page', {pageId: pageB, url: fixtures.url('/state')});
    return {a, b, pageA, pageB};
  }

  it('with --parallelSessions, calls of two sessions overlap while one session stays in order', async () => {
    const server = await startHttpServer({args: ['--parallelSessions']});
    try {
      events.length = 0;
      gate.reset();
      const {a, b, pageA, pageB} = await twoSessions(server);
      const order: string[] = [];
      const waiting = startWait(a, pageA, 20_000);
      await waiting.started;
      const first = waiting.result.then(r => (order.push('a: wait_for'), r));
      // Queued behind A's wait_for in A's own queue: it must see the gate open.
      const second = a
        .call('evaluate_script', {pageId: pageA, function: '() => document.body.dataset.done === "1"'})
        .then(r => (order.push('a: evaluate_script'), r));
      const opened = await b.call('evaluate_script', {
        pageId: pageB,
        function: `async () => (await fetch(${JSON.stringify(fixtures.url('/release'))})).text()`,
      });
      order.push('b: evaluate_script');
      assert.match(opened.text, /"ok"/);
      const [waited, checked] = await Promise.all([first, second]);
      assert.equal(waited.isError, false, waited.text);
      assert.match(waited.text, /Element matching one of \["released"\] found/);
      assert.match(checked.text, /```json\ntrue\n```/, checked.text);
      assert.deepEqual(order, ['b: evaluate_script', 'a: wait_for', 'a: evaluate_script']);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await server.close();
    }
  });

  it('without it, one call runs at a time server-wide: the other session waits', async () => {
    const server = await defaultServer();
    events.length = 0;
    gate.reset();
    const {a, b, pageA, pageB} = await twoSessions(server);
    const order: string[] = [];
    const waiting = startWait(a, pageA, 1_500);
    await waiting.started;
    const first = waiting.result.then(r => (order.push('a: wait_for'), r));
    const opened = await b.call('evaluate_script', {
      pageId: pageB,
      function: `async () => (await fetch(${JSON.stringify(fixtures.url('/release'))})).text()`,
    });
    order.push('b: evaluate_script');
    const waited = await first;
    // B's call could only run after A's wait ran out: the gate never opened for it.
    assert.equal(waited.isError, true);
    assert.match(waited.text, /Timed out after waiting 1500 ms/);
    assert.match(opened.text, /"ok"/);
    assert.deepEqual(order, ['a: wait_for', 'b: evaluate_script']);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('HTTP sessions: cancellation and progress', () => {
  let fixtures: FixtureServer;
  let server: HttpTestServer;
  let session: HttpSession;
  let pageId: number;
  /** The /late page shows "arrived" once this is set (it polls /arrived): after the progress the test waits for. */
  let arrive = false;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html(
      '/late',
      `<p>start</p><script>
        const poll = setInterval(async () => {
          if ((await (await fetch('/arrived')).text()) === 'yes') { clearInterval(poll); document.body.append('arrived'); }
        }, 50);
      </script>`,
    );
    fixtures.route('/arrived', (_req, res) => {
      res.writeHead(200, {'content-type': 'text/plain'}).end(arrive ? 'yes' : 'no');
    });
    server = await defaultServer();
    session = await server.connect();
    pageId = pageIdOf((await session.call('list_pages')).text);
  });

  after(async () => {
    await session?.close();
    await fixtures?.stop();
  });

  it('cancelling a long wait_for frees the session at once; a cancelled queued call never runs', async () => {
    await session.call('evaluate_script', {pageId, function: '() => { window.ran = 0; }'});
    const first = new AbortController();
    const second = new AbortController();
    const waiting = startWait(session, pageId, NEVER_MS, first.signal);
    await waiting.started;
    const queued = session.client.callTool(
      {name: 'evaluate_script', arguments: {pageId, function: '() => { window.ran++; }'}},
      undefined,
      {signal: second.signal},
    );
    second.abort();
    await assert.rejects(queued, /abort/i);
    first.abort();
    await assert.rejects(waiting.result, /abort/i);
    // Were the session still held by the wait_for (120 s), this would exceed its 30 s bound.
    const next = resultOf(
      await session.client.callTool(
        {name: 'evaluate_script', arguments: {pageId, function: '() => window.ran'}},
        undefined,
        BOUND,
      ),
    );
    assert.match(next.text, /```json\n0\n```/, next.text);
  });

  it('sends progress notifications while a slow wait_for polls', async () => {
    await session.call('navigate_page', {pageId, url: fixtures.url('/late')});
    const notes: Array<{progress: number; message?: string}> = [];
    const result = resultOf(
      await session.client.callTool({name: 'wait_for', arguments: {pageId, text: ['arrived']}}, undefined, {
        ...BOUND,
        onprogress: p => {
          notes.push(p);
          // Two notes seen: the wait polls and reports; now let the text arrive.
          arrive ||= notes.length >= 2;
        },
      }),
    );
    assert.match(result.text, /Element matching one of \["arrived"\] found/);
    assert.ok(notes.length >= 2, JSON.stringify(notes));
    assert.match(notes[0]?.message ?? '', /^Waiting up to 5000 ms for any of \["arrived"\] to appear$/);
    assert.match(notes.at(-1)?.message ?? '', /^Still waiting for any of \["arrived"\]: \d\.\d s of 5 s$/);
    assert.deepEqual(
      notes.map(n => n.progress),
      notes.map((_, i) => i + 1),
    );
  });
});

describe('HTTP sessions: expiry', () => {
  it('closes a session idle for --sessionIdleTimeout, with its context and pages', async () => {
    // 10 s: long enough that the idle session is surely still there when the
    // report after its first call is taken, on a loaded machine too.
    const server = await startHttpServer({args: ['--sessionIdleTimeout', '10'], env: {CDP_MCP_HEAP_REPORT: '1'}});
    let stopKeepAlive = false;
    let keepAlive: Promise<void> | undefined;
    try {
      const busy = await server.connect();
      await busy.call('list_pages');
      // The other session calls all along (a call every 250 ms, a fortieth of
      // the timeout: back to back, the calls kept a core busy for the whole
      // wait), so it never sits idle for long, however slow the machine is; it must stay.
      keepAlive = (async () => {
        while (!stopKeepAlive) {
          const listed = await busy.call('list_pages');
          assert.equal(listed.isError, false, listed.text);
          await new Promise(resolve => setTimeout(resolve, 250));
        }
      })();
      const before = await server.heapReport();
      const idle = await server.connect();
      await idle.call('list_pages');
      const during = await server.heapReport();
      assert.equal(during.contexts, before.contexts + 1, 'the second session has its own context');
      // Idle from here. Bounded by time, not by a count of calls: on a loaded
      // machine the expiry (swept every 750 ms) may take far more calls than usual.
      let report = during;
      const deadline = Date.now() + 60_000;
      // The session goes first, then its context and pages close (async).
      const settled = () =>
        report.mcpSessions === before.mcpSessions &&
        report.contexts === before.contexts &&
        report.targets === before.targets;
      while (!settled() && Date.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 250));
        report = await server.heapReport();
      }
      assert.equal(report.mcpSessions, before.mcpSessions, 'the idle session expired');
      assert.equal(report.contexts, before.contexts, "the idle session's context closed");
      assert.equal(report.targets, before.targets, "the idle session's pages closed");
      stopKeepAlive = true;
      await keepAlive;
      const gone = await idle.call('list_pages').catch((error: unknown) => error);
      assert.match(String(gone), /Session not found: it ended or expired/);
      assert.equal((await busy.call('list_pages')).isError, false);
      await busy.close();
    } finally {
      stopKeepAlive = true;
      await keepAlive?.catch(() => undefined);
      await server.close();
    }
  });
});
