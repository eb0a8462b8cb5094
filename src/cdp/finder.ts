/**
 * Which Chrome binary to start: `--executablePath`, else the `--channel`
 * install, else CHROME_PATH, else what chrome-launcher finds, else Debian's
 * and Ubuntu's Chromium.
 */
import {existsSync} from 'node:fs';

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
  /** Whether a file is there. */
  exists(path: string): boolean;
  /** chrome-launcher's own search; undefined or a throw when it finds nothing. */
  detect(): string | undefined;
}

const SYSTEM: FinderEnvironment = {
  env: process.env,
  platform: process.platform,
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
  const fromEnv = system.env['CHROME_PATH'];
  if (fromEnv && system.exists(fromEnv)) {
    return fromEnv;
  }
  try {
    const found = system.detect();
    if (found) {
      return found;
    }
  } catch {
    // Reported below with a clearer message.
  }
  const distribution = DISTRIBUTION_CHROMIUM.find(path => system.exists(path));
  if (distribution) {
    return distribution;
  }
  throw new Error(
    'No Chrome or Chromium found. Install Chrome, set CHROME_PATH, or pass --executablePath /path/to/chrome.',
  );
}
