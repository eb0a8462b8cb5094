/**
 * Starts Chrome (through chrome-launcher) and hands back its browser
 * WebSocket URL. Chrome is tied to the server by its debugging pipe: when the
 * server dies, even by SIGKILL, the pipe closes and Chrome exits.
 */
import type {ChildProcess, spawn} from 'node:child_process';
import {rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import type {Readable, Writable} from 'node:stream';

import * as ChromeLauncher from 'chrome-launcher';

import {sleep} from '../util/async.js';
import {debug, warn} from '../util/logger.js';
import {activePortFile, STARTUP_TIMEOUT_MS, waitForActivePort} from './activePort.js';
import type {BrowserEndpoint} from './browserEndpoint.js';
import {type Channel, resolveExecutable} from './finder.js';
import {buildChromeFlags, type ChromeFlagOptions} from './flags.js';
import {PipeChannel} from './pipeChannel.js';
import {prepareProfile, type Profile} from './profile.js';

/** How long kill() waits for Chrome to exit before removing its profile anyway. */
const KILL_WAIT_MS = 3_000;

/** What to launch and how (from the launch flags). */
export interface LaunchOptions extends ChromeFlagOptions {
  executablePath?: string;
  channel?: Channel;
  /** Temporary profile, deleted when the browser exits. */
  isolated: boolean;
  userDataDir?: string;
}

/** Seams for tests: what a launch otherwise takes from the system. */
export interface LaunchSystem {
  /** Starts the process; handed to chrome-launcher (its own child_process.spawn when absent). */
  spawn?: typeof spawn;
  /** Whether we run as root (Chrome then needs --no-sandbox). */
  isRoot: boolean;
  /** Where temporary profiles go. */
  tempRoot: string;
  /** How long Chrome may take to open its DevTools port. */
  startupTimeoutMs: number;
}

const SYSTEM: LaunchSystem = {
  isRoot: process.getuid?.() === 0,
  tempRoot: tmpdir(),
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
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
      // Port 0 lets Chrome pick a free port and write it to DevToolsActivePort
      // as soon as it listens: no port race, no polling, no /json/version round
      // trip. chrome-launcher only skips its own port handling when a pipe is
      // requested, so we ask for one too (it also ties Chrome's life to ours).
      chromeFlags: [...flags, '--remote-debugging-pipe', '--remote-debugging-port=0'],
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
  const profile = prepareProfile(options, sys.tempRoot);
  const portFile = activePortFile(profile.dir);
  rmSync(portFile, {force: true});
  const launcher = await start(chromePath, buildChromeFlags(options, sys.isRoot), profile, options, sys.spawn);
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
    // The pipes must not keep our event loop alive.
    for (const stream of [launcher.remoteDebuggingPipes?.incoming, launcher.remoteDebuggingPipes?.outgoing]) {
      (stream as {unref?: () => void} | undefined)?.unref?.();
    }
    const wsUrl = await waitForActivePort(portFile, exited, reason, sys.startupTimeoutMs);
    debug(`launched ${chromePath} pid=${launcher.pid} ${wsUrl}`);
    const pipes = launcher.remoteDebuggingPipes;
    let channel: PipeChannel | undefined;
    // Read only once something is sent over it: until then Chrome writes nothing there.
    const pipe = pipes
      ? () => (channel ??= new PipeChannel(pipes.incoming as Readable, pipes.outgoing as Writable))
      : undefined;
    return {wsUrl, launched: true, pid: launcher.pid, kill, exited, pipe};
  } catch (error) {
    await kill();
    throw error;
  }
}
