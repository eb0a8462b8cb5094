import {type ChildProcess, spawn} from 'node:child_process';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import {CALL_TIMEOUT_MS, type CallResult, checkBundle, SERVER_BIN, TEST_FLAGS} from './mcpClient.js';

/** A server process serving MCP over HTTP (--port 0), for tests. */
export interface HttpTestServer {
  url: string;
  /** The token the server printed (or was given). */
  token: string;
  process: ChildProcess;
  stderr: () => string;
  /** A new MCP session (initialize over HTTP with the token, unless `token` overrides it). */
  connect(options?: {token?: string; headers?: Record<string, string>}): Promise<HttpSession>;
  /** Waits for the next `HEAP_REPORT` line after sending SIGUSR2 (needs CDP_MCP_HEAP_REPORT=1). */
  heapReport(): Promise<HeapReport>;
  close(): Promise<void>;
}

export interface HeapReport {
  heapUsed: number;
  rss: number;
  /** MCP sessions open. */
  mcpSessions: number;
  pages: number;
  targets: number;
  contexts: number;
  /** CDP sessions, commands awaiting an answer and event listeners (when the browser is up). */
  sessions?: number;
  pending?: number;
  listeners?: number;
  /** Objects of each tracked kind (mcpSession, browserScope, page) the garbage collector has not taken yet. */
  live?: Record<string, number>;
}

export interface HttpSession {
  client: Client;
  transport: StreamableHTTPClientTransport;
  sessionId: string | undefined;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export function resultOf(result: object): CallResult {
  const {content: rawContent, isError} = result as {content?: unknown; isError?: unknown};
  const content = (rawContent ?? []) as Array<{type: string; text?: string; data?: string; mimeType?: string}>;
  return {
    text: content
      .filter(c => c.type === 'text')
      .map(c => c.text ?? '')
      .join('\n'),
    images: content.filter(c => c.type === 'image').map(c => ({data: c.data ?? '', mimeType: c.mimeType ?? ''})),
    isError: isError === true,
  };
}

/** Spawns the built server with `--port 0` (plus TEST_FLAGS and `args`) and waits for its address. */
export async function startHttpServer(
  options: {args?: string[]; env?: Record<string, string>; nodeArgs?: string[]} = {},
): Promise<HttpTestServer> {
  checkBundle();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), SERVER_BIN, ...TEST_FLAGS, '--port', '0', ...(options.args ?? [])],
    {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, ...options.env}},
  );
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of listeners) {
      listener();
    }
  });
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  const waitFor = <T>(match: (text: string) => T | undefined, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = match(stderr);
        if (found !== undefined) {
          listeners.delete(check);
          resolve(found);
        }
      };
      listeners.add(check);
      void exited.then(() => reject(new Error(`server exited before ${what}:\n${stderr}`)));
      check();
    });
  const url = await waitFor(text => /serving MCP at (\S+)/.exec(text)?.[1], 'listening');
  const given = options.env?.['CDP_MCP_AUTH_TOKEN'] ?? tokenArg(options.args ?? []);
  const token = given ?? (await waitFor(text => /auth token \(.*\): (\S+)/.exec(text)?.[1], 'printing its token'));
  let reports = 0;
  return {
    url,
    token,
    process: child,
    stderr: () => stderr,
    async connect(connectOptions = {}) {
      return connectSession(url, connectOptions.token ?? token, connectOptions.headers);
    },
    async heapReport() {
      const index = reports++;
      child.kill('SIGUSR2');
      return waitFor(text => {
        const lines = [...text.matchAll(/HEAP_REPORT (\{.*\})/g)];
        const line = lines[index]?.[1];
        return line ? (JSON.parse(line) as HeapReport) : undefined;
      }, 'a heap report');
    },
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}

function tokenArg(args: string[]): string | undefined {
  const index = args.indexOf('--authToken');
  return index >= 0 ? args[index + 1] : undefined;
}

/** Opens one MCP session against `url` with the SDK's Streamable HTTP client transport. */
export async function connectSession(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<HttpSession> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: {headers: {Authorization: `Bearer ${token}`, ...headers}},
  });
  const client = new Client({name: 'cdp-mcp-http-tests', version: '1.0.0'});
  await client.connect(transport);
  return {
    client,
    transport,
    get sessionId() {
      return transport.sessionId;
    },
    async call(name, args = {}) {
      return resultOf(await client.callTool({name, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS}));
    },
    async close() {
      // DELETE ends the session on the server (its context closes), then the client goes.
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
