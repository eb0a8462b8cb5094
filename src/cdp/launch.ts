/**
 * Starts Chrome (through chrome-launcher) and hands back its debugging pipe,
 * the only way in: Chrome opens no DevTools port, so no other local user (or
 * process) can drive it without going through the server and its token.
 * The pipe also ties Chrome to the server: when the server dies, even by
 * SIGKILL, the pipe closes and Chrome exits.
 */
import type {ChildProcess, spawn} from 'node:child_process';
import {rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Readable, Writable} from 'node:stream';

import * as ChromeLauncher from 'chrome-launcher';

import {sleep} from '../util/async.js';
import {debug, warn} from '../util/logger.js';
import type {BrowserEndpoint} from './browserEndpoint.js';
import {type Channel, isWindowsExecutable, resolveExecutable, runningInWsl} from './finder.js';
import {buildChromeFlags, type ChromeFlagOptions} from './flags.js';
import {PipeClient} from './pipeClient.js';
import {disableNetworkPrediction, prepareProfile, type Profile, profileInUseMessage, profileOwner} from './profile.js';

/** How long kill() waits for Chrome to exit before removing its profile anyway. */
const KILL_WAIT_MS = 3_000;
/** How long a launched Chrome may take to answer its first command over the pipe. */
export const STARTUP_TIMEOUT_MS = 30_000;

/** What to launch and how (from the launch flags). */
export interface LaunchOptions extends ChromeFlagOptions {
  executablePath?: string;
  channel?: Channel;
  /** Temporary profile, deleted when the browser exits. */
  isolated: boolean;
  userDataDir?: string;
  /** Turn off the profile's network prediction (a URL policy: no preconnects to hosts it blocks). */
  noNetworkPrediction?: boolean;
}

/** Seams for tests: what a launch otherwise takes from the system. */
export interface LaunchSystem {
  /** Starts the process; handed to chrome-launcher (its own child_process.spawn when absent). */
  spawn?: typeof spawn;
  /** Whether we run as root (Chrome then needs --no-sandbox). */
  isRoot: boolean;
  /** Where temporary profiles go. */
  tempRoot: string;
  /** How long Chrome may take to answer over its debugging pipe. */
  startupTimeoutMs: number;
  /** Linux under Windows (chrome-launcher then hands Chrome the profile as a Windows path). */
  wsl: boolean;
}

const SYSTEM: LaunchSystem = {
  isRoot: process.getuid?.() === 0,
  tempRoot: tmpdir(),
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
  get wsl() {
    return runningInWsl();
  },
};

/** Resolves when the process is gone: exited, or never started (spawn error). Records why. */
function watchExit(child: ChildProcess): {exited: Promise<void>; reason: () => string | undefined} {
  let reason: string | undefined;
  const exited = new Promise<void>(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    // A binary that cannot be executed (EACCES, ENOEXEC) fails here, with or without an 'exit'.
    child.once('error', error => {
      reason = error.message;
      resolve();
    });
  });
  return {exited, reason: () => reason};
}

/** Starts chrome-launcher's Launcher; throws a message that says what to do. */
async function start(
  chromePath: string,
  flags: string[],
  profile: Profile,
  options: LaunchOptions,
  spawnOverride: typeof spawn | undefined,
): Promise<ChromeLauncher.Launcher> {
  const launcher = new ChromeLauncher.Launcher(
    {
      chromePath,
      // The pipe only, never a port: a port takes connections from every local
      // user, without our token. With a pipe chrome-launcher neither picks a
      // port nor polls one.
      chromeFlags: [...flags, '--remote-debugging-pipe'],
      ignoreDefaultFlags: true,
      userDataDir: profile.dir,
      logLevel: 'silent',
    },
    spawnOverride ? {spawn: spawnOverride} : {},
  );
  try {
    await launcher.launch();
    return launcher;
  } catch (error) {
    profile.remove();
    const message = error instanceof Error ? error.message : String(error);
    if (!options.isolated && /already running|ProcessSingleton|profile.*in use/i.test(message)) {
      throw new Error(
        `The browser is already running for ${profile.dir}. Use --isolated to run multiple browser instances.`,
        {cause: error},
      );
    }
    throw new Error(`Could not launch Chrome (${chromePath}): ${message}`, {cause: error});
  }
}

/** The profile, ready for a launch; throws when another Chrome holds it. */
function profileToLaunch(options: LaunchOptions, tempRoot: string): Profile {
  const profile = prepareProfile(options, tempRoot);
  // A second Chrome on a held profile hands its command line to the first
  // (which opens a window) and exits: say so before, not "exited during startup" after.
  const owner = profile.temporary ? undefined : profileOwner(profile.dir);
  if (owner) {
    throw new Error(profileInUseMessage(profile.dir, owner));
  }
  if (options.noNetworkPrediction) {
    disableNetworkPrediction(profile.dir);
  }
  // Left by an earlier run (or an older version that opened a port): it names a port nobody should trust.
  rmSync(join(profile.dir, 'DevToolsActivePort'), {force: true});
  return profile;
}

