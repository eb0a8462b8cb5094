import assert from 'node:assert/strict';
import {execFile, spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {childProcesses} from '../../src/client/processes.js';
import {type DaemonState, readSession, readState, writeSession} from '../../src/config/daemonState.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {CHROME_PATH, SERVER_BIN, TEST_FLAGS} from '../support/mcpClient.js';

/** One CLI run may start the server and Chrome: bounded well above that. */
const CLI_TIMEOUT_MS = 90_000;
/** How long a process the test started may take to go once told. */
const GONE_WITHIN_MS = 15_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cdp-mcp ...args` with its own state folder; never throws on a non-zero exit. */
function cli(stateDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise(resolve => {
    execFile(
      process.execPath,
      [SERVER_BIN, ...args],
      {env: {...process.env, CDP_MCP_STATE_DIR: stateDir, ...env}, timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL'},
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({code, stdout, stderr});
      },
    );
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  while (Date.now() < deadline && alive(pid)) {
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

/** Whatever a failed test left running: the server and the browsers it started. */
function killLeftovers(pids: Set<number>, stateDir: string): void {
  const state = readState(stateDir);
  if (state) {
    pids.add(state.pid);
    for (const child of childProcesses(state.pid)) {
      pids.add(child.pid);
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: the normal case.
    }
  }
}

const PAGE = `<!doctype html><title>CLI</title>
<button onclick="this.textContent = 'Clicked ' + (Number(this.dataset.n = (Number(this.dataset.n || 0) + 1)))">Press me</button>`;

describe('cdp-mcp CLI: start, tools, status, stop', () => {
  let fixtures: FixtureServer;
  const root = mkdtempSync(join(tmpdir(), 'cdp-mcp-cli-test-'));
  const stateDir = join(root, 'state');
  const pids = new Set<number>();
  let state: DaemonState | undefined;
  let chromePids: number[] = [];
  const run = (...args: string[]) => cli(stateDir, args);

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/cli', PAGE);
    fixtures.route('/hang', {body: 'ok'});
  });

  after(async () => {
    await run('stop');
    killLeftovers(pids, stateDir);
    await fixtures?.stop();
    rmSync(root, {recursive: true, force: true});
  });

  it('lists the commands and the tools in --help, without a server', async () => {
    const help = await run('--help');
    assert.equal(help.code, 0, help.stderr);
    for (const text of ['cdp-mcp start [flags]', 'cdp-mcp status', 'cdp-mcp stop', 'cdp-mcp <tool> --help']) {
      assert.ok(help.stdout.includes(text), `--help lacks ${text}`);
    }
    assert.match(help.stdout, /Input automation:\n\s+click, click_at\*, drag/);
    assert.match(help.stdout, /^ {2}--headless/m);
    assert.equal(existsSync(join(stateDir, 'daemon.json')), false);
  });

  it('says no server runs before start, with exit code 1', async () => {
    const status = await run('status');
    assert.equal(status.code, 1);
    assert.match(status.stdout, /no background server is running\. Start one with cdp-mcp start/);
  });

  it('refuses flags that are not for start with exit code 2', async () => {
    const port = await run('start', '--port', '9000');
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--port is not for start/);
    const bad = await run('start', '--screenshotFormat', 'gif');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--screenshotFormat must be png, jpeg or webp, not "gif"/);
    assert.equal(readState(stateDir), undefined);
  });

  it('starts one background server, its state private to the user', async () => {
    const started = await run('start', ...TEST_FLAGS);
    state = readState(stateDir);
    if (state) {
      pids.add(state.pid);
    }
    assert.equal(started.code, 0, started.stderr);
    assert.ok(state, 'no state file');
    assert.match(
      started.stdout,
      new RegExp(`started the background server \\(pid ${state.pid}, http://127\\.0\\.0\\.1:`),
    );
    assert.equal(statSync(stateDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(stateDir, 'daemon.json')).mode & 0o777, 0o600);
    assert.equal(statSync(join(stateDir, 'daemon.log')).mode & 0o777, 0o600);
    // Its endpoint wants the token.
    const anonymous = await fetch(state.url, {method: 'POST', body: '{}'});
    assert.equal(anonymous.status, 401);
    chromePids = childProcesses(state.pid)
      .filter(c => /chrom/i.test(c.name))
      .map(c => c.pid);
    chromePids.forEach(pid => pids.add(pid));
    assert.equal(chromePids.length, 1, 'start launches the browser');
  });

  it('keeps the running server on a second start with the same flags, refuses other flags', async () => {
    const same = await run('start', ...TEST_FLAGS);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /already runs with these flags \(pid \d+\); keeping it/);
    const other = await run('start', ...TEST_FLAGS, '--categoryPwa');
    assert.equal(other.code, 1);
    assert.match(other.stderr, /already runs \(pid \d+\) with other flags: .*Stop it first \(cdp-mcp stop\)/s);
    assert.equal(readState(stateDir)?.pid, state?.pid);
  });

  it('prints status: pid, flags, uptime, browser', async () => {
    const status = await run('status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^pid: ${state?.pid}$`, 'm'));
    assert.match(status.stdout, /^flags: --headless --isolated --executablePath \S+ /m);
    assert.match(status.stdout, /^started: \S+ \(uptime (\d+[dhms] ?)+\)$/m);
    assert.match(status.stdout, new RegExp(`^browser: \\S+ pid ${chromePids[0]}$`, 'm'));
  });

  it('navigates, snapshots and clicks by uid, one call per command, on the selected page', async () => {
    const url = fixtures.url('/cli');
    const navigated = await run('navigate_page', '--url', url);
    assert.equal(navigated.code, 0, navigated.stderr);
    assert.match(navigated.stdout, new RegExp(`Successfully navigated to ${url.replace(/[.]/g, '\\.')}\\.`));
    const snapshot = await run('take_snapshot');
    assert.equal(snapshot.code, 0, snapshot.stderr);
    const uid = /uid=(\S+) button "Press me"/.exec(snapshot.stdout)?.[1];
    assert.ok(uid, snapshot.stdout);
    const clicked = await run('click', '--uid', uid, '--includeSnapshot');
    assert.equal(clicked.code, 0, clicked.stderr);
    assert.match(clicked.stdout, /Successfully clicked on the element/);
    assert.match(clicked.stdout, /button "Clicked 1"/);
    const again = await run('click', `--uid=${uid}`, '--dblClick=false', '--includeSnapshot=true');
    assert.match(again.stdout, /button "Clicked 2"/);
    // chrome-devtools-mcp's CLI syntax: required parameters as plain words, in schema order.
    const positional = await run('click', uid, '--includeSnapshot');
    assert.equal(positional.code, 0, positional.stderr);
    assert.match(positional.stdout, /button "Clicked 3"/);
    const extra = await run('click', uid, 'more');
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /Unexpected "more": click takes its required parameters in order \(uid\)/);
  });

  it('saves a screenshot to a temp file and prints its path', async () => {
    const shot = await run('take_screenshot');
    assert.equal(shot.code, 0, shot.stderr);
    const path = /Saved to (\S+\.png)\./.exec(shot.stdout)?.[1];
    assert.ok(path, shot.stdout);
    try {
      const bytes = readFileSync(path);
      assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(statSync(path).mode & 0o777, 0o600);
    } finally {
      rmSync(path, {force: true});
    }
  });

  it('prints JSON with --output-format json: the text parts, images as files', async () => {
    const listed = await run('list_pages', '--output-format', 'json');
    assert.equal(listed.code, 0, listed.stderr);
    const parts = JSON.parse(listed.stdout) as unknown[];
    assert.ok(Array.isArray(parts) && parts.length > 0, listed.stdout);
    assert.match(String(parts[0]), /## Pages\n1: .*\[selected\]/);
    const shot = await run('take_screenshot', '--output-format=json');
    assert.equal(shot.code, 0, shot.stderr);
    const image = (JSON.parse(shot.stdout) as Array<{filePath?: string; mimeType?: string}>).find(p => p.filePath);
    assert.ok(image?.filePath, shot.stdout);
    try {
      assert.equal(image.mimeType, 'image/png');
      assert.deepEqual([...readFileSync(image.filePath).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    } finally {
      rmSync(image.filePath, {force: true});
    }
    const markdown = await run('list_pages', '--output-format', 'md');
    assert.equal(markdown.stdout, `${String(parts[0])}\n`);
  });

  it('exits 1 when the tool reports an error, with its text', async () => {
    const missing = await run('click', '--uid', '99_99');
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /Element uid "99_99" not found/);
    const gated = await run('install_pwa', '--manifestId', 'x', '--installUrlOrBundleUrl', fixtures.url('/cli'));
    assert.equal(gated.code, 1);
    assert.match(gated.stdout, /Enable it by running cdp-mcp start --categoryPwa=true\./);
  });

  it('exits 2 on a wrong command line, naming the parameter and what it takes', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['take_screenshot', '--quality', 'high'], /--quality takes number 0-100, not "high"/],
      [['take_screenshot', '--quality', '200'], /--quality \(number 0-100\): .*100/],
      [['take_screenshot', '--format', 'gif'], /--format takes png\|jpeg\|webp, not "gif"/],
      [['click', '--uidd', '1_1'], /Unknown parameter --uidd for click\. Its parameters: --pageId, --uid/],
      [['click'], /click needs --uid <string>/],
      [
        ['fill_form', '--elements', '{not json'],
        /--elements takes array of objects \(JSON\), and "\{not json" is not valid JSON/,
      ],
      [['clik'], /unknown command or tool "clik"\. Did you mean click\?/],
      [['list_pages', '--output-format', 'yaml'], /--output-format takes md\|json, not "yaml"/],
    ];
    for (const [args, message] of cases) {
      const result = await run(...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    }
  });

  it("prints a tool's description and parameters with <tool> --help", async () => {
    const help = await run('click', '--help');
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: cdp-mcp click \[--pageId <number>\] --uid <string> \[--dblClick\]/);
    assert.match(help.stdout, /^Click an element by uid\./m);
    assert.match(help.stdout, /^ {2}--uid {2}\(string, required\)$/m);
    assert.match(help.stdout, /Default: the selected page\./);
  });

  it('cancels the running call on Ctrl-C (exit 130), and the next call runs', async () => {
    const child = spawn(
      process.execPath,
      [
        SERVER_BIN,
        'evaluate_script',
        '--function',
        "async () => { await fetch('/hang'); await new Promise(() => {}); }",
      ],
      {env: {...process.env, CDP_MCP_STATE_DIR: stateDir}, stdio: ['ignore', 'pipe', 'pipe']},
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
    try {
      // The page asked for /hang: the call is running in the browser.
      const deadline = Date.now() + CLI_TIMEOUT_MS;
      while (Date.now() < deadline && !fixtures.requests.some(r => r.url === '/hang')) {
        await new Promise(resolve => setTimeout(resolve, 50));
      }
      assert.ok(
        fixtures.requests.some(r => r.url === '/hang'),
        'the script never ran',
      );
      child.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      assert.match(stderr, /interrupted; the call was cancelled/);
    } finally {
      child.kill('SIGKILL');
    }
    const title = await run('evaluate_script', '--function', '() => document.title');
    assert.equal(title.code, 0, title.stderr);
    assert.match(title.stdout, /"CLI"/);
  });

  it('opens a new session when the server no longer knows the saved one', async () => {
    assert.ok(state);
    writeSession({url: state.url, sessionId: 'no-such-session'}, stateDir);
    const listed = await run('list_pages');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^## Pages\n\d+: about:blank \[selected\]/);
    const session = readSession(stateDir);
    assert.ok(session && session.sessionId !== 'no-such-session', JSON.stringify(session));
  });

  it('stops the server and its Chrome, and waits for them', async () => {
    assert.ok(state);
    const stopped = await run('stop');
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, new RegExp(`background server \\(pid ${state.pid}\\) stopped`));
    assert.equal(alive(state.pid), false, 'the server still runs');
    for (const pid of chromePids) {
      assert.ok(await gone(pid), `Chrome ${pid} still runs`);
    }
    assert.equal(existsSync(join(stateDir, 'daemon.json')), false);
    assert.equal(existsSync(join(stateDir, 'session.json')), false);
    const status = await run('status');
    assert.equal(status.code, 1);
    assert.match(status.stdout, /no background server is running/);
    const again = await run('stop');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /no background server was running/);
  });
});

