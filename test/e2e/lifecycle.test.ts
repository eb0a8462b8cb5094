import assert from 'node:assert/strict';
import {type ChildProcess, spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {
  CHROME_PATH,
  findProcesses,
  SERVER_BIN,
  startServer as startTestServer,
  TEST_FLAGS,
  type TestServer,
} from '../support/mcpClient.js';

/** Every server a test started: the file's `after` kills what a failed test left running. */
const started: TestServer[] = [];

/**
 * Starts a server; a call on it that fails (the server died, say) says what the server
 * printed on stderr, so a failure on a busy CI machine can be told from a slow one.
 */
async function startServer(options?: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(options);
  started.push(server);
  const call = server.call.bind(server);
  server.call = async (...args: Parameters<TestServer['call']>) => {
    try {
      return await call(...args);
    } catch (error) {
      const stderr = server.stderr().split('\n').slice(-20).join('\n');
      throw new Error(`${args[0]} failed: ${String(error)}\nThe server's stderr ended with:\n${stderr}`, {
        cause: error,
      });
    }
  };
  return server;
}

/** Chrome processes started with a profile dir made by our launcher for server `pid`. */
async function chromeOf(profileNeedle: string): Promise<number[]> {
  return (await findProcesses(profileNeedle)).filter(pid => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--user-data-dir=');
    } catch {
      return false;
    }
  });
}

/** Waits for a state; bounded generously, as Chrome's exit and clean-up are slow on a busy machine. */
async function waitUntil(check: () => Promise<boolean>, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) {
      return true;
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return check();
}

/** The --user-data-dir of the Chrome that server `serverPid` launched, found through /proc. */
async function launchedProfile(serverPid: number | null): Promise<string> {
  const pids = await findProcesses('cdp-mcp-profile-');
  // Processes of other files' servers come and go meanwhile: one gone between the listing and the read is skipped.
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!stat || ppid !== serverPid) {
      continue;
    }
    const m = /--user-data-dir=(\S*cdp-mcp-profile-\w+)/.exec(read(`/proc/${pid}/cmdline`).replace(/\0/g, ' '));
    if (m?.[1]) {
      return m[1];
    }
  }
  throw new Error('no launched Chrome found');
}

