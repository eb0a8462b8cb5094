/**
 * `cdp-mcp start | status | stop`: the one background server per user that
 * the CLI's tool calls go to. It is our Streamable HTTP server on 127.0.0.1
 * (a free port) behind a random bearer token; the token, the port and the pid
 * are in the user's state folder (0700, files 0600), where only the user can
 * read them.
 */
import {spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {closeSync, constants, fchmodSync, openSync, readFileSync} from 'node:fs';

import {
  DAEMON_ENV,
  type DaemonState,
  ensureStateDir,
  isAlive,
  logPath,
  readState,
  releaseState,
  stateDir,
  statePath,
} from '../config/daemonState.js';
import {sleep} from '../util/async.js';
import {callTool} from './connection.js';
import {daemonArgs, givenArgs} from './daemonArgs.js';
import {childProcesses, runsCommand} from './processes.js';

/** A wrong command line. */
const EXIT_USAGE = 2;
/** How long `start` waits for the server to listen (Chrome starts after, with the first call). */
const START_TIMEOUT_MS = 15_000;
/** How long `stop` waits for the server to close Chrome and exit (it gives itself 5 s). */
const STOP_TIMEOUT_MS = 10_000;
/** How long a browser the server started may take to go after the server has exited. */
const CHILD_EXIT_MS = 3_000;
/** How often a start or stop looks at the process and the state file. */
const POLL_MS = 50;
/** The last lines of the server's log shown when it failed to start. */
const LOG_TAIL_LINES = 20;

/** Where the CLI writes: stdout for results, stderr for notes. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** The running server's state; a state left by a server that died is removed. */
export function runningDaemon(): DaemonState | undefined {
  const state = readState();
  if (state && (!isAlive(state.pid) || !runsCommand(state.pid, state.args))) {
    releaseState(state.pid);
    return undefined;
  }
  return state;
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-LOG_TAIL_LINES).join('\n');
  } catch {
    return '(no log)';
  }
}

function quoteArgs(args: readonly string[]): string {
  return args.map(a => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Spawns the server (detached, its output in the log) and waits until it has published its state. */
async function spawnDaemon(args: string[], dir: string): Promise<DaemonState> {
  const log = logPath(dir);
  const fd = openSync(log, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  fchmodSync(fd, 0o600);
  const script = process.argv[1] ?? '';
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: {...process.env, [DAEMON_ENV]: dir, CDP_MCP_AUTH_TOKEN: randomBytes(24).toString('base64url')},
  });
  closeSync(fd);
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = signal ? `signal ${signal}` : `exit code ${code}`));
  child.once('error', error => (exit = error.message));
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    while (Date.now() < deadline && exit === undefined) {
      const state = readState(dir);
      if (state && state.pid === child.pid) {
        return state;
      }
      await sleep(POLL_MS);
    }
    if (exit === undefined) {
      child.kill('SIGKILL');
    }
    // Two starts at once: the other one's server won the state file, and ours gave up.
    const other = readState(dir);
    if (other && other.pid !== child.pid && isAlive(other.pid)) {
      return other;
    }
    throw new Error(
      `The background server did not start (${exit ?? `no answer within ${START_TIMEOUT_MS / 1000} s`}). Its log (${log}):\n${logTail(log)}`,
    );
  } finally {
    child.unref();
  }
}

/**
 * Starts the background server, then its browser (a first list_pages: a
 * Chrome that cannot start says so now, not at the first call). Returns the
 * state; throws with what went wrong.
 */
export async function startDaemon(userArgs: readonly string[]): Promise<DaemonState> {
  const args = daemonArgs(userArgs);
  const dir = await ensureStateDir();
  const state = await spawnDaemon(args, dir);
  const result = await callTool(state, 'list_pages', {}, new AbortController().signal).catch((error: unknown) => ({
    content: [{type: 'text', text: (error as Error).message}],
    isError: true,
  }));
  if (result.isError) {
    await stopProcess(state);
    const text = result.content.map(c => c.text ?? '').join('\n');
    throw new Error(`The background server started but its browser did not: ${text}`);
  }
  return state;
}

