/**
 * --disabledTools and --enabledTools over every way in: stdio, HTTP, the CLI
 * and a --config file. A turned-off tool is never listed, and every attempt
 * to call it anyway (other arguments, none, wrong types, other spellings)
 * is refused without running: the page it would change stays as it was.
 */
import assert from 'node:assert/strict';
import {execFile, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {readState} from '../../src/config/daemonState.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startHttpServer} from '../support/httpClient.js';
import {SERVER_BIN, startServer, TEST_FLAGS, type TestServer} from '../support/mcpClient.js';

const NOT_ENABLED =
  /^Tool evaluate_script is not enabled: it is turned off by --disabledTools\. Restart the server without evaluate_script in --disabledTools to enable it\.$/;

/** Calls an attacker (or a confused model) would try for a turned-off evaluate_script. */
function evaluateAttempts(): Array<Record<string, unknown>> {
  const fn = '() => { document.title = "pwned"; return 1; }';
  return [
    {pageId: 1, function: fn},
    {function: fn},
    {},
    {pageId: 1, function: fn, args: []},
    {pageId: 1, function: fn, extra: true},
    {pageId: '1', function: fn},
    {pageId: 1, function: 42},
    {pageId: 1, function: fn, args: [{uid: '1_1'}]},
    {pageId: 1, function: `async ${fn}`},
    {pageId: 1, function: fn, dialogAction: 'accept'},
  ];
}

describe('--disabledTools over stdio', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/page', '<!doctype html><title>untouched</title><p>hello</p>');
    mcp = await startServer({args: ['--disabledTools', 'evaluate_script,upload_file', '--disabledTools=click']});
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
    assert.equal(nav.isError, false, nav.text);
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('does not list the turned-off tools, and lists the others', async () => {
    const names = (await mcp.client.listTools()).tools.map(t => t.name);
    for (const off of ['evaluate_script', 'upload_file', 'click']) {
      assert.ok(!names.includes(off), `${off} is listed`);
    }
    for (const on of ['navigate_page', 'take_snapshot', 'fill', 'hover']) {
      assert.ok(names.includes(on), `${on} is not listed`);
    }
  });

  it('refuses every attempt to call a turned-off tool, naming the flag, and never runs it', async () => {
    let refused = 0;
    for (const args of evaluateAttempts()) {
      const r = await mcp.call('evaluate_script', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.text, NOT_ENABLED, JSON.stringify(args));
      refused++;
    }
    for (const [name, args] of [
      ['upload_file', {pageId: 1, uid: '1_1', filePath: '/etc/passwd'}],
      ['click', {pageId: 1, uid: '1_1'}],
      ['click', {pageId: 1, uid: '1_1', dblClick: true, includeSnapshot: true}],
    ] as const) {
      const r = await mcp.call(name, args);
      assert.equal(r.isError, true);
      assert.match(r.text, new RegExp(`^Tool ${name} is not enabled: it is turned off by --disabledTools\\.`));
      refused++;
    }
    // Other spellings are not the tool: unknown, and nothing runs either.
    for (const name of ['Evaluate_Script', 'evaluate_script ', 'evaluate-script', 'evaluateScript']) {
      await assert.rejects(mcp.call(name, {pageId: 1, function: '() => { document.title = "pwned"; }'}), {
        code: -32602,
        message: /Unknown tool "/,
      });
      refused++;
    }
    // The slim mode's evaluate is not offered without --slim.
    const slim = await mcp.call('evaluate', {script: 'document.title = "pwned"'});
    assert.equal(slim.isError, true);
    refused++;
    assert.equal(refused, 18);
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    assert.match(snapshot.text, /RootWebArea "untouched"/);
    assert.doesNotMatch(snapshot.text, /pwned/);
  });
});

describe('--enabledTools from a --config file', () => {
  let dir: string;
  let mcp: TestServer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-tool-lists-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({enabledTools: ['list_pages', 'navigate_page,take_snapshot']}));
    mcp = await startServer({args: ['--config', config]});
  });

  after(async () => {
    await mcp?.close();
    rmSync(dir, {recursive: true, force: true});
  });

  it('lists only the named tools', async () => {
    const names = (await mcp.client.listTools()).tools.map(t => t.name);
    assert.deepEqual(names, ['list_pages', 'navigate_page', 'take_snapshot']);
  });

  it('refuses the others, naming the flag', async () => {
    for (const name of ['evaluate_script', 'click', 'new_page', 'take_screenshot', 'take_heapsnapshot']) {
      const r = await mcp.call(name, {pageId: 1});
      assert.equal(r.isError, true, name);
      assert.equal(
        r.text,
        `Tool ${name} is not enabled: it is not in --enabledTools. Restart the server with ${name} added to --enabledTools to enable it.`,
      );
    }
    const listed = await mcp.call('list_pages');
    assert.equal(listed.isError, false, listed.text);
  });
});