describe('process lifecycle', () => {
  let fixtures: FixtureServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/', '<title>Home</title>');
  });

  after(async () => {
    for (const server of started) {
      if (server.pid) {
        try {
          process.kill(server.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await server.close().catch(() => undefined);
    }
    await fixtures?.stop();
  });

  it('does not start Chrome before the first tool call', async () => {
    const mcp = await startServer();
    const tools = await mcp.client.listTools();
    assert.ok(tools.tools.length >= 10);
    // Every listed schema is an object schema with described properties.
    for (const tool of tools.tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
    }
    const r = await mcp.call('list_pages');
    assert.equal(r.isError, false);
    const profile = await launchedProfile(mcp.pid);
    assert.ok(existsSync(profile));
    await mcp.close();
    assert.ok(await waitUntil(async () => (await chromeOf(profile)).length === 0), 'Chrome survived stdin close');
    assert.ok(await waitUntil(async () => !existsSync(profile)), 'temporary profile was not removed');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`kills the Chrome it launched on ${signal}`, async () => {
      const mcp = await startServer();
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      const profile = await launchedProfile(mcp.pid);
      assert.ok((await chromeOf(profile)).length > 0);
      assert.ok(mcp.pid);
      process.kill(mcp.pid, signal);
      assert.ok(await waitUntil(async () => (await chromeOf(profile)).length === 0), `Chrome survived ${signal}`);
      await mcp.close().catch(() => undefined);
    });
  }

  it('leaves no Chrome behind even when the server is SIGKILLed, and cleans the profile up later', async () => {
    const mcp = await startServer();
    await mcp.call('list_pages');
    const profile = await launchedProfile(mcp.pid);
    assert.ok(mcp.pid);
    process.kill(mcp.pid, 'SIGKILL');
    // Chrome exits when its debugging pipe to the dead server closes.
    assert.ok(
      await waitUntil(async () => (await chromeOf(profile)).length === 0),
      'Chrome survived SIGKILL of the server',
    );
    assert.ok(existsSync(profile), 'a SIGKILLed server cannot remove its profile');
    await mcp.close().catch(() => undefined);
    // The next launch removes the leftover.
    const next = await startServer();
    await next.call('list_pages');
    assert.equal(existsSync(profile), false, 'stale profile was not removed');
    await next.close();
  });

  describe('attached to a running Chrome', () => {
    let chrome: ChildProcess;
    let profile: string;
    let port = 0;

    before(async () => {
      profile = mkdtempSync(join(tmpdir(), 'attach-test-'));
      chrome = spawn(
        CHROME_PATH,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--remote-debugging-port=0',
          `--user-data-dir=${profile}`,
          '--no-first-run',
          '--disable-background-networking',
          'about:blank',
        ],
        {stdio: 'ignore', detached: true},
      );
      const file = join(profile, 'DevToolsActivePort');
      assert.ok(await waitUntil(async () => existsSync(file) && readFileSync(file, 'utf8').includes('\n')));
      port = Number(readFileSync(file, 'utf8').split('\n')[0]);
    });

    after(() => {
      if (chrome.pid) {
        try {
          process.kill(-chrome.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      rmSync(profile, {recursive: true, force: true});
    });

    it('drives it through --browserUrl and leaves it running after exit', async () => {
      const mcp = await startServer({args: ['--browserUrl', `http://127.0.0.1:${port}`], replaceFlags: true});
      const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      assert.equal(nav.isError, false, nav.text);
      assert.match(nav.text, /1: Home \(/);
      await mcp.close();
      await new Promise(resolve => setTimeout(resolve, 300));
      assert.equal(chrome.exitCode, null, 'attached Chrome was killed');
      const version = await fetch(`http://127.0.0.1:${port}/json/version`);
      assert.equal(version.ok, true);
    });

    it('drives it through --wsEndpoint with handshake headers', async () => {
      const {webSocketDebuggerUrl} = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
        webSocketDebuggerUrl: string;
      };
      const mcp = await startServer({
        args: ['--wsEndpoint', webSocketDebuggerUrl, '--wsHeaders', '{"X-Test":"1"}', '--no-page-id-routing'],
        replaceFlags: true,
      });
      const r = await mcp.call('evaluate_script', {function: '() => location.pathname'});
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /"\/"/);
      await mcp.close();
      assert.equal(chrome.exitCode, null);
    });
  });

  it('says clearly when it cannot attach', async () => {
    const mcp = await startServer({args: ['--browserUrl', 'http://127.0.0.1:9'], replaceFlags: true});
    const r = await mcp.call('list_pages');
    assert.equal(r.isError, true);
    assert.match(r.text, /^Could not connect to Chrome at http:\/\/127\.0\.0\.1:9\. Check that Chrome is running/);
    await mcp.close();
  });

  it('says the profile is in use when a second server shares a --userDataDir, and names the pid', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'cdp-mcp-shared-profile-'));
    const flags = TEST_FLAGS.filter(flag => flag !== '--isolated');
    try {
      const first = await startServer({args: [...flags, '--userDataDir', profile], replaceFlags: true});
      assert.equal((await first.call('list_pages')).isError, false);
      const chromes = await chromeOf(profile);
      assert.ok(chromes.length, 'the first server launched Chrome on the profile');
      const second = await startServer({args: [...flags, '--userDataDir', profile], replaceFlags: true});
      const refused = await second.call('list_pages');
      assert.equal(refused.isError, true);
      const named = new RegExp(
        `The Chrome profile ${profile.replace(/[.]/g, '\\.')} is in use by another Chrome \\(pid (\\d+)\\).*Use --isolated \\(a temporary profile\\) or --userDataDir with another folder`,
      ).exec(refused.text);
      assert.ok(named, refused.text);
      assert.ok(chromes.includes(Number(named[1])), `pid ${named[1]} is the first server's Chrome`);
      assert.doesNotMatch(refused.text, /exited during startup/);
      // The first server's browser is untouched.
      assert.match((await first.call('list_pages')).text, /^## Pages\n1: about:blank \[selected\]$/);
      await second.close();
      await first.close();
    } finally {
      rmSync(profile, {recursive: true, force: true});
    }
  });

  it('rejects bad flags at start with a clear message', async () => {
    const child = spawn(process.execPath, [SERVER_BIN, ...TEST_FLAGS, '--viewport', 'big'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>(resolve => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /--viewport must look like 1280x720, not "big"/);
  });
});
