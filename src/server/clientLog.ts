import type {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {type LoggingLevel, LoggingLevelSchema, SetLevelRequestSchema} from '@modelcontextprotocol/sdk/types.js';

import {debug, onWarning} from '../util/logger.js';

/** The logger name clients see on our log messages. */
const LOGGER = 'cdp-mcp';
const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;

/**
 * The MCP `logging` capability of one session: the server's warnings (root
 * without a sandbox, a flag that falls back, a browser that dropped, ...), which
 * the operator's log gets anyway, also go to the client as
 * notifications/message at level `warning`, unless the client asked for a
 * higher level with logging/setLevel. A warning raised while one of the
 * session's calls runs, and no other call of any session, goes on that call's
 * stream (an HTTP client without a GET stream still sees it); others go on
 * the session's own. Which call raised it is not tracked through the async
 * chain (AsyncLocalStorage): on Node 20 that turns on V8's promise hooks for
 * every promise of the process, a tenth of the server's CPU per call
 * (measured on list_pages and take_snapshot), for a warning in a few calls.
 *
 * The level is kept here rather than by the SDK (which keys it by transport
 * session) because the SDK's sendLoggingMessage cannot name the related call.
 */
export class ClientLog {
  #level: LoggingLevel = 'debug';
  /** This session's calls still running. */
  readonly #running = new Set<string | number>();
  /** Calls running in every session of the process: a warning is a call's only when it is the one. */
  static #everywhere = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(readonly server: Server) {
    server.setRequestHandler(SetLevelRequestSchema, async request => {
      this.#level = request.params.level;
      return {};
    });
  }

  /** Starts telling the client (once initialized); warnings from the server's startup come first. */
  start(): void {
    this.#unsubscribe ??= onWarning(message => this.send('warning', message));
  }

  stop(): void {
    this.#unsubscribe?.();
  }

  /** Runs one call's work, so that its warnings go on its stream. */
  async during<T>(requestId: string | number, work: () => Promise<T>): Promise<T> {
    this.#running.add(requestId);
    ClientLog.#everywhere++;
    try {
      return await work();
    } finally {
      this.#running.delete(requestId);
      ClientLog.#everywhere--;
    }
  }

  send(level: LoggingLevel, data: string): void {
    if (SEVERITY.indexOf(level) < SEVERITY.indexOf(this.#level)) {
      return;
    }
    const [call] = this.#running;
    const relatedRequestId = ClientLog.#everywhere === 1 ? call : undefined;
    this.server
      .notification({method: 'notifications/message', params: {level, logger: LOGGER, data}}, {relatedRequestId})
      .catch((error: unknown) => debug('sending a log message to the client failed', error));
  }
}
