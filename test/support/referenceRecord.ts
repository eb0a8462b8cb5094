/**
 * Recorded answers of the reference (chrome-devtools-mcp 1.11), per Chromium
 * version. Starting the reference and its Chrome, and driving it, is half of
 * every comparison's time; what it answers depends only on its version (pinned)
 * and Chromium's. So a comparison replays a record made once with the live
 * reference on this Chromium build:
 * `test/records/chromium-<version>/<name>.json`, committed.
 *
 * CDP_MCP_REFERENCE chooses: unset, the record when there is one, else the
 * live reference (and a note saying how to record); `live`, always the live
 * reference; `record`, the live reference, and its answers written as the
 * record (`npm run record-reference`, on a quiet machine, when Chromium or the
 * reference is upgraded or a comparison changes what it asks).
 *
 * A record holds every tools/list and tools/call answer in the order asked,
 * keyed by tool and arguments. Loopback ports of this process's fixture
 * servers are written as `<fixture0>`, `<fixture1>`, … (by the order the
 * servers started), both in the arguments and in the answers, and put back on
 * replay; so are folders whose name changes from run to run (aliasFolder). A replayed comparison that asks something the record does not hold
 * fails and says to record again: the record never answers for a question it
 * was not asked.
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import type {Client} from '@modelcontextprotocol/sdk/client/index.js';

import {startedPorts} from './fixtureServer.js';
import {CALL_TIMEOUT_MS, type CallResult, CHROME_PATH, type TestServer} from './mcpClient.js';

/** Where records live: the source tree (test/records), from build/test/support. */
const RECORDS_DIR = fileURLToPath(new URL('../../../test/records/', import.meta.url));

export type ReferenceMode = 'auto' | 'live' | 'record';

export function referenceMode(): ReferenceMode {
  const raw = process.env['CDP_MCP_REFERENCE'] ?? '';
  if (raw === '' || raw === 'auto') {
    return 'auto';
  }
  if (raw === 'live' || raw === 'record') {
    return raw;
  }
  throw new Error(`CDP_MCP_REFERENCE must be live, record or unset (the record when there is one), got "${raw}".`);
}

let version: string | undefined;

/** The version of the Chromium the tests drive (`chromium --version`), e.g. 156.0.8078.114. */
export function chromiumVersion(): string {
  if (version === undefined) {
    const out = execFileSync(CHROME_PATH, ['--version'], {encoding: 'utf8', timeout: 60_000, stdio: 'pipe'});
    const found = /\b(\d+\.\d+\.\d+\.\d+)\b/.exec(out)?.[1];
    if (!found) {
      throw new Error(`Could not read the Chromium version from "${CHROME_PATH} --version": ${out.trim()}`);
    }
    version = found;
  }
  return version;
}

export function recordPath(name: string, dir = RECORDS_DIR): string {
  return path.join(dir, `chromium-${chromiumVersion()}`, `${name}.json`);
}

/**
 * Where a recording run writes: scripts/run-tests.mjs gives each test file
 * its own folder (CDP_MCP_RECORD_OUT) and copies it into test/records only
 * when the whole file passed, so a failed comparison leaves no record behind.
 */
function recordOut(name: string): string {
  const out = process.env['CDP_MCP_RECORD_OUT'];
  return out ? recordPath(name, out) : recordPath(name);
}

interface RecordedCall {
  /** `tools/list`, or `tools/call <tool> <arguments as JSON>`, ports aliased. */
  key: string;
  /** The answer as the SDK client returned it, ports aliased. */
  result: unknown;
}

interface RecordFile {
  reference: string;
  chromium: string;
  /** The reference's extra flags (the record is only good for these). */
  flags: string[];
  calls: RecordedCall[];
}

const REFERENCE = 'chrome-devtools-mcp 1.11.0';
const LOOPBACK_PORT = /\b(127\.0\.0\.1|localhost|\[::1\]):(\d{2,5})\b/g;

/** Folders with a random name (a temporary folder), by their alias in records: aliasFolder. */
const folders = new Map<string, string>();

/**
 * Writes `folder` (one this process made, whose name changes from run to
 * run, e.g. a temporary folder of files to upload) as `<alias>` in records.
 */
export function aliasFolder(folder: string, alias: string): void {
  folders.set(folder, `<${alias}>`);
}

/** Fixture ports and aliased folders to their aliases and back. */
function aliasText(text: string): string {
  let out = text.replace(LOOPBACK_PORT, (whole, host: string, port: string) => {
    const index = startedPorts.indexOf(Number(port));
    return index < 0 ? whole : `${host}:<fixture${index}>`;
  });
  for (const [folder, alias] of folders) {
    out = out.replaceAll(folder, alias);
  }
  return out;
}

function unaliasText(text: string): string {
  let out = text.replace(/\b(127\.0\.0\.1|localhost|\[::1\]):<fixture(\d+)>/g, (whole, host: string, index: string) => {
    const port = startedPorts[Number(index)];
    return port === undefined ? whole : `${host}:${port}`;
  });
  for (const [folder, alias] of folders) {
    out = out.replaceAll(alias, folder);
  }
  return out;
}

