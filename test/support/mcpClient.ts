import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

/** The Chromium tests drive: CHROME_PATH, else Debian's. */
export const CHROME_PATH = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';

/**
 * The server the end-to-end tests spawn: the packed bundle's bin, what users
 * run (and about half the start-up CPU of the compiled tree, which counts
 * over the suite's 250 or so servers). scripts/run-tests.mjs bundles before
 * any file runs.
 */
export const SERVER_BIN = fileURLToPath(new URL('../../../dist/cdp-mcp.js', import.meta.url));
/** What the bundle's heap and trace analysis processes run (findProcesses). */
export const HEAP_HOST = 'dist/heap-host.js';
export const TRACE_HOST = 'dist/trace-host.js';
/** The compiled tree's bin, for tests about which modules a start loads (the bundle has chunks, not modules). */
export const BUILD_SERVER_BIN = fileURLToPath(new URL('../../src/bin/cdp-mcp.js', import.meta.url));

/**
 * Throws when the bundle is missing or older than the compiled tree (a
 * build since the last bundle): a test would otherwise drive yesterday's server.
 */
export function checkBundle(): void {
  let bundled: number;
  try {
    bundled = statSync(SERVER_BIN).mtimeMs;
  } catch {
    throw new Error(
      `${SERVER_BIN} is missing: run the tests with scripts/run-tests.mjs, or node scripts/bundle.mjs first.`,
    );
  }
  if (statSync(BUILD_SERVER_BIN).mtimeMs > bundled) {
    throw new Error(
      `${SERVER_BIN} is older than the build (${BUILD_SERVER_BIN}): run the tests with scripts/run-tests.mjs, or node scripts/bundle.mjs first.`,
    );
  }
}

/** Flags every test server gets: headless, throwaway profile, no network noise. */
export const TEST_FLAGS = [
  '--headless',
  '--isolated',
  '--executablePath',
  CHROME_PATH,
  '--chromeArg=--disable-gpu',
  '--chromeArg=--no-sandbox',
];

/**
 * Bound of one tool call in tests: the longest a tool may legitimately take on
 * a heavily loaded 2-core machine (an app install, a Lighthouse audit), so
 * that a call that hangs still fails, and names itself.
 */
export const CALL_TIMEOUT_MS = 150_000;

export interface CallResult {
  text: string;
  images: Array<{data: string; mimeType: string}>;
  isError: boolean;
}

export interface TestServer {
  client: Client;
  transport: StdioClientTransport;
  /** Server process id. */
  pid: number | null;
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra server flags (after TEST_FLAGS unless `replaceFlags`). */
  args?: string[];
  replaceFlags?: boolean;
  /** Roots the client advertises (file:// URIs); omitted = no roots capability. */
  roots?: string[];
  env?: Record<string, string>;
  /** Node.js flags for the server process, e.g. --expose-gc. */
  nodeArgs?: string[];
  /** Another MCP server's entry script (side-by-side comparisons). */
  bin?: string;
  /** Called with the client before it connects (to handle notifications from the first one on). */
  setup?: (client: Client) => void;
}

/** Opens `url` in a new page with new_page and gives the page's id (from the page list it answers). */
export async function openPage(mcp: Pick<TestServer, 'call'>, url: string): Promise<number> {
  const opened = await mcp.call('new_page', {url});
  const line = opened.text.split('\n').find(l => l.includes(`${url})`) || l.includes(`${url} `));
  const id = line && /^(\d+): /.exec(line)?.[1];
  if (!id) {
    throw new Error(`new_page did not open ${url}: ${opened.text}`);
  }
  return Number(id);
}

/** Spawns the built server over real stdio with the SDK client. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`Chromium not found at ${CHROME_PATH}. Install it (apt-get install chromium) or set CHROME_PATH.`);
  }
  if (!options.bin) {
    checkBundle();
  }
  const args = [
    ...(options.nodeArgs ?? []),
    options.bin ?? SERVER_BIN,
    ...(options.replaceFlags ? [] : TEST_FLAGS),
    ...(options.args ?? []),
  ];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'pipe',
    env: {...(process.env as Record<string, string>), ...options.env},
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(
    {name: 'cdp-mcp-tests', version: '1.0.0'},
    {capabilities: options.roots ? {roots: {listChanged: true}} : {}},
  );
  if (options.roots) {
    const {ListRootsRequestSchema} = await import('@modelcontextprotocol/sdk/types.js');
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({roots: roots.map(uri => ({uri}))}));
  }
  options.setup?.(client);
  await client.connect(transport);
  return {
    client,
    transport,
    pid: transport.pid,
    stderr: () => stderr,
    async call(name, args = {}) {
      const result = await client.callTool({name, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS});
      const content = result.content as Array<{type: string; text?: string; data?: string; mimeType?: string}>;
      return {
        text: content
          .filter(c => c.type === 'text')
          .map(c => c.text ?? '')
          .join('\n'),
        images: content.filter(c => c.type === 'image').map(c => ({data: c.data ?? '', mimeType: c.mimeType ?? ''})),
        isError: result.isError === true,
      };
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * Pids of live processes whose command line contains `needle` (Linux /proc).
 * Read synchronously, and the state only of those that match: tests poll
 * this while they wait for a process to go, and the asynchronous reads of
 * two files per process cost about 40 ms of CPU per look with a hundred
 * processes (most of a core at a look every 50 ms), where these cost a few.
 * With `parent`, only that process's children: other test files run beside
 * this one and start processes of the same name.
 */
export async function findProcesses(needle: string, parent?: number | null): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.includes(needle)) {
        continue;
      }
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command's name: state, then the parent's pid.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && (parent === undefined || Number(ppid) === parent)) {
        pids.push(Number(entry));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** The Chrome profile dirs our launcher creates start with this. */
export {PROFILE_PREFIX} from '../../src/cdp/profile.js';