describe('cdp-mcp CLI: without a running server', () => {
  const root = mkdtempSync(join(tmpdir(), 'cdp-mcp-cli-test-'));
  const stateDir = join(root, 'state');
  const pids = new Set<number>();

  after(async () => {
    await cli(stateDir, ['stop']);
    killLeftovers(pids, stateDir);
    rmSync(root, {recursive: true, force: true});
  });

  it('never signals a process that took over the pid of a state file left behind', async () => {
    mkdirSync(stateDir, {recursive: true, mode: 0o700});
    const stale: DaemonState = {
      pid: process.pid, // This test runner: alive, and not a background server.
      url: 'http://127.0.0.1:9/mcp',
      token: 'stale-token-stale-token',
      args: ['--viaCli', '--port=0'],
      startedAt: new Date().toISOString(),
      version: '0.0.0',
      logFile: join(stateDir, 'daemon.log'),
    };
    writeFileSync(join(stateDir, 'daemon.json'), JSON.stringify(stale), {mode: 0o600});
    const stopped = await cli(stateDir, ['stop']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /no background server was running/);
    assert.equal(existsSync(join(stateDir, 'daemon.json')), false);
  });

  it('says why start failed when Chrome cannot start, and leaves nothing running', async () => {
    const failed = await cli(stateDir, ['start', '--executablePath', join(root, 'no-such-chrome')]);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /started but its browser did not: .*no-such-chrome/s);
    assert.equal(readState(stateDir), undefined);
  });

  it('starts a server with the defaults for a tool call, and says so', async () => {
    // The defaults find Chrome through CHROME_PATH: point it at the test's Chromium.
    const listed = await cli(stateDir, ['list_pages'], {CHROME_PATH});
    const state = readState(stateDir);
    if (state) {
      pids.add(state.pid);
    }
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, /no background server was running: started one with the defaults \(pid \d+\)/);
    assert.match(listed.stdout, /^## Pages\n1: about:blank \[selected\]/);
    assert.ok(state);
    assert.ok(state.args.includes('--headless') && state.args.includes('--isolated'), state.args.join(' '));
  });
});
