/**
 * Attach mode: the browser belongs to the user. We connect to it through its
 * HTTP debugging endpoint (`--browserUrl`), its WebSocket URL
 * (`--wsEndpoint`) or its profile's DevToolsActivePort file
 * (`--autoConnect`), and never kill it.
 */
import {resolveAutoConnect} from './autoConnect.js';
import type {BrowserEndpoint} from './browserEndpoint.js';
import type {Channel} from './finder.js';

/** Bound of the `/json/version` request that finds the WebSocket URL. */
const VERSION_TIMEOUT_MS = 10_000;

async function fetchVersion(browserUrl: string): Promise<{webSocketDebuggerUrl: string}> {
  const url = new URL('/json/version', browserUrl);
  const response = await fetch(url, {signal: AbortSignal.timeout(VERSION_TIMEOUT_MS)});
  if (!response.ok) {
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  const body = (await response.json()) as {webSocketDebuggerUrl?: string};
  if (!body.webSocketDebuggerUrl) {
    throw new Error(`${url} did not include webSocketDebuggerUrl`);
  }
  return {webSocketDebuggerUrl: body.webSocketDebuggerUrl};
}

/** The endpoint of a running browser; kill() is a no-op and `exited` never resolves. */
export async function resolveAttachEndpoint(options: {
  browserUrl?: string;
  wsEndpoint?: string;
  /** --autoConnect: the profile to read (--userDataDir), else the channel's default one. */
  autoConnect?: {userDataDir?: string; channel?: Channel};
}): Promise<BrowserEndpoint> {
  let wsUrl: string;
  if (options.autoConnect) {
    wsUrl = await resolveAutoConnect(options.autoConnect);
  } else if (options.wsEndpoint) {
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
    throw new Error('Attach needs --browserUrl, --wsEndpoint or --autoConnect.');
  }
  return {transport: {wsUrl}, launched: false, kill: async () => {}, exited: new Promise(() => {})};
}
