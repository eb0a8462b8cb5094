import {Server} from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import type {BrowserManager} from '../browser/core/BrowserManager.js';
import type {BrowserScope} from '../browser/core/BrowserScope.js';
import type {Config} from '../config/options.js';
import {heapOptions, HeapSnapshots} from '../devtools/heap/HeapSnapshots.js';
import {toolHints} from '../tools/registry.js';
import {deferred, withTimeout} from '../util/async.js';
import {trackLive} from '../util/liveObjects.js';
import {debug, warnLocally} from '../util/logger.js';
import {PathSandbox} from '../util/sandbox.js';
import {SERVER_NAME, SERVER_VERSION} from '../util/version.js';
import {ClientLog} from './clientLog.js';
import {type FilePolicy, sandboxOptions} from './filePolicy.js';
import type {CallSession, Pipeline} from './pipeline.js';
import {callProgress} from './progress.js';
import {ScopeHolder} from './scopeHolder.js';

export {SERVER_NAME, SERVER_VERSION} from '../util/version.js';
/**
 * How long a call waits for the client's roots (asked on that call's own
 * stream, which an HTTP client can answer on) before it goes on with the
 * roots it has. An answer that comes later still counts for later calls.
 */
export const ROOTS_WAIT_MS = 2_000;
/** Bound of one roots/list request. */
const ROOTS_REQUEST_MS = 30_000;
/** How long a closing session waits for its cancelled calls to unwind. */
const CLOSE_CALLS_MS = 2_000;

let nextSessionId = 1;

/**
 * The SDK validates elicitation answers with Ajv by default. We never ask the
 * client anything, so this stands in (and the bundle leaves Ajv out).
 */
const NO_ELICITATION = {
  getValidator: () => () => ({valid: false as const, data: undefined, errorMessage: 'This server does not elicit.'}),
};

/** What sessions share: the server's configuration, browser and pipeline. */
export interface SessionHost {
  readonly config: Config;
  readonly browsers: BrowserManager;
  readonly pipeline: Pipeline;
}

/**
 * One MCP session (the stdio client, or one HTTP session): an SDK Server of
 * its own (low-level Server: our schemas are valibot, not zod), the client's
 * roots and the file sandbox they define, and its view of the browser: its own
 * browser context unless it works in the default one.
 */
export class McpSession implements CallSession {
  readonly id = nextSessionId++;
  readonly server: Server;
  readonly files: PathSandbox;
  /** The heap snapshots this session took and loaded (its own heap host, started on first use). */
  readonly heap: HeapSnapshots;
  readonly #holder: ScopeHolder;
  readonly #log: ClientLog;
  /** The client has roots we have not (or not since they changed) been told. */
  #rootsStale = false;
  /** A roots/list request in flight. */
  #askingRoots: Promise<void> | undefined;
  /** A call already stopped waiting for that request: later calls do not wait for it. */
  #rootsWaitedOut = false;
  /** The transport can carry a request at any time (stdio), not only on a call's stream (HTTP). */
  #duplex = true;
  #inFlight = 0;
  #idle = deferred<void>();
  #lastActive = Date.now();
  #closed = false;
  readonly #closeListeners = new Set<() => void>();

