/**
 * Which Chrome binary to start: `--executablePath`, else the `--channel`
 * install, else CHROME_PATH, else what chrome-launcher finds, else Debian's
 * and Ubuntu's Chromium. On WSL, Linux browsers only (unless
 * `--executablePath` names a Windows one), the installed ones first:
 * chrome-launcher looks only for the Windows Chrome there, which the server
 * cannot drive over its debugging pipe across the WSL boundary.
 */
import {existsSync, readFileSync} from 'node:fs';
import {release} from 'node:os';

import * as ChromeLauncher from 'chrome-launcher';

/** An installed Chrome release channel. */
export type Channel = 'stable' | 'beta' | 'dev' | 'canary';

const PROGRAM_FILES = process.env['PROGRAMFILES'] ?? 'C:\\Program Files';

/** Where each channel installs, per platform (the first existing path wins). */
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
    stable: [`${PROGRAM_FILES}\\Google\\Chrome\\Application\\chrome.exe`],
    beta: [`${PROGRAM_FILES}\\Google\\Chrome Beta\\Application\\chrome.exe`],
    dev: [`${PROGRAM_FILES}\\Google\\Chrome Dev\\Application\\chrome.exe`],
    canary: [`${process.env['LOCALAPPDATA'] ?? ''}\\Google\\Chrome SxS\\Application\\chrome.exe`],
  },
};

/** Distribution Chromium packages chrome-launcher does not look for. */
const DISTRIBUTION_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** What the search looks at; tests replace it. */
export interface FinderEnvironment {
  /** Environment variables (CHROME_PATH). */
  env: NodeJS.ProcessEnv;
  /** Picks the channel install locations. */
  platform: NodeJS.Platform;
  /** Linux under Windows (WSL): Windows executables are skipped unless passed with --executablePath. */
  wsl: boolean;
  /** Whether a file is there. */
  exists(path: string): boolean;
  /** chrome-launcher's own search; undefined or a throw when it finds nothing. */
  detect(): string | undefined;
}

/** Whether this is Linux under WSL (as the is-wsl package tells, which chrome-launcher uses). */
export function runningInWsl(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux') {
    return false;
  }
  if (env['WSL_DISTRO_NAME'] || env['WSL_INTEROP'] || /microsoft/i.test(release())) {
    return true;
  }
  try {
    return /microsoft/i.test(readFileSync('/proc/version', 'utf8'));
  } catch {
    return false;
  }
}

/** A Windows program seen from WSL: on a Windows drive (/mnt/c/...) or an .exe. */
export function isWindowsExecutable(path: string): boolean {
  return /^\/mnt\/[a-z]\//i.test(path) || /\.exe$/i.test(path);
}

let wsl: boolean | undefined;

const SYSTEM: FinderEnvironment = {
  env: process.env,
  platform: process.platform,
  get wsl() {
    wsl ??= runningInWsl();
    return wsl;
  },
  exists: existsSync,
  detect: () => ChromeLauncher.getChromePath(),
};

/** The binary to launch. Throws with what to install or pass when there is none. */
export function resolveExecutable(
  options: {executablePath?: string; channel?: Channel},
  system: FinderEnvironment = SYSTEM,
): string {
  if (options.executablePath) {
    if (!system.exists(options.executablePath)) {
      throw new Error(
        `Chrome executable not found at ${options.executablePath}. Pass the path of an installed Chrome or Chromium with --executablePath.`,
      );
    }
    return options.executablePath;
  }
  if (options.channel) {
    const candidates = CHANNEL_PATHS[system.platform]?.[options.channel] ?? [];
    const found = candidates.find(path => system.exists(path));
    if (found) {
      return found;
    }
    // Stable falls through to the general search: it is what an unnamed install usually is.
    if (options.channel !== 'stable') {
      throw new Error(
        `Chrome ${options.channel} is not installed (looked in ${candidates.join(', ') || 'no known location'}). Install it or pass --executablePath.`,
      );
    }
  }
  return searchInstalled(system);
}

/** CHROME_PATH, chrome-launcher's search, distribution Chromium (on WSL: Linux browsers only, installed ones first). */
function searchInstalled(system: FinderEnvironment): string {
  // On WSL only Linux browsers are looked for; the Windows ones skipped are named if none is found.
  const skipped: string[] = [];
  const usable = (path: string | undefined, checkExists = true): path is string => {
    if (!path || (checkExists && !system.exists(path))) {
      return false;
    }
    if (system.wsl && isWindowsExecutable(path)) {
      skipped.push(path);
      return false;
    }
    return true;
  };
  const fromEnv = system.env['CHROME_PATH'];
  if (usable(fromEnv)) {
    return fromEnv;
  }
  // chrome-launcher finds only the Windows Chrome on WSL: the Linux installs come first there.
  const linux = system.wsl ? [...(CHANNEL_PATHS.linux?.stable ?? []), ...DISTRIBUTION_CHROMIUM] : [];
  const installed = linux.find(path => usable(path));
  if (installed) {
    return installed;
  }
  try {
    const found = system.detect();
    if (usable(found, false)) {
      return found;
    }
  } catch {
    // Reported below with a clearer message.
  }
  const distribution = DISTRIBUTION_CHROMIUM.find(path => usable(path));
  if (distribution) {
    return distribution;
  }
  throw new Error(
    'No Chrome or Chromium found. Install Chrome, set CHROME_PATH, or pass --executablePath /path/to/chrome.' +
      (skipped.length
        ? ` Skipped the Windows Chrome at ${[...new Set(skipped)].join(', ')}: from WSL the server launches a Linux browser (install one in WSL: sudo apt-get install chromium). To drive the Windows Chrome, start it with --remote-debugging-port and attach with --browserUrl, or pass it with --executablePath to launch it anyway.`
        : ''),
  );
}
