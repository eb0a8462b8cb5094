/**
 * Where the background server of `cdp-mcp start` (one per user) keeps what
 * the CLI needs to find and trust it: its pid, endpoint and bearer token, the
 * flags it runs with. The folder is the user's own (0700), the files 0600,
 * never followed through a symlink: the token in them is the key to the
 * browser.
 *
 * The folder: `CDP_MCP_STATE_DIR` (tests, several users of one account), else
 * `$XDG_RUNTIME_DIR/cdp-mcp`, else `<tmpdir>/cdp-mcp-<uid>`.
 */
import {closeSync, constants, openSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {open} from 'node:fs/promises';
import {tmpdir, userInfo} from 'node:os';
import {join} from 'node:path';

import {ensurePrivateFolder} from '../util/privateFolder.js';

/** The environment variable that moves the state folder. */
export const STATE_DIR_ENV = 'CDP_MCP_STATE_DIR';
/** Set by `cdp-mcp start` for the server it spawns: publish your state in this folder. */
export const DAEMON_ENV = 'CDP_MCP_DAEMON_DIR';
/** The environment variable that may carry the HTTP token instead of --authToken. */
export const AUTH_TOKEN_ENV = 'CDP_MCP_AUTH_TOKEN';
/** How often claimState tries to replace a stale file before giving up. */
const CLAIM_ATTEMPTS = 3;
/** Owner read/write only. */
const FILE_MODE = 0o600;

/** What a running background server publishes. */
export interface DaemonState {
  pid: number;
  /** Its MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  /** The bearer token the endpoint wants. */
  token: string;
  /** Its command-line flags (after the script). */
  args: string[];
  /** When it started listening (ISO 8601). */
  startedAt: string;
  version: string;
  /** Where its stderr goes. */
  logFile: string;
}

/** The MCP session the CLI's calls share, so that a uid from one call works in the next. */
export interface CliSession {
  url: string;
  sessionId: string;
  /** The protocol version the session was opened with (sent as a header on every request). */
  protocolVersion?: string;
}

export function stateDir(): string {
  const override = process.env[STATE_DIR_ENV];
  if (override) {
    return override;
  }
  const runtime = process.env['XDG_RUNTIME_DIR'];
  if (runtime) {
    return join(runtime, 'cdp-mcp');
  }
  const id = process.getuid?.() ?? userInfo().username;
  return join(tmpdir(), `cdp-mcp-${id}`);
}

export const statePath = (dir = stateDir()) => join(dir, 'daemon.json');
export const sessionPath = (dir = stateDir()) => join(dir, 'session.json');
export const logPath = (dir = stateDir()) => join(dir, 'daemon.log');

/** Creates the state folder (0700) or checks that it is the user's own and closed to others. */
export async function ensureStateDir(dir = stateDir()): Promise<string> {
  await ensurePrivateFolder(dir, {
    holds: 'the background server token',
    remedy: `Remove it, or point ${STATE_DIR_ENV} at a folder of yours.`,
  });
  return dir;
}

/** A file's JSON, not following a symlink; undefined when missing or not JSON. */
function readJson(path: string): unknown {
  try {
    // O_NOFOLLOW: a link planted in place of the file is refused, not read.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return JSON.parse(readFileSync(fd, 'utf8')) as unknown;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function isState(value: unknown): value is DaemonState {
  const s = value as Partial<DaemonState> | undefined;
  return typeof s?.pid === 'number' && typeof s.url === 'string' && typeof s.token === 'string';
}

export function readState(dir = stateDir()): DaemonState | undefined {
  const value = readJson(statePath(dir));
  return isState(value) ? value : undefined;
}

export function readSession(dir = stateDir()): CliSession | undefined {
  const value = readJson(sessionPath(dir)) as Partial<CliSession> | undefined;
  return typeof value?.url === 'string' && typeof value.sessionId === 'string'
    ? {url: value.url, sessionId: value.sessionId, protocolVersion: value.protocolVersion}
    : undefined;
}

/** Writes a file atomically (a fresh 0600 file renamed over it): readers see the old or the new, whole. */
function writeJson(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, {mode: FILE_MODE, flag: 'wx'});
  renameSync(temp, path);
}

export function writeSession(session: CliSession, dir = stateDir()): void {
  writeJson(sessionPath(dir), session);
}

/**
 * Publishes a server's state unless another live server already has: the
 * file is created exclusively, so of two servers started at once only one
 * wins. A file left by a server that died is replaced. Returns the state
 * that holds the place (ours, or the other server's).
 */
export async function claimState(state: DaemonState, dir = stateDir()): Promise<DaemonState> {
  const path = statePath(dir);
  // Bounded: a stale file is replaced once or twice at most, unless someone keeps recreating it.
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    try {
      const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
      await file.writeFile(`${JSON.stringify(state, null, 2)}\n`);
      await file.close();
      return state;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    const holder = readState(dir);
    if (holder && holder.pid !== state.pid && isAlive(holder.pid)) {
      return holder;
    }
    // Stale (its server died without cleaning up) or unreadable: take its place.
    rmSync(path, {force: true});
  }
  throw new Error(`Could not create ${path}: it keeps coming back. Is another cdp-mcp starting?`);
}

/** Removes the state (and the CLI session) if they are still the server's with this pid. */
export function releaseState(pid: number, dir = stateDir()): void {
  const current = readState(dir);
  if (!current || current.pid === pid) {
    rmSync(statePath(dir), {force: true});
    rmSync(sessionPath(dir), {force: true});
  }
}

/** A process's state letter on Linux (`R`, `S`, `Z`…), from /proc; undefined elsewhere or when gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/**
 * Whether a process with this pid runs (EPERM: it does, as another user's).
 * A zombie does not: it has exited and waits for a parent to reap it, which
 * an init that does not reap may never do.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return procState(pid) !== 'Z';
}
