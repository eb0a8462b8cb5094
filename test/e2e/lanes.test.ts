import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startHttpServer} from '../support/httpClient.js';
import {Holds, HUNG_BOUND_S, startedWhile, textOf, track, until} from '../support/hungPages.js';
import {CALL_TIMEOUT_MS, startServer, type TestServer} from '../support/mcpClient.js';

type CallToolResult = Awaited<ReturnType<TestServer['client']['callTool']>>;

/** A page titled `title` with a button that counts its clicks. */
function pageHtml(title: string): string {
  return `<title>${title}</title><button onclick="window.clicks = (window.clicks || 0) + 1">Press</button>`;
}

describe('--lanes page: a stuck page holds back only its own calls', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  // Page 1 blocks in a request that never gets its answer: stuck as in while (true), with no
  // core spinning for the whole bound (lanesHung.test.ts keeps a page that spins for real).
  const holds = new Holds();

  before(async () => {
    fixtures = await new FixtureServer().start();
    for (const n of [1, 2, 3, 4, 5]) {
      fixtures.html(`/p${n}`, pageHtml(`P${n}`));
    }
    // The spinning call runs out at --pageCallTimeout (its error names it), not at the real 60 s.
    mcp = await startServer({
      args: ['--lanes', 'page', '--pageCallTimeout', String(HUNG_BOUND_S)],
      env: {CDP_MCP_DEBUG: '1'},
    });
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/p1')});
    for (const n of [2, 3, 4, 5]) {
      const opened = await mcp.call('new_page', {url: fixtures.url(`/p${n}`)});
      assert.match(opened.text, new RegExp(`${n}: P${n} \\(.*/p${n}\\) \\[selected\\]`), opened.text);
    }
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await holds.stop();
  });

  it('runs take_snapshot, click, evaluate_script and list_pages on page 2 while page 1 never yields', async () => {
    const hold = await holds.next();
    const hung = track(
      mcp.client.callTool(
        {
          name: 'evaluate_script',
          arguments: {
            pageId: 1,
            function: `() => { const x = new XMLHttpRequest(); x.open('GET', '${hold.url}', false); x.send(); }`,
          },
        },
        undefined,
        {timeout: CALL_TIMEOUT_MS},
      ),
    );
    await until(hold.reached, 'page 1 to block in its request');

    // Page 2's lane is free: its snapshot starts while page 1's call is stuck.
    const {result: snapshot, during} = await startedWhile(mcp.stderr, 'take_snapshot', 2, hung, () =>
      mcp.call('take_snapshot', {pageId: 2}),
    );
    assert.equal(snapshot.isError, false, snapshot.text);
    const uid = /uid=(\S+) button "Press"/.exec(snapshot.text)?.[1];
    assert.ok(uid, snapshot.text);
    assert.equal(during, true, 'the spinning call ended before the snapshot started');

    const click = await mcp.call('click', {pageId: 2, uid});
    assert.equal(click.isError, false, click.text);
    const clicks = await mcp.call('evaluate_script', {pageId: 2, function: '() => [document.title, window.clicks]'});
    assert.match(clicks.text, /\["P2",1\]/, clicks.text);
    const pages = await mcp.call('list_pages');
    assert.match(pages.text, /1: .*\/p1/, pages.text);

    // The stuck call ends at its bound, saying what the page does and what to do.
    const ended = await hung.promise;
    assert.equal(ended.isError, true, textOf(ended));
    assert.match(textOf(ended), new RegExp(`did not finish within ${HUNG_BOUND_S} s`), textOf(ended));
    assert.match(textOf(ended), /Page 1 is busy: its main thread did not answer .* close_page/, textOf(ended));
  });
});

describe('--lanes page without page-id routing: calls bind to the page selected when they were queued', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    for (const n of [1, 2, 3, 4]) {
      fixtures.html(`/p${n}`, pageHtml(`P${n}`));
    }
    mcp = await startServer({args: ['--lanes', 'page', '--no-page-id-routing']});
    await mcp.call('navigate_page', {url: fixtures.url('/p1')});
    for (const n of [2, 3, 4]) {
      await mcp.call('new_page', {url: fixtures.url(`/p${n}`)});
    }
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('names the page a call without pageId ran on', async () => {
    await mcp.call('select_page', {pageId: 3});
    const result = await mcp.call('evaluate_script', {function: '() => document.title'});
    assert.match(result.text, /"P3"/, result.text);
    assert.match(result.text, /ran on page 3, the selected page when it was queued/, result.text);
  });

  it('lands 0 calls of 4 agents x 20 steps on the wrong page with select_page racing them', async () => {
    // One client, all 80 calls sent at once (4 agents taking turns): each call must act on
    // the page of the last select_page sent before it, however the lanes run them.
    let seed = 23;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let selected = 0;
    const checks: Array<{expected: number; call: Promise<CallToolResult>}> = [];
    const all: Array<Promise<CallToolResult>> = [];
    const send = (name: string, args: Record<string, unknown>) => {
      const call = mcp.client.callTool({name, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS});
      all.push(call);
      return call;
    };
    for (let step = 0; step < 80; step++) {
      const kind = step === 0 ? 0 : random(3);
      if (kind === 0) {
        selected = 1 + random(4);
        void send('select_page', {pageId: selected});
      } else {
        const call =
          kind === 1 ? send('evaluate_script', {function: '() => document.title'}) : send('take_snapshot', {});
        checks.push({expected: selected, call});
      }
    }
    await Promise.all(all);
    const wrong: string[] = [];
    for (const {expected, call} of checks) {
      const text = textOf(await call);
      const ok =
        text.includes(`ran on page ${expected},`) &&
        (text.includes(`"P${expected}"`) || text.includes(`RootWebArea "P${expected}"`));
      if (!ok) {
        wrong.push(`expected page ${expected}: ${text.slice(0, 300)}`);
      }
    }
    assert.ok(checks.length >= 40, `only ${checks.length} page calls`);
    assert.deepEqual(wrong, []);
  });
});