  constructor(
    readonly host: SessionHost,
    options: {defaultContext: boolean; files?: FilePolicy},
  ) {
    trackLive('mcpSession', this);
    const {config} = host;
    const policy = options.files ?? 'owner';
    // --filesystemRoot stands in for the roots of a client that has none, and bounds those it has.
    this.files = new PathSandbox(sandboxOptions(config, policy));
    this.heap = new HeapSnapshots(heapOptions(config));
    this.#holder = new ScopeHolder(host.browsers, {
      defaultContext: options.defaultContext,
      // The contexts of a private session download into its own folder.
      downloadsDir: policy === 'private' ? () => this.files.folder.sub('downloads') : undefined,
    });
    this.#idle.resolve();
    this.server = new Server(
      {name: SERVER_NAME, version: SERVER_VERSION},
      {
        capabilities: {tools: {}, logging: {}},
        instructions: 'Drive a real Chrome: navigate, inspect, click, type, debug.',
        jsonSchemaValidator: NO_ELICITATION,
      },
    );
    this.#log = new ClientLog(this.server);
    this.#handleRoots();
    this.#handleTools();
    this.server.onerror = error => warnLocally('MCP error:', error.message);
    this.server.onclose = () => void this.close();
  }

  /** No call running; the time of the last activity (idle timeout). */
  get idleSince(): number | undefined {
    return this.#inFlight === 0 ? this.#lastActive : undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The session's scope if the browser is up (never starts it). */
  get currentScope(): BrowserScope | undefined {
    return this.#holder.current;
  }

  /** Resolves once a roots/list in flight is answered, or ROOTS_WAIT_MS passed (once per request). */
  async rootsReady(): Promise<void> {
    const asking = this.#askingRoots;
    if (!asking || this.#rootsWaitedOut) {
      return;
    }
    await withTimeout(asking, ROOTS_WAIT_MS, 'roots').catch(() => {
      this.#rootsWaitedOut = true;
      debug(`the client did not answer roots/list within ${ROOTS_WAIT_MS} ms: going on with the roots we have`);
    });
  }

  scope(): Promise<BrowserScope> {
    return this.#holder.get();
  }

  takeNote(): string | undefined {
    return this.#holder.takeNote();
  }

  /** Serves the session over an MCP transport (any the SDK offers, or one that looks like them). */
  async connect(transport: object): Promise<void> {
    // Streamable HTTP carries a request to the client only on a stream the client holds open.
    this.#duplex = !('handleRequest' in transport);
    await this.server.connect(transport as Parameters<Server['connect']>[0]);
  }

  /** Told once when the session has closed (its transport went away, or close() was called). */
  onClose(listener: () => void): void {
    this.#closeListeners.add(listener);
  }

  /** Marks activity that is not a tool call (any request of the session's client). */
  touch(): void {
    this.#lastActive = Date.now();
  }

  /**
   * Ends the session: its running calls are cancelled (the SDK aborts their
   * signals), then its browser contexts and the pages it opened are closed.
   */
  async close(): Promise<void> {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    this.#log.stop();
    await this.server.close().catch((error: unknown) => debug('closing the MCP session failed', error));
    await withTimeout(this.#idle.promise, CLOSE_CALLS_MS, 'calls').catch(() => undefined);
    this.host.pipeline.scheduler.forget(this.id);
    await this.#holder.close().catch((error: unknown) => debug('closing the session scope failed', error));
    await this.heap.dispose().catch((error: unknown) => debug('stopping the heap host failed', error));
    await this.files.dispose();
    for (const listener of this.#closeListeners) {
      listener();
    }
    this.#closeListeners.clear();
  }

  /**
   * Roots are asked for when the client can answer: at the first call after
   * `initialized` or `roots/list_changed`, on that call's own stream (over
   * HTTP a request sent outside a call waits for a GET stream the client may
   * not have opened yet, and was lost). A stdio client is also asked at once
   * on `initialized`.
   */
  #handleRoots(): void {
    const {server} = this;
    server.oninitialized = () => {
      this.#log.start();
      if (!server.getClientCapabilities()?.roots) {
        debug('The client has no roots: file tools are limited to the operator roots and the session folder.');
        return;
      }
      this.#rootsStale = true;
      if (this.#duplex) {
        this.#askRoots(undefined);
      }
    };
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      this.#rootsStale = true;
      if (this.#duplex) {
        this.#askRoots(undefined);
      }
    });
  }

  /** Asks for the roots (on the stream of call `relatedRequestId`, if any) unless a request is in flight. */
  #askRoots(relatedRequestId: string | number | undefined): void {
    if (this.#askingRoots) {
      return;
    }
    this.#rootsStale = false;
    this.#rootsWaitedOut = false;
    this.#askingRoots = (async () => {
      try {
        const result = await this.server.listRoots(undefined, {timeout: ROOTS_REQUEST_MS, relatedRequestId});
        await this.files.setRoots(result.roots.map(r => r.uri));
      } catch (error) {
        debug('roots/list failed', error);
      } finally {
        this.#askingRoots = undefined;
      }
    })();
  }

  #handleTools(): void {
    const {pipeline} = this.host;
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: pipeline.listed().map(registered => ({
        name: registered.tool.name,
        title: registered.tool.title,
        description: registered.tool.description,
        inputSchema: registered.inputSchema as {type: 'object'; properties?: Record<string, object>},
        // Declared (and made: registered.outputSchema is made on first read) only when results
        // carry structured content: clients check results against it.
        ...(this.host.config.experimentalStructuredContent
          ? {outputSchema: registered.outputSchema as {type: 'object'; properties?: Record<string, object>}}
          : {}),
        // The top-level title is the display name (MCP 2025-06-18: title, then annotations.title): not sent twice.
        annotations: toolHints(registered.tool),
      })),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const progress = callProgress(request.params._meta?.progressToken, extra.sendNotification);
      this.#begin();
      try {
        if (this.#rootsStale) {
          this.#askRoots(extra.requestId);
        }
        await this.rootsReady();
        const result = await this.#log.during(extra.requestId, () =>
          pipeline.call(request.params.name, request.params.arguments, {
            progress: progress.report,
            signal: extra.signal,
            session: this,
          }),
        );
        return {
          content: [
            {type: 'text', text: result.text},
            ...result.images.flatMap(image => [
              ...(result.imageNote ? [{type: 'text' as const, text: result.imageNote}] : []),
              {type: 'image' as const, data: image.data, mimeType: image.mimeType},
            ]),
          ],
          ...(this.host.config.experimentalStructuredContent ? {structuredContent: result.structured} : {}),
          ...(result.isError ? {isError: true} : {}),
        };
      } finally {
        progress.end();
        this.#end();
      }
    });
  }

  #begin(): void {
    if (this.#inFlight++ === 0) {
      this.#idle = deferred<void>();
    }
  }

  #end(): void {
    this.#lastActive = Date.now();
    if (--this.#inFlight === 0) {
      this.#idle.resolve();
    }
  }
}
