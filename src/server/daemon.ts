/**
 * The background server of `cdp-mcp start`: an ordinary HTTP server (our
 * Streamable HTTP transport on 127.0.0.1, a free port, the bearer token the
 * CLI generated) that publishes where it listens in the user's state folder
 * and takes it back when it exits.
 */
import {
  AUTH_TOKEN_ENV,
  claimState,
  DAEMON_ENV,
  type DaemonState,
  logPath,
  releaseState,
} from '../config/daemonState.js';
import {SERVER_VERSION} from '../util/version.js';

/** The state folder when this process was started by `cdp-mcp start`, else undefined. */
export function daemonDir(): string | undefined {
  return process.env[DAEMON_ENV] || undefined;
}

/**
 * Publishes this server in `dir`; throws when another live background server
 * holds the place. The variables that handed over the folder and the token
 * are removed, so that the Chrome we launch does not inherit them.
 */
export async function publishDaemon(dir: string, http: {url: string; token: string}): Promise<() => void> {
  delete process.env[DAEMON_ENV];
  delete process.env[AUTH_TOKEN_ENV];
  const state: DaemonState = {
    pid: process.pid,
    url: http.url,
    token: http.token,
    args: process.argv.slice(2),
    startedAt: new Date().toISOString(),
    version: SERVER_VERSION,
    logFile: logPath(dir),
  };
  const holder = await claimState(state, dir);
  if (holder.pid !== process.pid) {
    throw new Error(`another background server already runs (pid ${holder.pid}); stop it with cdp-mcp stop.`);
  }
  return () => releaseState(process.pid, dir);
}
