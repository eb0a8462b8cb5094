/**
 * `DevToolsActivePort`: the file Chrome writes into its profile once its
 * DevTools server listens. Line 1 is the port, line 2 the browser target's
 * path. Reading it avoids guessing ports and polling HTTP.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';

import {sleep} from '../util/async.js';

/** How long a launched Chrome may take to open its DevTools port. */
export const STARTUP_TIMEOUT_MS = 30_000;
/** How often the file is checked while Chrome starts. */
const POLL_INTERVAL_MS = 5;

/** The file's path in a profile. */
export function activePortFile(userDataDir: string): string {
  return join(userDataDir, 'DevToolsActivePort');
}

/** The browser WebSocket URL the file's text names, or undefined while it is incomplete. */
export function parseActivePort(text: string): string | undefined {
  const [port, path] = text.split('\n');
  return port && path?.startsWith('/devtools/browser/') ? `ws://127.0.0.1:${port.trim()}${path.trim()}` : undefined;
}

/** The browser WebSocket URL in `file` now, or undefined when it is missing or incomplete. */
export function readActivePort(file: string): string | undefined {
  try {
    return parseActivePort(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Waits until the starting Chrome writes `file`. Fails at once when the
 * process exits first (with `exitReason()` when known), and after `timeoutMs`.
 */
export async function waitForActivePort(
  file: string,
  exited: Promise<void>,
  exitReason: () => string | undefined = () => undefined,
  timeoutMs: number = STARTUP_TIMEOUT_MS,
): Promise<string> {
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (dead) {
      const reason = exitReason();
      throw new Error(
        `Chrome exited during startup${reason ? ` (${reason})` : ''}. Run with --logFile, or start it by hand with the same flags, to see why.`,
      );
    }
    const wsUrl = readActivePort(file);
    if (wsUrl) {
      return wsUrl;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`Chrome did not open its DevTools port within ${timeoutMs / 1000} s.`);
}
