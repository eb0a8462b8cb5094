import {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';

import {BrowserManager} from '../browser/BrowserManager.js';
import type {Config} from '../cli/options.js';
import {HeapSnapshots} from '../devtools/heap/HeapSnapshots.js';
import {createTools} from '../tools/registry.js';
import {deferred, withTimeout} from '../util/async.js';
import {debug, warn} from '../util/logger.js';
import {NO_PROGRESS, type ProgressReporter} from '../util/progress.js';
import {PathSandbox} from '../util/sandbox.js';
import {Pipeline} from './pipeline.js';

export const SERVER_NAME = 'cdp-mcp';
export const SERVER_VERSION = '0.1.0';
/** Bound of the roots/list request we make while holding the serial lock. */
const ROOTS_TIMEOUT_MS = 5_000;
const MB = 1024 * 1024;

export interface CdpMcpServer {
  server: Server;
  pipeline: Pipeline;
  browsers: BrowserManager;
  /** Kills a launched Chrome and closes the connection. */
  close(): Promise<void>;
}

/**
 * Progress notifications for one call, when the client sent a progressToken:
 * one per reported step, numbered (MCP wants progress to increase), never
 * blocking or failing the call.
 */
function progressReporter(
  token: string | number | undefined,
  send: (notification: ServerNotification) => Promise<void>,
): ProgressReporter {
  if (token === undefined) {
    return NO_PROGRESS;
  }
  let step = 0;
  return message => {
    step++;
    send({method: 'notifications/progress', params: {progressToken: token, progress: step, message}}).catch(
      (error: unknown) => debug('progress notification failed', error),
    );
  };
}

/** Builds the MCP server (low-level Server: our schemas are valibot, not zod). */
export function createServer(config: Config): CdpMcpServer {
  const server = new Server(
    {name: SERVER_NAME, version: SERVER_VERSION},
    {capabilities: {tools: {}}, instructions: 'Drive a real Chrome: navigate, inspect, click, type, debug.'},
  );
  const files = new PathSandbox(config.allowUnrestrictedPaths, config.filesystemRoots);
  const browsers = new BrowserManager(config, dir => files.validate(dir));
  const heap = new HeapSnapshots({
    memoryLimitBytes: config.heapSnapshotMemoryLimit && config.heapSnapshotMemoryLimit * MB,
  });
  const roots = deferred<void>();

  const refreshRoots = async () => {
    try {
      const result = await server.listRoots(undefined, {timeout: ROOTS_TIMEOUT_MS});
      files.setRoots(result.roots.map(r => r.uri));
    } catch (error) {
      debug('roots/list failed', error);
    } finally {
      roots.resolve();
    }
  };
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) {
      void refreshRoots();
    } else {
      roots.resolve();
      if (!config.allowUnrestrictedPaths) {
        debug('The client has no roots: file outputs are limited to the OS temp dir.');
      }
    }
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    void refreshRoots();
  });

  const pipeline = new Pipeline({
    tools: createTools(config),
    config,
    browsers,
    files,
    heap,
    rootsReady: () => withTimeout(roots.promise, ROOTS_TIMEOUT_MS, 'roots').catch(() => undefined),
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: pipeline.listed().map(({tool, inputSchema, outputSchema}) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputSchema as {type: 'object'; properties?: Record<string, object>},
      // Declared only when results carry structured content: clients check results against it.
      ...(config.experimentalStructuredContent
        ? {outputSchema: outputSchema as {type: 'object'; properties?: Record<string, object>}}
        : {}),
      annotations: {title: tool.name, readOnlyHint: tool.annotations.readOnlyHint},
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const result = await pipeline.call(
      request.params.name,
      request.params.arguments,
      progressReporter(request.params._meta?.progressToken, extra.sendNotification),
    );
    return {
      content: [
        {type: 'text', text: result.text},
        ...result.images.map(image => ({type: 'image' as const, data: image.data, mimeType: image.mimeType})),
      ],
      ...(config.experimentalStructuredContent ? {structuredContent: result.structured} : {}),
      ...(result.isError ? {isError: true} : {}),
    };
  });

  server.onerror = error => warn('MCP error:', error.message);

  return {
    server,
    pipeline,
    browsers,
    async close() {
      await heap.dispose();
      await browsers.shutdown();
      await server.close().catch(() => undefined);
    },
  };
}
