/**
 * Threat: another local user (or any local process) drives the browser.
 * A Chrome that listens on a DevTools port takes WebSocket connections from
 * anyone on the machine, without our token: they could open
 * `file:///etc/shadow` as the server's user, read every session's cookies and
 * ignore every switch. The launched Chrome speaks to the server over its
 * debugging pipe only, so no process the server starts may listen on a TCP
 * port (the HTTP server's own, token-guarded port excepted), and no
 * DevToolsActivePort file (which names such a port) may appear, in every
 * mode (stdio, HTTP, the CLI's background server) and after the tools that
 * once needed a port (Lighthouse, extensions, PWA).
 */
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {readState} from '../../../src/config/daemonState.js';
import {FixtureServer} from '../../support/fixtureServer.js';
import {startHttpServer} from '../../support/httpClient.js';
import {activePortFiles, chromeCommands, processTree, treeListeners} from '../../support/listeners.js';
import {SERVER_BIN, startServer, TEST_FLAGS} from '../../support/mcpClient.js';

/** One CLI run may start the server and Chrome. */
const CLI_TIMEOUT_MS = 90_000;

/** Asserts that nothing under `pid` listens on TCP (but `allowedPort`), and that Chrome was started and has no port. */
function assertNoDebuggingPort(pid: number, allowedPort?: number): void {
  const chrome = chromeCommands(pid);
  assert.ok(chrome.length > 0, `no Chrome process runs under the server (pid ${pid}): the test proves nothing`);
  const listeners = treeListeners(pid).filter(l => l.port !== allowedPort);
  assert.deepEqual(
    listeners,
    [],
    `processes under the server listen on TCP ports another local user can connect to:\n${listeners
      .map(l => `pid ${l.pid} port ${l.port} (${l.command})`)
      .join('\n')}`,
  );
  assert.deepEqual(activePortFiles(pid), [], 'a DevToolsActivePort file names a debugging port');
  for (const command of chrome) {
    assert.doesNotMatch(command, /--remote-debugging-port/, 'Chrome was started with a debugging port');
  }
}

describe('security: the launched Chrome listens on no debugging port', () => {
  let fixtures: FixtureServer;
  let root: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/', '<!doctype html><html lang="en"><title>Page</title><h1>Hello</h1></html>');
    fixtures.route('/manifest.json', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/manifest+json'});
      res.end(
        JSON.stringify({
          name: 'App',
          id: '/app',
          start_url: '/app/',
          display: 'standalone',
          icons: [{src: '/icon.png', sizes: '192x192', type: 'image/png'}],
        }),
      );
    });
    fixtures.html('/app/', '<!doctype html><link rel="manifest" href="/manifest.json"><title>App</title>app');
    root = mkdtempSync(join(tmpdir(), 'security-port-'));
  });

  after(async () => {
    await fixtures?.stop();
    rmSync(root, {recursive: true, force: true});
  });

  it('over stdio, also after Lighthouse, an extension and a PWA were used', async () => {
    const extension = join(root, 'extension');
    mkdirSync(extension);
    writeFileSync(
      join(extension, 'manifest.json'),
      JSON.stringify({manifest_version: 3, name: 'Probe', version: '1.0', background: {service_worker: 'sw.js'}}),
    );
    writeFileSync(join(extension, 'sw.js'), 'self.addEventListener("install", () => {});');
    const mcp = await startServer({args: ['--categoryExtensions', '--categoryPwa']});
    try {
      const navigated = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
      assert.equal(navigated.isError, false, navigated.text);
      assert.ok(mcp.pid);
      assertNoDebuggingPort(mcp.pid);
      const audit = await mcp.call('lighthouse_audit', {pageId: 1, mode: 'snapshot'});
      assert.equal(audit.isError, false, audit.text);
      const installed = await mcp.call('install_extension', {path: extension});
      assert.match(installed.text, /^Extension installed\. Id: [a-p]{32}$/);
      const listed = await mcp.call('list_extensions');
      assert.match(listed.text, /"Probe" v1\.0 Enabled/);
      const manifestId = fixtures.url('/app');
      const pwa = await mcp.call('install_pwa', {manifestId, installUrlOrBundleUrl: fixtures.url('/app/')});
      assert.equal(pwa.isError, false, pwa.text);
      const state = await mcp.call('get_os_app_state', {manifestId});
      assert.equal(state.isError, false, state.text);
      assertNoDebuggingPort(mcp.pid);
    } finally {
      await mcp.close();
    }
  });

  it('over HTTP: only the token-guarded MCP port listens', async () => {
    const server = await startHttpServer();
    try {
      const session = await server.connect();
      const pages = await session.call('list_pages');
      assert.equal(pages.isError, false, pages.text);
      assert.ok(server.process.pid);
      const mcpPort = Number(new URL(server.url).port);
      assert.deepEqual(
        treeListeners(server.process.pid).map(l => l.port),
        [mcpPort],
        'the server itself listens on its MCP port',
      );
      assertNoDebuggingPort(server.process.pid, mcpPort);
      await session.close();
    } finally {
      await server.close();
    }
  });

  it("the CLI's background server", async () => {
    const stateDir = join(root, 'state');
    const cli = (...args: string[]) =>
      new Promise<{code: number; stdout: string; stderr: string}>(resolve => {
        execFile(
          process.execPath,
          [SERVER_BIN, ...args],
          {env: {...process.env, CDP_MCP_STATE_DIR: stateDir}, timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL'},
          (error, stdout, stderr) =>
            resolve({code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr}),
        );
      });
    const started = await cli('start', ...TEST_FLAGS);
    let pid: number | undefined;
    try {
      assert.equal(started.code, 0, started.stderr);
      pid = readState(stateDir)?.pid;
      assert.ok(pid, 'the background server wrote its state');
      const navigated = await cli('navigate_page', '--url', fixtures.url('/'));
      assert.equal(navigated.code, 0, navigated.stderr);
      const state = readState(stateDir);
      assertNoDebuggingPort(pid, state ? Number(new URL(state.url).port) : undefined);
    } finally {
      await cli('stop');
      for (const leftover of pid ? processTree(pid) : []) {
        try {
          process.kill(leftover, 'SIGKILL');
        } catch {
          // Gone: the normal case.
        }
      }
    }
  });
});
