import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';

import {exitWith, reportHeapOnSignal} from './lifecycle.js';
import type {CdpMcpServer} from './singleClient.js';

/**
 * Serves over stdio and makes sure the process, and any Chrome it launched,
 * goes away when the client does: stdin end/close, SIGTERM, SIGINT or SIGHUP.
 */
export async function serveStdio(instance: CdpMcpServer): Promise<void> {
  const shutdown = exitWith(() => instance.close());
  process.stdin.on('end', () => shutdown('stdin ended'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  reportHeapOnSignal(instance.core);
  // A write to a closed stdout (client gone) must end us, not crash with EPIPE.
  process.stdout.on('error', () => shutdown('stdout closed'));
  await instance.server.connect(new StdioServerTransport());
}
