import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {homedir, hostname, tmpdir} from 'node:os';
import {join} from 'node:path';

import * as ChromeLauncher from 'chrome-launcher';

import {sleep} from '../util/async.js';
import {debug, warn} from '../util/logger.js';

export type Channel = 'stable' | 'beta' | 'dev' | 'canary';

export interface LaunchOptions {
  executablePath?: string;
  channel?: Channel;
  headless: boolean;
  /** Temporary profile, deleted when the browser exits. */
  isolated: boolean;
  userDataDir?: string;
  proxyServer?: string;
  acceptInsecureCerts?: boolean;
  chromeArgs: string[];
  /** Default arguments (chrome-launcher's and ours) to leave out. */
  ignoreDefaultChromeArgs: string[];
}

/** A browser we can connect to; `launched` ones are ours to kill. */
export interface BrowserEndpoint {
  wsUrl: string;
  launched: boolean;
  pid?: number;
  /** Kills the browser we launched and removes its temporary profile. No-op when attached. */
  kill(): Promise<void>;
  /** Resolves when a launched browser process exits (never for attached ones). */
  exited: Promise<void>;
}

/** Temporary profiles are made under the OS temp dir with this prefix. */
const PROFILE_PREFIX = 'cdp-mcp-profile-';
/** A temporary profile with no running Chrome is left over once it is this old. */
const STALE_PROFILE_MS = 10 * 60_000;

/** Written into each temporary profile: the pid of the server that owns it. */
const OWNER_FILE = 'cdp-mcp-owner';

/**
 * A server killed with SIGKILL cannot remove its temporary profile (its Chrome
 * does exit: the debugging pipe closes). Remove such leftovers: profiles whose
 * owning server is gone, or, without an owner file, that are old.
 */