/** Launches Chrome and returns its endpoint; kill() ends it and removes a temporary profile. */
export async function launchChrome(
  options: LaunchOptions,
  overrides: Partial<LaunchSystem> = {},
): Promise<BrowserEndpoint> {
  const sys = {...SYSTEM, ...overrides};
  const chromePath = resolveExecutable(options);
  if (sys.isRoot && !options.chromeArgs.includes('--no-sandbox')) {
    warn('Running as root: starting Chrome with --no-sandbox (Chrome refuses to run sandboxed as root).');
  }
  if (options.chromeArgs.some(arg => arg.startsWith('--remote-debugging-port'))) {
    warn(
      'A --chromeArg opens a DevTools port: any local user can drive that Chrome through it, without the server or its token.',
    );
  }
  const profile = profileToLaunch(options, sys.tempRoot);
  const flags = buildChromeFlags(options, sys.isRoot);
  if (sys.wsl && !isWindowsExecutable(chromePath)) {
    // On WSL chrome-launcher passes --user-data-dir as a Windows path (\\wsl.localhost\...), which a
    // Linux Chrome takes for a relative folder name; Chrome obeys the last --user-data-dir, this one.
    flags.push(`--user-data-dir=${profile.dir}`);
  }
  const launcher = await start(chromePath, flags, profile, options, sys.spawn);
  const child = launcher.chromeProcess;
  if (!child) {
    profile.remove();
    throw new Error(`Could not launch Chrome (${chromePath}): no process was started.`);
  }
  const {exited, reason} = watchExit(child);
  let killed = false;
  const kill = async () => {
    if (!killed) {
      killed = true;
      try {
        launcher.kill();
      } catch (error) {
        debug('chrome.kill failed', error);
      }
      await Promise.race([exited, sleep(KILL_WAIT_MS)]);
    }
    profile.remove();
  };
  try {
    const pipe = await waitUntilAnswering(openPipe(launcher), exited, reason, sys.startupTimeoutMs);
    debug(`launched ${chromePath} pid=${launcher.pid} (debugging pipe)`);
    return {transport: {pipe}, launched: true, pid: launcher.pid, kill, exited};
  } catch (error) {
    await kill();
    // Two servers started at once: the other Chrome took the profile between our check and our launch.
    const taken = profile.temporary ? undefined : profileOwner(profile.dir);
    if (taken && taken.pid !== launcher.pid) {
      throw new Error(profileInUseMessage(profile.dir, taken), {cause: error});
    }
    throw error;
  }
}

/** The client over the launched process's fds 3 and 4; undefined when spawning failed (no streams). */
function openPipe(launcher: ChromeLauncher.Launcher): PipeClient | undefined {
  const incoming = launcher.remoteDebuggingPipes?.incoming as Readable | null | undefined;
  const outgoing = launcher.remoteDebuggingPipes?.outgoing as Writable | null | undefined;
  if (!incoming || !outgoing) {
    return undefined;
  }
  // The pipes must not keep our event loop alive.
  for (const stream of [incoming, outgoing]) {
    (stream as {unref?: () => void}).unref?.();
  }
  return new PipeClient(incoming, outgoing);
}

/**
 * Resolves with the pipe once Chrome answers a first command over it (it
 * reads the pipe once its DevTools handler is up). Fails at once when the
 * process exits first (with why, when known), and after `timeoutMs`.
 */
async function waitUntilAnswering(
  pipe: PipeClient | undefined,
  exited: Promise<void>,
  exitReason: () => string | undefined,
  timeoutMs: number,
): Promise<PipeClient> {
  let timer: NodeJS.Timeout | undefined;
  // Without a pipe the spawn failed: its exit (and reason) follows.
  const answered = new Promise<'answered' | 'exited'>(resolve =>
    pipe?.send('Browser.getVersion', {}, undefined, error => resolve(error === false ? 'answered' : 'exited')),
  );
  const outcome = await Promise.race([
    answered,
    exited.then(() => 'exited' as const),
    new Promise<'timeout'>(resolve => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
  ]).finally(() => clearTimeout(timer));
  if (outcome === 'answered' && pipe) {
    return pipe;
  }
  if (outcome === 'timeout') {
    throw new Error(`Chrome did not answer over its debugging pipe within ${timeoutMs / 1000} s.`);
  }
  // The pipe closes with the process: wait (bounded) for the exit, whose reason may say more.
  await Promise.race([exited, sleep(KILL_WAIT_MS)]);
  const why = exitReason();
  throw new Error(
    `Chrome exited during startup${why ? ` (${why})` : ''}. Run with --logFile, or start it by hand with the same flags, to see why.`,
  );
}
