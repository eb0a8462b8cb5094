/**
 * Library entry: embed the server in another program, or start it on stdio.
 */
import type {Config} from './cli/options.js';
import {type RunningServer, startTransport} from './server/start.js';

export {type Config, DEFAULT_CONFIG, parseConfig} from './cli/options.js';
export {type CdpMcpServer, createServer} from './server/createServer.js';

/** Starts the server with every tool on stdio, or on HTTP with `config.port`. */
export async function startServer(config: Config): Promise<RunningServer> {
  return startTransport(config, {exitOnSignal: true});
}
