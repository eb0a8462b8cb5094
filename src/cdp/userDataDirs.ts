/**
 * Where each Chrome channel keeps its user's profile by default, per
 * platform, as Chrome itself resolves it (chrome_paths_linux.cc,
 * chrome_paths_mac.mm, chrome_paths_win.cc). `--autoConnect` looks there for
 * the DevToolsActivePort file of the user's running Chrome.
 */
import {homedir} from 'node:os';
import {join, win32} from 'node:path';

import type {Channel} from './finder.js';

/**
 * Replaces the folder that holds the channels' profiles (`~/.config` on
 * Linux, `~/Library/Application Support/Google` on macOS,
 * `%LOCALAPPDATA%\Google` on Windows): for tests, and for a Chrome whose
 * profiles live elsewhere.
 */
export const USER_DATA_ROOT_ENV = 'CDP_MCP_CHROME_USER_DATA_ROOT';

const LINUX_NAMES: Record<Channel, string> = {
  stable: 'google-chrome',
  beta: 'google-chrome-beta',
  dev: 'google-chrome-unstable',
  canary: 'google-chrome-canary',
};
const MAC_NAMES: Record<Channel, string> = {
  stable: 'Chrome',
  beta: 'Chrome Beta',
  dev: 'Chrome Dev',
  canary: 'Chrome Canary',
};
const WINDOWS_NAMES: Record<Channel, string> = {
  stable: 'Chrome',
  beta: 'Chrome Beta',
  dev: 'Chrome Dev',
  canary: 'Chrome SxS',
};

/** The default user data dir of `channel`'s Chrome for the user running us. */
export function chromeUserDataDir(
  channel: Channel = 'stable',
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  const root = env[USER_DATA_ROOT_ENV] || undefined;
  switch (platform) {
    case 'win32':
      return win32.join(
        root ?? win32.join(env['LOCALAPPDATA'] || win32.join(home, 'AppData', 'Local'), 'Google'),
        WINDOWS_NAMES[channel],
        'User Data',
      );
    case 'darwin':
      return join(root ?? join(home, 'Library', 'Application Support', 'Google'), MAC_NAMES[channel]);
    default:
      // Chrome on Linux (and the BSDs) honours CHROME_CONFIG_HOME, then XDG_CONFIG_HOME.
      return join(
        root ?? (env['CHROME_CONFIG_HOME'] || env['XDG_CONFIG_HOME'] || join(home, '.config')),
        LINUX_NAMES[channel],
      );
  }
}
