import {liveCounts} from '../util/liveObjects.js';
import {debug, warn} from '../util/logger.js';
import type {ServerCore} from './core.js';

/** Backstop: exit even if closing hangs. */
const SHUTDOWN_DEADLINE_MS = 5_000;

/**
 * Makes the process, and any Chrome it launched, go away on SIGTERM, SIGINT
 * or SIGHUP, on an uncaught exception (never leave Chrome behind, even on a
 * bug of ours), and on whatever else calls the returned shutdown.
 */
export function exitWith(close: () => Promise<void>): (reason: string) => void {
  let shuttingDown = false;
  const shutdown = (reason: string) => {
    if (shuttingDown) {
      return;
    }
    shuttingDown = true;
    debug(`shutting down: ${reason}`);
    setTimeout(() => process.exit(0), SHUTDOWN_DEADLINE_MS).unref();
    close()
      .catch(error => debug('shutdown error', error))
      .finally(() => process.exit(0));
  };
  process.on('uncaughtException', error => {
    warn('uncaught exception:', error);
    shutdown('uncaught exception');
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => shutdown(signal));
  }
  return shutdown;
}

/**
 * Leak checks (scripts/soak, the session leak test): with CDP_MCP_HEAP_REPORT=1,
 * SIGUSR2 collects garbage (needs --expose-gc) and reports heap, sessions and
 * CDP bookkeeping on stderr as one `HEAP_REPORT {json}` line.
 */
export function reportHeapOnSignal(core: ServerCore): void {
  if (process.env['CDP_MCP_HEAP_REPORT'] !== '1') {
    return;
  }
  process.on('SIGUSR2', () => {
    void (async () => {
      const browser = core.browsers.current;
      const targets = await browser?.connection.send('Target.getTargets').catch(() => undefined);
      const contexts = await browser?.connection.send('Target.getBrowserContexts').catch(() => undefined);
      const gc = (globalThis as {gc?: () => void}).gc;
      gc?.();
      gc?.();
      // Finalizers of what the collection took run in later tasks: let them.
      for (let i = 0; i < 3; i++) {
        await new Promise(resolve => setImmediate(resolve));
      }
      const memory = process.memoryUsage();
      const report = {
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        external: memory.external,
        arrayBuffers: memory.arrayBuffers,
        rss: memory.rss,
        mcpSessions: core.sessions.size,
        pages: browser?.pages().length ?? 0,
        targets: targets?.targetInfos.length ?? 0,
        contexts: contexts?.browserContextIds.length ?? 0,
        ...(browser?.connection.stats ?? {}),
        live: liveCounts(),
      };
      process.stderr.write(`HEAP_REPORT ${JSON.stringify(report)}\n`);
    })();
  });
}