/** `cdp-mcp start [flags]`. A second start with the same flags keeps the running server (exit 0); other flags: exit 1. */
export async function startCommand(userArgs: readonly string[], io: Output): Promise<number> {
  try {
    daemonArgs(userArgs);
  } catch (error) {
    io.err(`cdp-mcp start: ${(error as Error).message}\nRun cdp-mcp --help for the flags.\n`);
    return EXIT_USAGE;
  }
  const running = runningDaemon();
  if (running) {
    const given = givenArgs(running.args);
    if (JSON.stringify(given) === JSON.stringify(userArgs)) {
      io.out(`cdp-mcp: the background server already runs with these flags (pid ${running.pid}); keeping it.\n`);
      return 0;
    }
    io.err(
      `cdp-mcp: a background server already runs (pid ${running.pid}) with other flags: ${quoteArgs(given) || '(none)'}.\n` +
        'Stop it first (cdp-mcp stop), then start it with the new flags.\n',
    );
    return 1;
  }
  const state = await startDaemon(userArgs);
  io.out(
    `cdp-mcp: started the background server (pid ${state.pid}, ${state.url}).\n` +
      'Call tools with cdp-mcp <tool> [--param value ...] (cdp-mcp --help lists them); stop it with cdp-mcp stop.\n',
  );
  return 0;
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const parts = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor(s / 3600) % 24, 'h'],
    [Math.floor(s / 60) % 60, 'm'],
    [s % 60, 's'],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n}${unit}`);
  return shown.length ? shown.join(' ') : '0s';
}

/** `cdp-mcp status`: exit 0 when a server runs, 1 when none does. */
export function statusCommand(io: Output): number {
  const state = runningDaemon();
  if (!state) {
    io.out('cdp-mcp: no background server is running. Start one with cdp-mcp start [flags].\n');
    return 1;
  }
  const browsers = childProcesses(state.pid).filter(c => /chrom/i.test(c.name));
  io.out(
    [
      `cdp-mcp: the background server is running`,
      `pid: ${state.pid}`,
      `flags: ${quoteArgs(givenArgs(state.args)) || '(none)'}`,
      `server flags: ${quoteArgs(state.args)}`,
      `started: ${state.startedAt} (uptime ${duration(Date.now() - Date.parse(state.startedAt))})`,
      `browser: ${browsers.length ? `${browsers.map(b => `${b.name} pid ${b.pid}`).join(', ')}` : 'none launched by it'}`,
      `endpoint: ${state.url} (MCP Streamable HTTP; bearer token in ${statePath(stateDir())})`,
      `log: ${state.logFile}`,
      `version: ${state.version}`,
    ].join('\n') + '\n',
  );
  return 0;
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) {
      return true;
    }
    await sleep(POLL_MS);
  }
  return !isAlive(pid);
}

/**
 * Asks the server to exit (SIGTERM: it closes its sessions and the Chrome it
 * launched) and waits, bounded; one that does not exit in time is killed,
 * with the browser it started. Returns what happened.
 */
async function stopProcess(state: DaemonState): Promise<string> {
  const children = childProcesses(state.pid);
  try {
    process.kill(state.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
  let outcome = 'stopped';
  if (!(await waitForExit(state.pid, STOP_TIMEOUT_MS))) {
    for (const pid of [state.pid, ...children.map(c => c.pid)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    outcome = `killed (it did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM)`;
  }
  // It waits for its Chrome only so long: a Chrome still shutting down gets a little more, then SIGKILL.
  for (const child of children) {
    if (!(await waitForExit(child.pid, CHILD_EXIT_MS))) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }
  releaseState(state.pid);
  return outcome;
}

/** `cdp-mcp stop`: exit 0 once no server runs (also when none did). */
export async function stopCommand(io: Output): Promise<number> {
  const state = runningDaemon();
  if (!state) {
    io.out('cdp-mcp: no background server was running.\n');
    return 0;
  }
  const outcome = await stopProcess(state);
  io.out(`cdp-mcp: the background server (pid ${state.pid}) ${outcome}, with the browser it launched.\n`);
  return 0;
}
