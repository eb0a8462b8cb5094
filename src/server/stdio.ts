import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';

import {debug} from '../util/logger.js';
import type {CdpMcpServer} from './createServer.js';

/** Backstop: exit even if closing hangs. */
const SHUTDOWN_DEADLINE_MS = 5_000;

/**
 * Serves over stdio and makes sure the process, and any Chrome it launched,
 * goes away when the client does: stdin end/close, SIGTERM, SIGINT or SIGHUP.
 */
export async function serveStdio(instance: CdpMcpServer): Promise<void> {
  let shuttingDown = false;
  const shutdown = (reason: string) => {
    if (shuttingDown) {
      return;
    }
    shuttingDown = true;
    debug(`shutting down: ${reason}`);
    setTimeout(() => process.exit(0), SHUTDOWN_DEADLINE_MS).unref();
    instance
      .close()
      .catch(error => debug('shutdown error', error))
      .finally(() => process.exit(0));
  };
  process.stdin.on('end', () => shutdown('stdin ended'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => shutdown(signal));
  }
  // A write to a closed stdout (client gone) must end us, not crash with EPIPE.
  process.stdout.on('error', () => shutdown('stdout closed'));
  await instance.server.connect(new StdioServerTransport());
}
