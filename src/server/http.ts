import {randomUUID} from 'node:crypto';
import {createServer as createHttpServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {isInitializeRequest} from '@modelcontextprotocol/sdk/types.js';

import {debug, warn} from '../util/logger.js';
import type {ServerCore} from './core.js';
import {BoundedEventStore} from './eventStore.js';
import {
  allowedHostnames,
  allowedOrigins,
  AUTH_TOKEN_ENV,
  generateToken,
  hasToken,
  isLoopbackHost,
  requestHostname,
} from './httpAccess.js';
import type {McpSession} from './session.js';

export const MCP_PATH = '/mcp';
/** Default cap of a request body: tool arguments are small; scripts and fill_form values fit easily. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
/** How often idle sessions are looked for, at most (a short idle timeout checks more often). */
const IDLE_SWEEP_MS = 30_000;

export interface HttpOptions {
  port: number;
  host: string;
  /** The bearer token; undefined: generate one (only allowed on loopback) and print it once on stderr. */
  authToken?: string;
  /** Origins besides the server's own that browser pages may call from. */
  allowedOrigins: string[];
  /** Host header names besides the listening address (and the loopback names on loopback). */
  allowedHosts?: string[];
  maxSessions: number;
  /** A session with no request for this long is closed, with its pages and context. */
  sessionIdleTimeoutMs: number;
  maxRequestBodyBytes?: number;
  /** Print the address (and a generated token) on stderr: the CLI does; a library caller gets them returned. */
  announce?: boolean;
}

export interface HttpServerHandle {
  /** The MCP endpoint, e.g. http://127.0.0.1:8931/mcp. */
  url: string;
  port: number;
  token: string;
  /** Ends every session, stops listening; the browser is the core's to close. */
  close(): Promise<void>;
}

interface Entry {
  session: McpSession;
  transport: StreamableHTTPServerTransport;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * MCP Streamable HTTP at /mcp (the SDK's transport: session header, resumable
 * SSE with an event store, DELETE ends a session), one MCP session per client
 * with its own browser context, behind a bearer token and an Origin check,
 * with limits on sessions, idle time and body size. Over a limit, the
 * request gets a clear HTTP error and nothing else is disturbed.
 */
export class McpHttpHandler {
  readonly #sessions = new Map<string, Entry>();
  /** Sessions being initialized (counted against maxSessions). */
  #opening = 0;
  readonly #origins: Set<string>;
  /** Host names requests may carry; undefined: any (a wildcard address with none given). */
  readonly #hosts: Set<string> | undefined;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    readonly core: ServerCore,
    readonly options: HttpOptions & {token: string; port: number},
  ) {
    this.#origins = allowedOrigins(options.host, options.port, options.allowedOrigins);
    this.#hosts = allowedHostnames(options.host, options.allowedHosts ?? []);
    const every = Math.max(50, Math.min(IDLE_SWEEP_MS, options.sessionIdleTimeoutMs / 4));
    this.#sweeper = setInterval(() => this.#closeIdle(), every);
    this.#sweeper.unref();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Handles one HTTP request; never throws. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.#route(req, res);
    } catch (error) {
      if (error instanceof HttpError) {
        reply(res, error.status, error.message, error.headers);
      } else {
        warn('HTTP request failed:', error);
        reply(res, 500, 'Internal server error.');
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#sessions.values()].map(e => e.session.close()));
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const hostname = requestHostname(req.headers.host);
    if (this.#hosts && (hostname === undefined || !this.#hosts.has(hostname))) {
      throw new HttpError(
        403,
        `Host "${req.headers.host ?? ''}" is not a name this server answers to (DNS rebinding protection). If you reach it by that name, restart it with --allowedHost ${hostname ?? '<hostname>'}.`,
      );
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== MCP_PATH) {
      throw new HttpError(404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.#origins.has(origin)) {
      throw new HttpError(
        403,
        `Origin ${origin} is not allowed. Browser pages may call this server only from its own origin or one given with --allowedOrigin.`,
      );
    }
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id');
    }
    if (req.method === 'OPTIONS') {
      // CORS preflight from an allowed origin (it carries no credentials).
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers':
          'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id',
      });
      res.end();
      return;
    }
    if (!hasToken(req, this.options.token)) {
      throw unauthorized(req.headers.authorization !== undefined);
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      throw new HttpError(405, `Method ${req.method} is not allowed on ${MCP_PATH}.`, {Allow: 'GET, POST, DELETE'});
    }
    const body = req.method === 'POST' ? await readJsonBody(req, this.options.maxRequestBodyBytes) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = this.#sessions.get(sessionId);
      if (!entry) {
        throw new HttpError(404, 'Session not found: it ended or expired. Start a new session (initialize).');
      }
      entry.session.touch();
      await entry.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      throw new HttpError(400, 'No mcp-session-id header: start a session with an initialize request first.');
    }
    await this.#initialize(req, res, body);
  }

  async #initialize(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const {maxSessions} = this.options;
    if (this.#sessions.size + this.#opening >= maxSessions) {
      await this.#evictIdlest();
    }
    if (this.#sessions.size + this.#opening >= maxSessions) {
      throw new HttpError(
        503,
        `Too many sessions: ${maxSessions} are open (--maxSessions) and every one is running a call. End one (DELETE ${MCP_PATH}) or retry when a call ends.`,
        {'Retry-After': '10'},
      );
    }
    this.#opening++;
    let session: McpSession | undefined;
    try {
      const {config} = this.core;
      session = this.core.openSession({
        defaultContext: config.sharedContext,
        // The CLI's background server serves one user's shell; any other HTTP server, many clients.
        files: config.viaCli ? 'shared' : 'private',
      });
      const opened = session;
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new BoundedEventStore(),
        onsessioninitialized: id => {
          this.#sessions.set(id, {session: opened, transport});
          debug(`HTTP session ${id} opened (${this.#sessions.size} open)`);
        },
        // DELETE: answered once the session's contexts and pages are gone.
        onsessionclosed: () => opened.close(),
      });
      opened.onClose(() => {
        if (transport.sessionId && this.#sessions.get(transport.sessionId)?.session === opened) {
          this.#sessions.delete(transport.sessionId);
          debug(`HTTP session ${transport.sessionId} closed (${this.#sessions.size} open)`);
        }
      });
      await opened.connect(transport);
      await transport.handleRequest(req, res, body);
      if (!transport.sessionId) {
        await opened.close();
      }
    } catch (error) {
      await session?.close();
      throw error;
    } finally {
      this.#opening--;
    }
  }

  /**
   * Full: the session idle longest (no call running) makes room, as clients
   * that never send DELETE would otherwise hold the slots until they expire.
   */
  async #evictIdlest(): Promise<void> {
    let idlest: [string, McpSession] | undefined;
    for (const [id, {session}] of this.#sessions) {
      const since = session.idleSince;
      if (since !== undefined && (idlest === undefined || since < (idlest[1].idleSince ?? Infinity))) {
        idlest = [id, session];
      }
    }
    if (idlest) {
      warn(
        `HTTP session ${idlest[0]} closed to make room (--maxSessions ${this.options.maxSessions}): it was idle longest.`,
      );
      await idlest[1].close();
    }
  }

  #closeIdle(): void {
    const now = Date.now();
    for (const [id, {session}] of this.#sessions) {
      const since = session.idleSince;
      if (since !== undefined && now - since >= this.options.sessionIdleTimeoutMs) {
        debug(`HTTP session ${id} idle for ${now - since} ms: closing it`);
        void session.close();
      }
    }
  }
}

