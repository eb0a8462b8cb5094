/**
 * Library entry: run the server inside another Node.js program.
 *
 *   import {startServer} from 'cdp-mcp';
 *   const server = await startServer({transport: 'http', port: 8931, wsEndpoint, onLog});
 *
 * The types here are self-contained (no MCP SDK types): the package ships
 * bundled, with no dependencies.
 */
import {type Config, DEFAULT_CONFIG} from './config/options.js';
import {ServerCore} from './server/core.js';
import {startTransport} from './server/start.js';
import {configureLogger, type LogLevel} from './util/logger.js';

export {type Config, DEFAULT_CONFIG, parseConfig} from './config/options.js';
export type {LogLevel} from './util/logger.js';

/** Everything the command-line flags set (see docs/flags.md), plus the transport and a log sink. */
export interface ServerOptions extends Partial<Omit<Config, 'help' | 'version' | 'unknown'>> {
  /** `stdio` (the default), or `http`: Streamable HTTP at http://host:port/mcp (`port` 0 or unset: any free port). */
  transport?: 'stdio' | 'http';
  /** Receives every log line (debug ones included) instead of stderr. */
  onLog?: (level: LogLevel, message: string) => void;
}

/** An MCP transport (the SDK's StdioServerTransport, StreamableHTTPServerTransport, …), structurally. */
export interface McpTransport {
  start(): Promise<void>;
  send(message: object, options?: object): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  // The SDK calls this with its JSON-RPC message types.
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  sessionId?: string | undefined;
}

/** A server you connect transports to yourself. */
export interface CdpMcpServer {
  /**
   * Serves one MCP client over `transport`. The first client works in the
   * browser's default context; each later one in a browser context of its own
   * (unless `sharedContext`).
   */
  connect(transport: McpTransport): Promise<void>;
  /** Ends every client's session, kills a Chrome the server launched (never one it attached to). */
  close(): Promise<void>;
}

/** A server started on its transport. */
export interface RunningServer {
  transport: 'stdio' | 'http';
  /** The HTTP endpoint, e.g. http://127.0.0.1:8931/mcp (HTTP only). */
  url?: string;
  /** The bearer token clients must send (HTTP only; generated unless `authToken` was given). */
  token?: string;
  close(): Promise<void>;
}

function configOf(options: ServerOptions): Config {
  const {transport, onLog, ...rest} = options;
  if (onLog) {
    configureLogger({sink: onLog});
  }
  const config: Config = {...DEFAULT_CONFIG, ...rest};
  if (transport === 'http' && config.port === undefined) {
    config.port = 0;
  }
  if (transport === 'stdio') {
    config.port = undefined;
  }
  return config;
}

/** Creates the server without a transport: connect the ones you have. */
export function createServer(options: ServerOptions = {}): CdpMcpServer {
  const core = new ServerCore(configOf(options));
  let first = true;
  return {
    async connect(transport) {
      // The first client is the server's own; later ones get private files (as HTTP sessions do).
      const session = core.openSession({
        defaultContext: first || core.config.sharedContext,
        files: first ? 'owner' : 'private',
      });
      first = false;
      await session.connect(transport);
    },
    close: () => core.close(),
  };
}

/**
 * Starts the server on stdio, or on HTTP (`transport: 'http'` or a `port`).
 * It never exits the process or installs signal handlers: call `close()`.
 */
export function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  return startTransport(configOf(options), {exitOnSignal: false}).then(running => ({
    transport: running.transport,
    url: running.http?.url,
    token: running.http?.token,
    close: () => running.close(),
  }));
}
