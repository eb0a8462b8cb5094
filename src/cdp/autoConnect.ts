/**
 * `--autoConnect`: the user's own Chrome, running on its usual profile with
 * remote debugging turned on (chrome://inspect/#remote-debugging), announces
 * its DevTools port in the profile's DevToolsActivePort file. We read it and
 * attach; that Chrome is the user's and is never closed by us.
 */
import {existsSync, readFileSync} from 'node:fs';
import {connect} from 'node:net';
import {join} from 'node:path';

import type {Channel} from './finder.js';
import {chromeUserDataDir, USER_DATA_ROOT_ENV} from './userDataDirs.js';

/** Bound of the check that something listens on the file's port. */
const PORT_PROBE_TIMEOUT_MS = 2_000;
const ENABLE_HINT = 'enable remote debugging at chrome://inspect/#remote-debugging';

/** Where --autoConnect looks: --userDataDir, else the channel's default profile. */
export function autoConnectDir(options: {userDataDir?: string; channel?: Channel}): string {
  return options.userDataDir ?? chromeUserDataDir(options.channel);
}

/** The browser WebSocket URL in the file's text, or undefined when it is not port + /devtools/browser/<id>. */
export function parseActivePortStrict(text: string): {port: number; wsUrl: string} | undefined {
  const [portLine = '', pathLine = ''] = text.split(/\r?\n/);
  const port = /^\d{1,5}$/.test(portLine.trim()) ? Number(portLine.trim()) : 0;
  const path = pathLine.trim();
  if (port < 1 || port > 65_535 || !/^\/devtools\/browser\/\S+$/.test(path)) {
    return undefined;
  }
  return {port, wsUrl: `ws://127.0.0.1:${port}${path}`};
}

/** Whether a TCP connection to 127.0.0.1:port is accepted within the probe bound. */
function portListens(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect({host: '127.0.0.1', port});
    const done = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.setTimeout(PORT_PROBE_TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The WebSocket URL of the Chrome running on the profile; throws saying what to do when there is none. */
export async function resolveAutoConnect(options: {userDataDir?: string; channel?: Channel}): Promise<string> {
  const dir = autoConnectDir(options);
  const channel = options.channel ?? 'stable';
  const where = options.userDataDir
    ? ''
    : `, or pass its profile directory with --userDataDir (the default profiles' folder can be set with ${USER_DATA_ROOT_ENV})`;
  if (!existsSync(dir)) {
    throw new Error(
      `Could not connect to Chrome: there is no Chrome profile at ${dir}${options.userDataDir ? ' (--userDataDir)' : ` (the default of --channel ${channel})`}. Start Chrome and ${ENABLE_HINT}${where}.`,
    );
  }
  const file = join(dir, 'DevToolsActivePort');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(
      `Could not connect to Chrome in ${dir}: ${file} does not exist, so Chrome is not running on this profile or its remote debugging is off. Start Chrome and ${ENABLE_HINT}${where}.`,
    );
  }
  const parsed = parseActivePortStrict(text);
  if (!parsed) {
    throw new Error(
      `Could not connect to Chrome in ${dir}: ${file} is malformed (expected a port on line 1 and /devtools/browser/<id> on line 2). Restart Chrome, or turn remote debugging off and on at chrome://inspect/#remote-debugging, so that it writes the file again.`,
    );
  }
  if (!(await portListens(parsed.port))) {
    throw new Error(
      `Could not connect to Chrome in ${dir}: nothing listens on port ${parsed.port} named in ${file}, so the file was left by a Chrome that is no longer running. Start Chrome and ${ENABLE_HINT}.`,
    );
  }
  return parsed.wsUrl;
}
