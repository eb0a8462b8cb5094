import type {Server} from '@modelcontextprotocol/sdk/server/index.js';

import type {BrowserManager} from '../browser/core/BrowserManager.js';
import type {Config} from '../config/options.js';
import {ServerCore} from './core.js';
import type {Pipeline} from './pipeline.js';
import type {McpSession} from './session.js';

export interface CdpMcpServer {
  /** The MCP server of the one session (connect it to any MCP transport). */
  server: Server;
  session: McpSession;
  core: ServerCore;
  pipeline: Pipeline;
  browsers: BrowserManager;
  /** Kills a launched Chrome and closes the connection. */
  close(): Promise<void>;
}

/** A server for one client (stdio, or any transport an embedder brings): the browser's default context. */
export function createSingleClientServer(config: Config): CdpMcpServer {
  const core = new ServerCore(config);
  const session = core.openSession({defaultContext: true});
  return {
    server: session.server,
    session,
    core,
    pipeline: core.pipeline,
    browsers: core.browsers,
    close: () => core.close(),
  };
}
