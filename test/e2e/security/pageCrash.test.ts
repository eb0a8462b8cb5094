import assert from 'node:assert/strict';
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {type CallResult, startServer, type TestServer} from '../../support/mcpClient.js';

/** Bound of waiting for a state the page or the server reaches by itself. */
const STATE_MS = 60_000;

async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + STATE_MS;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    await new Promise(resolve => setTimeout(resolve, 25));
  }
  throw new Error(`${what} never happened within ${STATE_MS} ms`);
}

interface Proc {
  pid: number;
  ppid: number;
  cmd: string;
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      found.push({pid: Number(entry), ppid, cmd: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')});
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/**
 * The web-page renderers of the Chrome that server `serverPid` launched (its
 * profile folder names them): what the kernel's OOM killer would end.
 */
function pageRenderers(serverPid: number): number[] {
  const all = processes();
  const chrome = all.find(p => p.ppid === serverPid && p.cmd.includes('--user-data-dir='));
  const profile = /--user-data-dir=(\S+)/.exec(chrome?.cmd ?? '')?.[1];
  assert.ok(profile, 'the launched Chrome was not found');
  return all
    .filter(p => p.cmd.includes(`--user-data-dir=${profile} `) && p.cmd.includes('--type=renderer'))
    .filter(p => !p.cmd.includes('--top-chrome-webui') && !p.cmd.includes('--extension-process'))
    .map(p => p.pid);
}

/**
 * A renderer that dies while a call waits on it (out of memory, killed) makes
 * that call fail with the crash, whatever the tool: never a success for work
 * that did not happen, never a wait until the call's own timeout.
 */
describe('a page crash during a call', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let logDir: string;
  let log: string;
  let hung = 0;

  before(async () => {
    fixtures = await new FixtureServer().start();
    // Runaway script: it says so (a beacon the fixture server records), then never yields.
    fixtures.html(
      '/hang',
      `<title>Hang</title><button>Never</button><script>addEventListener('load', () => setTimeout(() => { navigator.sendBeacon('/hung?' + location.search.slice(1)); for (;;) {} }, 0))</script>`,
    );
    fixtures.html('/next', '<title>Next</title><p>next</p>');
    fixtures.html('/plain', '<title>Plain</title><p>plain</p>');
    fixtures.route('/hung', (_req, res) => {
      hung++;
      res.writeHead(204).end();
    });
    logDir = mkdtempSync(join(tmpdir(), 'cdp-mcp-crash-test-'));
    log = join(logDir, 'server.log');
    mcp = await startServer({args: ['--logFile', log]});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(logDir, {recursive: true, force: true});
  });

  /**
   * How often `tool`'s work on page 1 has started under the page's guard (its
   * log says so): from then on a crash is the call's. The call's turn ("runs")
   * comes earlier; a crash between the two is one the call found, not one
   * during it.
   */
  function runs(tool: string): number {
    return readFileSync(log, 'utf8').split(`debug ${tool} works on page 1`).length - 1;
  }

  /** Loads the runaway page, then calls `tool` and kills the renderers while the call runs. */
  async function crashDuring(tool: string, args: Record<string, unknown>): Promise<CallResult> {
    const before = hung;
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url(`/hang?${before}`)});
    await waitFor('the page script hanging', () => (hung > before ? true : undefined));
    const started = runs(tool);
    const call = mcp.call(tool, {pageId: 1, ...args});
    await waitFor(`${tool} running`, () => (runs(tool) > started ? true : undefined));
    assert.ok(mcp.pid);
    for (const pid of pageRenderers(mcp.pid)) {
      process.kill(pid, 'SIGKILL');
    }
    return call;
  }

  for (const [tool, args] of [
    ['navigate_page', {url: '/next'}],
    ['take_snapshot', {}],
    ['evaluate_script', {function: '() => document.title'}],
    ['take_screenshot', {}],
  ] as const) {
    it(`${tool} fails with the crash`, async () => {
      const given = 'url' in args ? {url: fixtures.url(args.url)} : args;
      const r = await crashDuring(tool, given);
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, new RegExp(`Page 1 crashed while ${tool} was running\\b.*\\. Reload it with navigate_page`));
      assert.doesNotMatch(r.text, /Successfully/);
      const list = await mcp.call('list_pages');
      assert.match(list.text, /1: .*\/hang\?\d+ \[selected\]/, 'the page stayed on the crashed document');
      // Navigation brings it back with a new renderer.
      const back = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/plain'), timeout: STATE_MS});
      assert.match(back.text, /^Successfully navigated to .*\/plain\./, back.text);
    });
  }
});
