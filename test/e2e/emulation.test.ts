import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

function json(text: string): unknown {
  const m = /```json\n([\s\S]*)\n```/.exec(text);
  assert.ok(m, text);
  return JSON.parse(m[1] ?? 'null');
}

describe('emulation', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.route('/payload', {
      headers: {'content-type': 'text/plain', 'cache-control': 'no-store'},
      body: 'p'.repeat(20_000),
    });
    fixtures.route('/headers', (req, res) => {
      res.writeHead(200, {'content-type': 'application/json', 'cache-control': 'no-store'});
      res.end(JSON.stringify({ua: req.headers['user-agent'], custom: req.headers['x-test-header'] ?? null}));
    });
    fixtures.html('/page', '<!doctype html><title>emu</title><p>emulation</p>');
    mcp = await startServer();
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  const timedFetch = `async () => { const t = performance.now(); await fetch('/payload?' + Math.random()).then(r => r.text()); return performance.now() - t; }`;

  it('throttles the network visibly and reports it on every page response', async () => {
    // Best of three: the first fetch also opens the connection, and the machine may be busy.
    const plainRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      plainRuns.push(json((await mcp.call('evaluate_script', {pageId: 1, function: timedFetch})).text) as number);
    }
    const plain = Math.min(...plainRuns);
    const r = await mcp.call('emulate', {pageId: 1, networkConditions: 'Fast 4G'});
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      'Emulation configured successfully\nEmulating network conditions: Fast 4G\nDefault navigation timeout set to 10000 ms',
    );
    const throttled = json((await mcp.call('evaluate_script', {pageId: 1, function: timedFetch})).text) as number;
    // Fast 4G adds 165 ms of latency per request (a floor no machine load can
    // lower); an unthrottled loopback fetch takes a few ms (on a busy machine it
    // may take longer than a throttled one, so the two are not compared).
    assert.ok(throttled >= 150, `throttled ${throttled} ms vs plain ${plain} ms`);
    const connection = json(
      (await mcp.call('evaluate_script', {pageId: 1, function: '() => navigator.connection.rtt'})).text,
    );
    assert.ok(Number(connection) > 0);
    const list = await mcp.call('list_console_messages', {pageId: 1});
    assert.match(
      list.text,
      /^Emulating network conditions: Fast 4G\nDefault navigation timeout set to 10000 ms\n## Console messages/,
    );
  });

  it('goes offline', async () => {
    await mcp.call('emulate', {pageId: 1, networkConditions: 'Offline'});
    const r = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `async () => [navigator.onLine, await fetch('/payload').then(() => 'loaded', e => e.message)]`,
    });
    assert.deepEqual(json(r.text), [false, 'Failed to fetch']);
  });

  it('resets what a later call omits', async () => {
    const r = await mcp.call('emulate', {pageId: 1, cpuThrottlingRate: 4});
    assert.equal(r.text, 'Emulation configured successfully\nEmulating CPU throttling: 4x slowdown');
    const online = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => fetch('/payload').then(() => navigator.onLine)`,
    });
    assert.deepEqual(json(online.text), true);
  });

  it('sends and reports an emulated user agent and extra headers', async () => {
    const r = await mcp.call('emulate', {
      pageId: 1,
      userAgent: 'AgentSmith/1.0',
      extraHttpHeaders: '{"X-Test-Header":"yes"}',
    });
    assert.equal(r.text, 'Emulation configured successfully\nEmulating user agent: AgentSmith/1.0');
    const seen = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `async () => [navigator.userAgent, await fetch('/headers').then(r => r.json())]`,
    });
    assert.deepEqual(json(seen.text), ['AgentSmith/1.0', {ua: 'AgentSmith/1.0', custom: 'yes'}]);
    await mcp.call('emulate', {pageId: 1});
    const reset = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `async () => [navigator.userAgent, await fetch('/headers').then(r => r.json())]`,
    });
    const [ua, server] = json(reset.text) as [string, {custom: string | null}];
    assert.match(ua, /Chrome\//);
    assert.equal(server.custom, 'yes', 'extra headers stay until given again');
    await mcp.call('emulate', {pageId: 1, extraHttpHeaders: ''});
    const cleared = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => fetch('/headers').then(r => r.json())`,
    });
    assert.equal((json(cleared.text) as {custom: string | null}).custom, null);
  });

  it('emulates the color scheme and other media features', async () => {
    const r = await mcp.call('emulate', {
      pageId: 1,
      colorScheme: 'dark',
      prefersReducedMotion: 'reduce',
      forcedColors: 'active',
      prefersContrast: 'more',
    });
    assert.equal(
      r.text,
      'Emulation configured successfully\nEmulating color scheme: dark\nEmulating forced-colors: active\nEmulating prefers-contrast: more\nEmulating prefers-reduced-motion: reduce',
    );
    const media = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => ['(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(forced-colors: active)', '(prefers-contrast: more)'].map(q => matchMedia(q).matches)`,
    });
    assert.deepEqual(json(media.text), [true, true, true, true]);
    await mcp.call('emulate', {pageId: 1, colorScheme: 'light'});
    const light = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => [matchMedia('(prefers-color-scheme: light)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches]`,
    });
    assert.deepEqual(json(light.text), [true, false]);
  });

  it('reports an emulated geolocation and rejects an invalid one', async () => {
    const r = await mcp.call('emulate', {pageId: 1, geolocation: '48.8584,2.2945'});
    assert.equal(
      r.text,
      'Emulation configured successfully\nEmulating geolocation: latitude=48.8584, longitude=2.2945',
    );
    const bad = await mcp.call('emulate', {pageId: 1, geolocation: '100,0'});
    assert.equal(bad.isError, true);
    assert.match(bad.text, /Invalid latitude "100"\. Latitude must be a number between -90 and 90\./);
  });

  it('emulates a mobile touch viewport (the page reloads) and clears it', async () => {
    const r = await mcp.call('emulate', {pageId: 1, viewport: '390x844x3,mobile,touch'});
    assert.equal(
      r.text,
      'Emulation configured successfully\nEmulating viewport: {"deviceScaleFactor":3,"isMobile":true,"hasTouch":true,"isLandscape":false,"width":390,"height":844}',
    );
    const seen = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => [screen.width, devicePixelRatio, 'ontouchstart' in window, matchMedia('(pointer: coarse)').matches]`,
    });
    assert.deepEqual(json(seen.text), [390, 3, true, true]);
    await mcp.call('emulate', {pageId: 1});
    const cleared = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => [devicePixelRatio, 'ontouchstart' in window]`,
    });
    assert.deepEqual(json(cleared.text), [1, false]);
    const bad = await mcp.call('emulate', {pageId: 1, viewport: 'wide'});
    assert.match(bad.text, /Invalid viewport width "NaN"/);
  });
});
