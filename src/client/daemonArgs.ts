/**
 * The flags of the background server `cdp-mcp start [flags]` spawns: the
 * user's, checked, plus what a server driven from a shell needs (the
 * defaults below), plus the transport, which is not theirs to choose.
 */
import {parseArgv} from '../config/argv.js';
import {FLAGS} from '../config/flagTable.js';
import {parseConfig} from '../config/options.js';

/**
 * Idle time after which the CLI's MCP session would be closed: a year. The
 * CLI's calls come minutes or days apart and share one session (its selected
 * page, its snapshot's uids); `cdp-mcp stop` ends it.
 */
export const CLI_SESSION_IDLE_S = 365 * 24 * 3600;

/** Flags `start` sets itself: where it listens and how the CLI authenticates. */
const TRANSPORT_FLAGS = ['port', 'host', 'authToken', 'maxSessions'] as const;
/** Flags that answer a person and exit: meaningless for a background server. */
const META_FLAGS = ['help', 'version', 'viaCli'] as const;
/** Attaching to a browser: then it is not ours to make headless or isolated. */
const ATTACH_FLAGS = ['browserUrl', 'wsEndpoint', 'autoConnect'] as const;

/**
 * The background server's flags for `start`'s arguments. Throws an Error
 * saying what to change when a flag is malformed or not for `start`. Unless
 * given otherwise, like chrome-devtools' CLI: headless, and a throwaway
 * profile (isolated) when launching; and the CLI's session works in the
 * browser's default context (`--sharedContext`), so that an MCP client
 * connected to the same server sees the same pages.
 */
export function daemonArgs(userArgs: readonly string[]): string[] {
  const {values, unknown} = parseArgv(userArgs, FLAGS);
  if (unknown.length) {
    throw new Error(`Unknown argument${unknown.length > 1 ? 's' : ''} for start: ${unknown.join(' ')}.`);
  }
  for (const flag of [...TRANSPORT_FLAGS, ...META_FLAGS]) {
    if (values[flag] !== undefined) {
      throw new Error(
        `--${flag} is not for start: the background server listens on 127.0.0.1 (a free port) with a token of its own. ` +
          'For an HTTP server of your own, run cdp-mcp --port <port>.',
      );
    }
  }
  // Every check of the server's own command line, now rather than in the background.
  parseConfig(userArgs);
  const attaching = ATTACH_FLAGS.some(flag => values[flag] !== undefined && values[flag] !== false);
  const defaults: string[] = [];
  if (!attaching && values.headless === undefined) {
    defaults.push('--headless');
  }
  if (!attaching && values.isolated === undefined && values.userDataDir === undefined) {
    defaults.push('--isolated');
  }
  if (values.sharedContext === undefined) {
    defaults.push('--sharedContext');
  }
  if (values.sessionIdleTimeout === undefined) {
    defaults.push(`--sessionIdleTimeout=${CLI_SESSION_IDLE_S}`);
  }
  return [...userArgs, '--viaCli', ...defaults, '--port=0', '--maxSessions=64'];
}

/** The user's part of a background server's flags (what `status` shows as given). */
export function givenArgs(args: readonly string[]): string[] {
  const start = args.indexOf('--viaCli');
  return start < 0 ? [...args] : args.slice(0, start);
}
