/**
 * Library entry: embed the server in another program, or start it on stdio.
 */
import type {Config} from './cli/options.js';
import {type CdpMcpServer, createServer} from './server/createServer.js';
import {serveStdio} from './server/stdio.js';

export {type Config, DEFAULT_CONFIG, parseConfig} from './cli/options.js';
export {type CdpMcpServer, createServer} from './server/createServer.js';

/** Creates the server with every tool and serves it on stdin/stdout. */
export async function startServer(config: Config): Promise<CdpMcpServer> {
  const instance = createServer(config);
  await serveStdio(instance);
  return instance;
}