/** Listens on host:port and serves MCP at /mcp until closed. */
export async function serveHttp(core: ServerCore, options: HttpOptions): Promise<HttpServerHandle> {
  const explicitToken = options.authToken ?? process.env[AUTH_TOKEN_ENV];
  if (!isLoopbackHost(options.host) && !explicitToken) {
    throw new Error(
      `Refusing to listen on ${options.host} without an explicit token: anyone who can reach the port could drive the browser. Pass --authToken <token> or set ${AUTH_TOKEN_ENV}.`,
    );
  }
  if (explicitToken !== undefined && explicitToken.length < 16) {
    throw new Error('The auth token is too short: use at least 16 characters (e.g. openssl rand -hex 24).');
  }
  const token = explicitToken ?? generateToken();
  // The handler needs the port (for the server's own origin), known once listening.
  const ready: {handler?: McpHttpHandler} = {};
  const server = createHttpServer((req, res) => {
    if (ready.handler) {
      void ready.handler.handle(req, res);
    } else {
      reply(res, 503, 'Starting up.');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const {port} = server.address() as AddressInfo;
  const handler = new McpHttpHandler(core, {...options, token, port});
  ready.handler = handler;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${hostInUrl}:${port}${MCP_PATH}`;
  if (!explicitToken) {
    // Once, on stderr (never stdout): the operator hands it to their clients.
    process.stderr.write(
      `cdp-mcp: serving MCP at ${url}\ncdp-mcp: auth token (send "Authorization: Bearer <token>"): ${token}\n`,
    );
  } else {
    process.stderr.write(`cdp-mcp: serving MCP at ${url}\n`);
  }
  return {
    url,
    port,
    token,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}

/**
 * 401 as RFC 6750 says, so a client with a static token knows what went
 * wrong: no token, a bare challenge; a wrong one, `error="invalid_token"`.
 */
function unauthorized(tokenGiven: boolean): HttpError {
  const message = tokenGiven
    ? 'Wrong token: the Authorization header does not carry this server\'s token. Send "Authorization: Bearer <token>" with the token the server printed (or was given with --authToken).'
    : 'Missing token. Send the server token as "Authorization: Bearer <token>".';
  const challenge = tokenGiven
    ? 'Bearer realm="cdp-mcp", error="invalid_token", error_description="The token is wrong."'
    : 'Bearer realm="cdp-mcp"';
  return new HttpError(401, message, {'WWW-Authenticate': challenge});
}

/** Reads and parses a JSON body, refusing one over the cap (413) or malformed (400). */
function readJsonBody(req: IncomingMessage, maxBytes = MAX_REQUEST_BODY_BYTES): Promise<unknown> {
  const tooLarge = new HttpError(
    413,
    `Request body over ${maxBytes} bytes. Send smaller arguments (large data belongs in files).`,
  );
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
      req.resume(); // Drain it so the connection stays usable for the answer.
      reject(tooLarge);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
      } else if (chunks.length) {
        chunks.length = 0;
        reject(tooLarge);
      }
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > maxBytes) {
        reject(tooLarge);
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(new HttpError(400, 'The request body is not valid JSON.'));
      }
    });
  });
}

/** A JSON-RPC error body, as MCP clients expect from this endpoint. */
function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {'content-type': 'application/json', ...headers});
  res.end(JSON.stringify({jsonrpc: '2.0', error: {code: status === 404 ? -32001 : -32000, message}, id: null}));
}