/** JSON with object keys sorted, so equal arguments give equal keys. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

function callKey(name: string, args: Record<string, unknown> | undefined): string {
  return aliasText(`tools/call ${name} ${stableJson(args ?? {})}`);
}

/** The text, images and error flag of a tools/call answer (as TestServer.call gives them). */
export function callResultOf(result: unknown): CallResult {
  const {content, isError} = result as {
    content?: Array<{type: string; text?: string; data?: string; mimeType?: string}>;
    isError?: boolean;
  };
  const parts = content ?? [];
  return {
    text: parts
      .filter(c => c.type === 'text')
      .map(c => c.text ?? '')
      .join('\n'),
    images: parts.filter(c => c.type === 'image').map(c => ({data: c.data ?? '', mimeType: c.mimeType ?? ''})),
    isError: isError === true,
  };
}

/** A server whose answers come from a record: no process, no Chrome. */
function replayServer(name: string, file: string, record: RecordFile): TestServer {
  const queues = new Map<string, unknown[]>();
  for (const {key, result} of record.calls) {
    const queue = queues.get(key) ?? [];
    queue.push(result);
    queues.set(key, queue);
  }
  const answer = (key: string): unknown => {
    const queue = queues.get(key);
    if (!queue?.length) {
      throw new Error(
        `The reference record "${name}" (${path.relative(process.cwd(), file)}) has no ${queue ? 'further ' : ''}answer to ` +
          `${key.slice(0, 300)}: the comparison now asks something else. Record the reference again: npm run record-reference.`,
      );
    }
    const result = queue.shift();
    return JSON.parse(unaliasText(JSON.stringify(result))) as unknown;
  };
  const client = {
    callTool: async ({name: tool, arguments: args}: {name: string; arguments?: Record<string, unknown>}) =>
      answer(callKey(tool, args)),
    listTools: async () => answer('tools/list'),
    close: async () => undefined,
  } as unknown as Client;
  return {
    client,
    transport: undefined as unknown as TestServer['transport'],
    pid: null,
    stderr: () => '',
    async call(tool, args = {}) {
      return callResultOf(await client.callTool({name: tool, arguments: args}));
    },
    async close() {},
  };
}

/** Wraps a live reference server so that every answer is kept; `close` writes them as the record. */
function recordingServer(live: TestServer, file: string, flags: string[]): TestServer {
  const calls: RecordedCall[] = [];
  const client = live.client;
  const callTool = client.callTool.bind(client);
  const listTools = client.listTools.bind(client);
  const keep = (key: string, result: unknown) => {
    calls.push({key, result: JSON.parse(aliasText(JSON.stringify(result))) as unknown});
    return result;
  };
  const wrapped = Object.create(client) as Client;
  wrapped.callTool = (async (params: {name: string; arguments?: Record<string, unknown>}, ...rest: unknown[]) =>
    keep(
      callKey(params.name, params.arguments),
      await (callTool as (...a: unknown[]) => Promise<unknown>)(params, ...rest),
    )) as Client['callTool'];
  wrapped.listTools = (async (...rest: unknown[]) =>
    keep('tools/list', await (listTools as (...a: unknown[]) => Promise<unknown>)(...rest))) as Client['listTools'];
  return {
    ...live,
    client: wrapped,
    async call(tool, args = {}) {
      return callResultOf(await wrapped.callTool({name: tool, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS}));
    },
    async close() {
      await live.close();
      const record: RecordFile = {reference: REFERENCE, chromium: chromiumVersion(), flags, calls};
      mkdirSync(path.dirname(file), {recursive: true});
      writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
      process.stderr.write(
        `# wrote the reference record ${path.relative(process.cwd(), file)} (${calls.length} answers)\n`,
      );
    },
  };
}

/**
 * The reference for a comparison named `name` (unique among the records: a
 * test file's name, plus a word when the file starts the reference more than
 * once), started with `flags`: a replay of its record, or the live server
 * `startLive` starts (recorded with CDP_MCP_REFERENCE=record).
 */
export async function referenceServer(
  name: string,
  flags: string[],
  startLive: () => Promise<TestServer>,
): Promise<TestServer> {
  const mode = referenceMode();
  const file = recordPath(name);
  if (mode === 'auto' && existsSync(file)) {
    const record = JSON.parse(readFileSync(file, 'utf8')) as RecordFile;
    if (record.reference !== REFERENCE || stableJson(record.flags) !== stableJson(flags)) {
      throw new Error(
        `The reference record ${file} was made with ${record.reference} and flags ${stableJson(record.flags)}; ` +
          `this comparison runs ${REFERENCE} with ${stableJson(flags)}. Record it again: npm run record-reference.`,
      );
    }
    return replayServer(name, file, record);
  }
  if (mode === 'auto') {
    process.stderr.write(
      `# no reference record for "${name}" on Chromium ${chromiumVersion()}: comparing with the live reference ` +
        '(npm run record-reference writes the records)\n',
    );
  }
  const live = await startLive();
  return mode === 'record' ? recordingServer(live, recordOut(name), flags) : live;
}
