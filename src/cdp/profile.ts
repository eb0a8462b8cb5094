/**
 * Chrome profiles (user data dirs): the persistent default one, and the
 * temporary ones of `--isolated`, which are removed when their Chrome exits,
 * or by a later launch when the server that made them was killed.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import {homedir, hostname, tmpdir} from 'node:os';
import {join} from 'node:path';

import {debug} from '../util/logger.js';
import type {Channel} from './finder.js';

/** Temporary profiles are made under the temp root with this prefix. */
export const PROFILE_PREFIX = 'cdp-mcp-profile-';
/** A temporary profile without an owner file is left over once it is this old. */
const STALE_PROFILE_MS = 10 * 60_000;
/** Written into each temporary profile: the host and pid of the server that owns it. */
const OWNER_FILE = 'cdp-mcp-owner';

/** The profile a launch uses. */
export interface Profile {
  dir: string;
  /** Made for this launch; `remove()` deletes it. */
  temporary: boolean;
  /** Deletes a temporary profile; no-op for a persistent one. */
  remove(): void;
}

/** Where the persistent profile lives (one per channel, as chrome-devtools-mcp keeps them). */
export function defaultUserDataDir(channel?: Channel): string {
  const base = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  return join(base, 'cdp-mcp', channel && channel !== 'stable' ? `chrome-profile-${channel}` : 'chrome-profile');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The Chrome that holds a profile: its host and pid, from the lock Chrome keeps in it. */
export interface ProfileOwner {
  host: string;
  pid: number;
}

/**
 * Who holds the profile: Chrome (Linux, macOS) keeps a `SingletonLock`
 * symlink in it pointing at `<host>-<pid>` while it runs. Undefined when
 * there is none, or when it names a process of this host that is gone or
 * (where /proc tells) is no Chrome on this profile: Chrome itself takes such
 * a stale lock over.
 */
export function profileOwner(dir: string): ProfileOwner | undefined {
  let target: string;
  try {
    target = readlinkSync(join(dir, 'SingletonLock'));
  } catch {
    return undefined;
  }
  const dash = target.lastIndexOf('-');
  const host = target.slice(0, dash);
  const pid = Number(target.slice(dash + 1));
  if (dash <= 0 || !Number.isInteger(pid) || pid <= 0) {
    return undefined;
  }
  if (host !== hostname()) {
    return {host, pid};
  }
  return isAlive(pid) && looksLikeChrome(pid, dir) ? {host, pid} : undefined;
}

/** Whether a live pid is a browser (or at least names this profile); true when /proc cannot tell. */
function looksLikeChrome(pid: number, dir: string): boolean {
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return true;
  }
  return commandLine.includes(dir) || /chrom|msedge|headless_shell/i.test(commandLine);
}

/** What to say when another Chrome holds the profile a launch wants. */
export function profileInUseMessage(dir: string, owner: ProfileOwner): string {
  const where = owner.host === hostname() ? `pid ${owner.pid}` : `pid ${owner.pid} on host ${owner.host}`;
  return `The Chrome profile ${dir} is in use by another Chrome (${where}), for example another cdp-mcp server on the same profile: Chrome runs one browser per profile. Use --isolated (a temporary profile) or --userDataDir with another folder, or close that Chrome.`;
}

/**
 * A server killed with SIGKILL cannot remove its temporary profile (its Chrome
 * does exit: the debugging pipe closes). Removes such leftovers under `root`:
 * profiles whose owning server on this host is gone, or, without an owner
 * file, that are old.
 */
export function removeStaleProfiles(root: string = tmpdir()): void {
  let entries: string[];
  try {
    entries = readdirSync(root).filter(name => name.startsWith(PROFILE_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = join(root, name);
    try {
      let stale: boolean;
      try {
        const [host, pid] = readFileSync(join(dir, OWNER_FILE), 'utf8').split(' ');
        stale = host === hostname() && Number(pid) > 0 && !isAlive(Number(pid));
      } catch {
        stale = Date.now() - statSync(dir).mtimeMs > STALE_PROFILE_MS;
      }
      if (stale) {
        rmSync(dir, {recursive: true, force: true});
        debug(`removed stale profile ${dir}`);
      }
    } catch (error) {
      debug(`could not check profile ${dir}`, error);
    }
  }
}

/**
 * The profile for a launch: a fresh temporary one under `root` (after
 * removing stale ones), or the given or default persistent one (created if missing).
 */
export function prepareProfile(
  options: {isolated: boolean; userDataDir?: string; channel?: Channel},
  root: string = tmpdir(),
): Profile {
  if (options.isolated) {
    removeStaleProfiles(root);
    const dir = mkdtempSync(join(root, PROFILE_PREFIX));
    writeFileSync(join(dir, OWNER_FILE), `${hostname()} ${process.pid}`);
    return {dir, temporary: true, remove: () => rmSync(dir, {recursive: true, force: true, maxRetries: 3})};
  }
  const dir = options.userDataDir ?? defaultUserDataDir(options.channel);
  mkdirSync(dir, {recursive: true});
  return {dir, temporary: false, remove: () => undefined};
}

/**
 * Sets the profile's network prediction to "never" (Chrome's
 * `net.network_prediction_options`: 2) in its Default/Preferences, keeping
 * the rest: without it Chrome preconnects to the host of a new window before
 * its blocked request, so a host the URL policy blocks still sees connections.
 */
export function disableNetworkPrediction(dir: string): void {
  const file = join(dir, 'Default', 'Preferences');
  let prefs: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      prefs = parsed as Record<string, unknown>;
    }
  } catch {
    // No preferences yet (a new profile), or unreadable ones Chrome would reset.
  }
  const net = (prefs['net'] && typeof prefs['net'] === 'object' ? prefs['net'] : {}) as Record<string, unknown>;
  if (net['network_prediction_options'] === 2) {
    return;
  }
  prefs['net'] = {...net, network_prediction_options: 2};
  try {
    mkdirSync(join(dir, 'Default'), {recursive: true});
    writeFileSync(file, JSON.stringify(prefs));
  } catch (error) {
    debug(`could not turn off network prediction in ${file}`, error);
  }
}
