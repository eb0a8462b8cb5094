import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';

import {debug, warn} from '../util/logger.js';
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
  process.on('uncaughtException', error => {
    // Never leave Chrome behind, even on a bug of ours.
    warn('uncaught exception:', error);
    shutdown('uncaught exception');
  });
  process.stdin.on('end', () => shutdown('stdin ended'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => shutdown(signal));
  }
  if (process.env['CDP_MCP_HEAP_REPORT'] === '1') {
    // Leak checks (scripts/soak): on SIGUSR2, collect garbage (needs
    // --expose-gc) and report heap and CDP bookkeeping on stderr.
    process.on('SIGUSR2', () => {
      void (async () => {
        const browser = instance.browsers.current;
        const targets = await browser?.connection.send('Target.getTargets').catch(() => undefined);
        const gc = (globalThis as {gc?: () => void}).gc;
        gc?.();
        gc?.();
        const report = {
          heapUsed: process.memoryUsage().heapUsed,
          rss: process.memoryUsage().rss,
          pages: browser?.pages().length ?? 0,
          targets: targets?.targetInfos.length ?? 0,
          ...(browser?.connection.stats ?? {}),
        };
        process.stderr.write(`HEAP_REPORT ${JSON.stringify(report)}\n`);
      })();
    });
  }
  // A write to a closed stdout (client gone) must end us, not crash with EPIPE.
  process.stdout.on('error', () => shutdown('stdout closed'));
  await instance.server.connect(new StdioServerTransport());
}
