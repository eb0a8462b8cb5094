import {AsyncLocalStorage} from 'node:async_hooks';

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
 * session's calls runs goes on that call's stream (an HTTP client without a
 * GET stream still sees it); others go on the session's own.
 *
 * The level is kept here rather than by the SDK (which keys it by transport
 * session) because the SDK's sendLoggingMessage cannot name the related call.
 */
export class ClientLog {
  #level: LoggingLevel = 'debug';
  readonly #calls = new AsyncLocalStorage<string | number>();
  /** Calls still running: a callback set up during a call may warn after it ended, on no stream of its own. */
  readonly #running = new Set<string | number>();
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
    try {
      return await this.#calls.run(requestId, work);
    } finally {
      this.#running.delete(requestId);
    }
  }

  send(level: LoggingLevel, data: string): void {
    if (SEVERITY.indexOf(level) < SEVERITY.indexOf(this.#level)) {
      return;
    }
    const call = this.#calls.getStore();
    const relatedRequestId = call !== undefined && this.#running.has(call) ? call : undefined;
    this.server
      .notification({method: 'notifications/message', params: {level, logger: LOGGER, data}}, {relatedRequestId})
      .catch((error: unknown) => debug('sending a log message to the client failed', error));
  }
}