describe('--lanes page over HTTP: a session whose page never yields does not hold back another session', () => {
  it("runs take_snapshot, click and evaluate_script in session B while session A's page never yields", async () => {
    const fixtures = await new FixtureServer().start();
    // Session A's page blocks in a request that never gets its answer: stuck as in while (true), with no core spinning.
    const holds = new Holds();
    const hold = await holds.next();
    fixtures.html('/a', pageHtml('A'));
    fixtures.html('/b', pageHtml('B'));
    const server = await startHttpServer({
      args: ['--lanes', 'page', '--pageCallTimeout', String(HUNG_BOUND_S)],
      env: {CDP_MCP_DEBUG: '1'},
    });
    try {
      const a = await server.connect();
      const b = await server.connect();
      const pageOf = async (session: typeof a, path: string) => {
        const listed = await session.call('list_pages');
        const pageId = Number(/(\d+): .*\[selected\]/.exec(listed.text)?.[1]);
        await session.call('navigate_page', {pageId, url: fixtures.url(path)});
        return pageId;
      };
      const pageA = await pageOf(a, '/a');
      const pageB = await pageOf(b, '/b');
      const hung = track(
        a.client.callTool(
          {
            name: 'evaluate_script',
            arguments: {
              pageId: pageA,
              function: `() => { const x = new XMLHttpRequest(); x.open('GET', '${hold.url}', false); x.send(); }`,
            },
          },
          undefined,
          {timeout: CALL_TIMEOUT_MS},
        ),
      );
      await until(hold.reached, "session A's page to block in its request");
      const {result: snapshot, during} = await startedWhile(server.stderr, 'take_snapshot', pageB, hung, () =>
        b.call('take_snapshot', {pageId: pageB}),
      );
      assert.equal(during, true, "session A's stuck call ended before session B's snapshot started");
      const uid = /uid=(\S+) button "Press"/.exec(snapshot.text)?.[1];
      assert.ok(uid, snapshot.text);
      assert.equal((await b.call('click', {pageId: pageB, uid})).isError, false);
      const clicks = await b.call('evaluate_script', {
        pageId: pageB,
        function: '() => [document.title, window.clicks]',
      });
      assert.match(clicks.text, /\["B",1\]/, clicks.text);
      // Session A's call ends at its bound (before the server closes: its client would wait for it).
      const ended = textOf(await hung.promise);
      assert.match(ended, new RegExp(`did not finish within ${HUNG_BOUND_S} s`), ended);
      assert.match(ended, new RegExp(`Page ${pageA} is busy: its main thread did not answer .* close_page`), ended);
    } finally {
      await server.close();
      await fixtures.stop();
      await holds.stop();
    }
  });
});

describe('default lanes (server): one call at a time, as before', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let open = false;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.route('/gate', (_req, res) => {
      res.writeHead(200, {'content-type': 'text/plain'}).end(open ? 'open' : 'closed');
    });
    fixtures.route('/b-ran', {body: 'ok'});
    fixtures.html('/a', pageHtml('A'));
    fixtures.html('/b', pageHtml('B'));
    mcp = await startServer();
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/a')});
    await mcp.call('new_page', {url: fixtures.url('/b')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('holds a call on page 2 until the busy call on page 1 ends', async () => {
    // Page 1 stays busy (a loop of synchronous requests) until the test opens the gate.
    const busy = track(
      mcp.client.callTool(
        {
          name: 'evaluate_script',
          arguments: {
            pageId: 1,
            function: `() => { for (;;) { const x = new XMLHttpRequest(); x.open('GET', '/gate', false); x.send(); if (x.responseText === 'open') return 'released'; } }`,
          },
        },
        undefined,
        {timeout: CALL_TIMEOUT_MS},
      ),
    );
    const gates = () => fixtures.requests.filter(r => r.url === '/gate').length;
    await until(() => gates() > 0, 'page 1 to start polling');
    const other = track(
      mcp.client.callTool(
        {
          name: 'evaluate_script',
          arguments: {
            pageId: 2,
            function: `() => { const x = new XMLHttpRequest(); x.open('GET', '/b-ran', false); x.send(); return 'b'; }`,
          },
        },
        undefined,
        {timeout: CALL_TIMEOUT_MS},
      ),
    );
    // Page 1 polls on: 200 more round trips, and page 2's call has still not run.
    const seen = gates();
    await until(() => gates() >= seen + 200, 'page 1 to poll on');
    assert.equal(
      fixtures.requests.some(r => r.url === '/b-ran'),
      false,
      'the call on page 2 ran while page 1 was busy',
    );
    assert.equal(other.settled(), false);
    open = true;
    assert.match(textOf(await busy.promise), /released/);
    assert.match(textOf(await other.promise), /"b"/);
    const urls = fixtures.requests.map(r => r.url);
    assert.ok(urls.indexOf('/b-ran') > urls.lastIndexOf('/gate'), 'page 2 ran before page 1 was released');
  });
});
