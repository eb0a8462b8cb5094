import {exitWith, reportHeapOnSignal} from './lifecycle.js';
import type {CdpMcpServer} from './singleClient.js';
import {StdioTransport} from './stdioTransport.js';

/**
 * Serves over stdio and makes sure the process, and any Chrome it launched,
 * goes away when the client does: stdin end/close/error (the transport closes
 * then, and only then), SIGTERM, SIGINT or SIGHUP. Nothing a client sends
 * closes the transport: the server never lives on without one.
 */
export async function serveStdio(instance: CdpMcpServer): Promise<void> {
  const shutdown = exitWith(() => instance.close());
  reportHeapOnSignal(instance.core);
  // A write to a closed stdout (client gone) must end us, not crash with EPIPE.
  process.stdout.on('error', () => shutdown('stdout closed'));
  const transport = new StdioTransport();
  // Set before connect: the server chains its own close handling after it.
  transport.onclose = () => shutdown('stdin closed');
  await instance.server.connect(transport);
}