function removeStaleProfiles(): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir()).filter(name => name.startsWith(PROFILE_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = join(tmpdir(), name);
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Flags we add on top of chrome-launcher's defaults, each with its reason. */
const OUR_DEFAULT_FLAGS = [
  // Never show the "Chrome didn't shut down correctly" bubble after a kill.
  '--hide-crash-restore-bubble',
];

const CHANNEL_PATHS: Partial<Record<NodeJS.Platform, Record<Channel, string[]>>> = {
  linux: {
    stable: ['/opt/google/chrome/chrome', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'],
    beta: ['/opt/google/chrome-beta/chrome'],
    dev: ['/opt/google/chrome-unstable/chrome'],
    canary: ['/opt/google/chrome-canary/chrome'],
  },
  darwin: {
    stable: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
    beta: ['/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta'],
    dev: ['/Applications/Google Chrome Dev.app/Contents/MacOS/Google Chrome Dev'],
    canary: ['/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary'],
  },
  win32: {
    stable: [`${process.env['PROGRAMFILES'] ?? 'C:\\Program Files'}\\Google\\Chrome\\Application\\chrome.exe`],
    beta: [`${process.env['PROGRAMFILES'] ?? 'C:\\Program Files'}\\Google\\Chrome Beta\\Application\\chrome.exe`],
    dev: [`${process.env['PROGRAMFILES'] ?? 'C:\\Program Files'}\\Google\\Chrome Dev\\Application\\chrome.exe`],
    canary: [`${process.env['LOCALAPPDATA'] ?? ''}\\Google\\Chrome SxS\\Application\\chrome.exe`],
  },
};

/** Which binary to start: --executablePath, else the channel, else CHROME_PATH, else what chrome-launcher finds. */
export function resolveExecutable(options: Pick<LaunchOptions, 'executablePath' | 'channel'>): string {
  if (options.executablePath) {
    if (!existsSync(options.executablePath)) {
      throw new Error(
        `Chrome executable not found at ${options.executablePath}. Pass the path of an installed Chrome or Chromium with --executablePath.`,
      );
    }
    return options.executablePath;
  }
  if (options.channel) {
    const candidates = CHANNEL_PATHS[process.platform]?.[options.channel] ?? [];
    const found = candidates.find(p => existsSync(p));
    if (found) {
      return found;
    }
    if (options.channel !== 'stable') {
      throw new Error(
        `Chrome ${options.channel} is not installed (looked in ${candidates.join(', ') || 'no known location'}). Install it or pass --executablePath.`,
      );
    }
  }
  const fromEnv = process.env['CHROME_PATH'];
  if (fromEnv && existsSync(fromEnv)) {
    return fromEnv;
  }
  try {
    const found = ChromeLauncher.getChromePath();
    if (found) {
      return found;
    }
  } catch {
    // Reported below with a clearer message.
  }
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(p)) {
      return p;
    }
  }
  throw new Error(
    'No Chrome or Chromium found. Install Chrome, set CHROME_PATH, or pass --executablePath /path/to/chrome.',
  );
}

export function defaultUserDataDir(channel?: Channel): string {
  const base = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  return join(base, 'cdp-mcp', channel && channel !== 'stable' ? `chrome-profile-${channel}` : 'chrome-profile');
}

/** The full argument list we start Chrome with (minus the port chrome-launcher adds). */
export function buildChromeFlags(options: LaunchOptions, isRoot: boolean): string[] {
  const ignored = new Set(options.ignoreDefaultChromeArgs);
  const defaults = [...ChromeLauncher.Launcher.defaultFlags(), ...OUR_DEFAULT_FLAGS].filter(
    flag => !ignored.has(flag) && !ignored.has(flag.split('=')[0] ?? flag),
  );
  const flags = [...defaults];
  if (options.headless) {
    flags.push('--headless');
  }
  if (isRoot && !options.chromeArgs.includes('--no-sandbox')) {
    flags.push('--no-sandbox');
  }
  if (options.proxyServer) {
    flags.push(`--proxy-server=${options.proxyServer}`);
  }
  if (options.acceptInsecureCerts) {
    flags.push('--ignore-certificate-errors');
  }
  flags.push(...options.chromeArgs);
  return flags;
}

/** Launches Chrome with chrome-launcher and returns its browser WebSocket URL. */
export async function launchChrome(options: LaunchOptions): Promise<BrowserEndpoint> {
  const chromePath = resolveExecutable(options);
  const isRoot = process.getuid?.() === 0;
  if (isRoot && !options.chromeArgs.includes('--no-sandbox')) {
    warn('Running as root: starting Chrome with --no-sandbox (Chrome refuses to run sandboxed as root).');
  }
  let userDataDir: string;
  let temporary = false;
  if (options.isolated) {
    removeStaleProfiles();
    userDataDir = mkdtempSync(join(tmpdir(), PROFILE_PREFIX));
    writeFileSync(join(userDataDir, OWNER_FILE), `${hostname()} ${process.pid}`);
    temporary = true;
  } else {
    userDataDir = options.userDataDir ?? defaultUserDataDir(options.channel);
    mkdirSync(userDataDir, {recursive: true});
  }
  const removeProfile = () => {
    if (temporary) {
      rmSync(userDataDir, {recursive: true, force: true, maxRetries: 3});
    }
  };
  const activePortFile = join(userDataDir, 'DevToolsActivePort');
  rmSync(activePortFile, {force: true});
  let chrome: ChromeLauncher.LaunchedChrome;
  try {
    chrome = await ChromeLauncher.launch({
      chromePath,
      // Port 0 lets Chrome pick a free port and write it to DevToolsActivePort
      // as soon as it listens: no port race, no polling, no /json/version round
      // trip. chrome-launcher only skips its own port handling when a pipe is
      // requested, so we ask for one too and leave it unused.
      chromeFlags: [...buildChromeFlags(options, isRoot), '--remote-debugging-pipe', '--remote-debugging-port=0'],
      ignoreDefaultFlags: true,
      userDataDir,
      logLevel: 'silent',
      handleSIGINT: false,
      connectionPollInterval: 25,
      maxConnectionRetries: 600,
    });
  } catch (error) {
    removeProfile();
    const message = error instanceof Error ? error.message : String(error);
    if (!options.isolated && /already running|ProcessSingleton|profile.*in use/i.test(message)) {
      throw new Error(
        `The browser is already running for ${userDataDir}. Use --isolated to run multiple browser instances.`,
        {cause: error},
      );
    }
    throw new Error(`Could not launch Chrome (${chromePath}): ${message}`, {cause: error});
  }
  const exited = new Promise<void>(resolve => {
    if (chrome.process.exitCode !== null) {
      resolve();
    } else {
      chrome.process.once('exit', () => resolve());
    }
  });
  let killed = false;
  const kill = async () => {
    if (!killed) {
      killed = true;
      try {
        chrome.kill();
      } catch (error) {
        debug('chrome.kill failed', error);
      }
      await Promise.race([exited, sleep(3000)]);
    }
    removeProfile();
  };
  try {
    // The pipes must not keep our event loop alive.
    for (const stream of [chrome.remoteDebuggingPipes?.incoming, chrome.remoteDebuggingPipes?.outgoing]) {
      (stream as {unref?: () => void} | undefined)?.unref?.();
    }
    const wsUrl = await readActivePort(activePortFile, exited);
    debug(`launched ${chromePath} pid=${chrome.pid} ${wsUrl}`);
    return {wsUrl, launched: true, pid: chrome.pid, kill, exited};
  } catch (error) {
    await kill();
    throw error;
  }
}

/** Chrome writes `DevToolsActivePort` (port, then browser target path) once its DevTools server listens. */
async function readActivePort(file: string, exited: Promise<void>): Promise<string> {
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (dead) {
      throw new Error(
        'Chrome exited during startup. Run with --logFile, or start it by hand with the same flags, to see why.',
      );
    }
    try {
      const [port, path] = readFileSync(file, 'utf8').split('\n');
      if (port && path?.startsWith('/devtools/browser/')) {
        return `ws://127.0.0.1:${port.trim()}${path.trim()}`;
      }
    } catch {
      // Not written yet.
    }
    await sleep(5);
  }
  throw new Error('Chrome did not open its DevTools port within 30 s.');
}

async function fetchVersion(browserUrl: string): Promise<{webSocketDebuggerUrl: string}> {
  const url = new URL('/json/version', browserUrl);
  const response = await fetch(url, {signal: AbortSignal.timeout(10_000)});
  if (!response.ok) {
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  const body = (await response.json()) as {webSocketDebuggerUrl?: string};
  if (!body.webSocketDebuggerUrl) {
    throw new Error(`${url} did not include webSocketDebuggerUrl`);
  }
  return {webSocketDebuggerUrl: body.webSocketDebuggerUrl};
}

/** Attach mode: the browser belongs to the user and is never killed by us. */
export async function resolveAttachEndpoint(options: {
  browserUrl?: string;
  wsEndpoint?: string;
}): Promise<BrowserEndpoint> {
  let wsUrl: string;
  if (options.wsEndpoint) {
    wsUrl = options.wsEndpoint;
  } else if (options.browserUrl) {
    try {
      wsUrl = (await fetchVersion(options.browserUrl)).webSocketDebuggerUrl;
    } catch (error) {
      throw new Error(
        `Could not connect to Chrome at ${options.browserUrl}. Check that Chrome is running with --remote-debugging-port and that the URL is right.`,
        {cause: error},
      );
    }
  } else {
    throw new Error('Attach needs --browserUrl or --wsEndpoint.');
  }
  return {wsUrl, launched: false, kill: async () => {}, exited: new Promise(() => {})};
}