describe('--disabledTools with --slim', () => {
  it('turns off a slim tool', async () => {
    const mcp = await startServer({args: ['--slim', '--disabledTools', 'evaluate']});
    try {
      const names = (await mcp.client.listTools()).tools.map(t => t.name);
      assert.deepEqual(names, ['navigate', 'screenshot']);
      const r = await mcp.call('evaluate', {script: '1'});
      assert.equal(r.isError, true);
      assert.match(r.text, /^Tool evaluate is not enabled: it is turned off by --disabledTools\./);
    } finally {
      await mcp.close();
    }
  });
});

describe('--disabledTools over HTTP', () => {
  it('refuses a turned-off tool in every session', async () => {
    const server = await startHttpServer({args: ['--disabledTools', 'evaluate_script']});
    try {
      for (let i = 0; i < 2; i++) {
        const session = await server.connect();
        try {
          const names = (await session.client.listTools()).tools.map(t => t.name);
          assert.ok(!names.includes('evaluate_script') && names.includes('navigate_page'));
          for (const args of evaluateAttempts()) {
            const r = await session.call('evaluate_script', args);
            assert.equal(r.isError, true);
            assert.match(r.text, NOT_ENABLED);
          }
        } finally {
          await session.close();
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe('--disabledTools through the CLI', () => {
  let stateDir: string;

  const cli = (args: string[]) =>
    new Promise<{code: number; stdout: string; stderr: string}>(resolve => {
      execFile(
        process.execPath,
        [SERVER_BIN, ...args],
        {env: {...process.env, CDP_MCP_STATE_DIR: stateDir}, timeout: 90_000, killSignal: 'SIGKILL'},
        (error, stdout, stderr) => {
          resolve({code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr});
        },
      );
    });

  before(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'cdp-mcp-tool-lists-cli-'));
  });

  after(async () => {
    await cli(['stop']);
    const state = readState(stateDir);
    if (state) {
      process.kill(state.pid, 'SIGKILL');
    }
    rmSync(stateDir, {recursive: true, force: true});
  });

  it('answers a call to a turned-off tool with the error and exit code 1', async () => {
    const started = await cli(['start', ...TEST_FLAGS, '--disabledTools', 'evaluate_script']);
    assert.equal(started.code, 0, started.stderr);
    const r = await cli(['evaluate_script', '--function', '() => 1']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stdout.trim(),
      'Tool evaluate_script is not enabled: it is turned off by --disabledTools. Run cdp-mcp stop, then cdp-mcp start without evaluate_script in --disabledTools to enable it.',
    );
    const help = await cli(['evaluate_script', '--help']);
    assert.match(help.stdout, /turned off by --disabledTools/);
    const pages = await cli(['list_pages']);
    assert.equal(pages.code, 0, pages.stderr);
  });
});

describe('tool lists that name no tool', () => {
  const start = (args: string[]) =>
    spawnSync(process.execPath, [SERVER_BIN, ...args], {encoding: 'utf8', timeout: 20_000, input: ''});

  it('stop the server from starting, with the name it most likely meant', () => {
    const typo = start(['--disabledTools', 'evaluate_scrip,click']);
    assert.equal(typo.status, 2);
    assert.match(typo.stderr, /--disabledTools: there is no tool "evaluate_scrip"\. Did you mean "evaluate_script"\?/);
    const enabled = start(['--enabledTools', 'list_page']);
    assert.equal(enabled.status, 2);
    assert.match(enabled.stderr, /--enabledTools: there is no tool "list_page"\. Did you mean "list_pages"/);
    const nothing = start(['--disabledTools', 'zzzzzz']);
    assert.equal(nothing.status, 2);
    assert.match(nothing.stderr, /there is no tool "zzzzzz"\. The tool names are in docs\/tools\.md\./);
  });

  it('refuses both lists at once, and names that are not names', () => {
    const both = start(['--disabledTools', 'click', '--enabledTools', 'fill']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /use either it or --disabledTools/);
    const bad = start(['--disabledTools', 'click;fill']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--disabledTools takes tool names separated by commas/);
  });
});
