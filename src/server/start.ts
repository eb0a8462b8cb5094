import type {Config} from '../config/options.js';
import {ServerCore} from './core.js';
import {daemonDir, publishDaemon} from './daemon.js';
import type {HttpServerHandle} from './http.js';
import {exitWith, reportHeapOnSignal} from './lifecycle.js';
import {type CdpMcpServer, createSingleClientServer} from './singleClient.js';
import {serveStdio} from './stdio.js';
import {StdioTransport} from './stdioTransport.js';

/** A running server, whichever transport it serves. */
export interface RunningServer {
  transport: 'stdio' | 'http';
  /** The HTTP endpoint and its token (HTTP only). */
  http?: Pick<HttpServerHandle, 'url' | 'port' | 'token'>;
  core: ServerCore;
  /** Ends every session, kills a Chrome we launched (never one we attached to), stops serving. */
  close(): Promise<void>;
}

/**
 * Starts the server on the transport the configuration asks for: Streamable
 * HTTP with --port, else stdio. With `exitOnSignal` (the CLI), the process
 * exits on SIGTERM/SIGINT/SIGHUP (and, on stdio, when the client goes).
 */
export async function startTransport(config: Config, options: {exitOnSignal: boolean}): Promise<RunningServer> {
  if (config.port === undefined) {
    const instance: CdpMcpServer = createSingleClientServer(config);
    if (options.exitOnSignal) {
      await serveStdio(instance);
    } else {
      await instance.server.connect(new StdioTransport());
    }
    return {transport: 'stdio', core: instance.core, close: () => instance.close()};
  }
  const core = new ServerCore(config);
  const serving: {http?: HttpServerHandle; release?: () => void} = {};
  const close = async () => {
    await serving.http?.close();
    await core.close();
    serving.release?.();
  };
  if (options.exitOnSignal) {
    // Before listening: a signal may come as soon as the address is printed.
    exitWith(close);
    reportHeapOnSignal(core);
  }
  // Loaded only for HTTP: stdio never pays for the HTTP transport's modules.
  const {serveHttp} = await import('./http.js');
  const http = await serveHttp(core, {
    port: config.port,
    host: config.host,
    authToken: config.authToken,
    allowedOrigins: config.allowedOrigins,
    allowedHosts: config.allowedHosts,
    maxSessions: config.maxSessions,
    sessionIdleTimeoutMs: config.sessionIdleTimeout * 1000,
    announce: options.exitOnSignal,
  }).catch(async (error: unknown) => {
    await core.close();
    throw error;
  });
  serving.http = http;
  const dir = options.exitOnSignal ? daemonDir() : undefined;
  if (dir !== undefined) {
    serving.release = await publishDaemon(dir, http).catch(async (error: unknown) => {
      await close();
      throw error;
    });
  }
  return {transport: 'http', http: {url: http.url, port: http.port, token: http.token}, core, close};
}
