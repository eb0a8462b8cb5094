/**
 * PLACEHOLDER until the snapshot engine branch lands its oracle library
 * (same API): our server and chrome-devtools-mcp 1.11 side by side, and
 * snapshot texts compared line for line with uids and ports normalised.
 */
import {fileURLToPath} from 'node:url';

import {CHROME_PATH, startServer, type TestServer} from './mcpClient.js';

export const CDM_BIN = fileURLToPath(
  new URL('../../../node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js', import.meta.url),
);

export interface OraclePair {
  ours: TestServer;
  theirs: TestServer;
  close(): Promise<void>;
}

export async function startOraclePair(options: {args?: string[]} = {}): Promise<OraclePair> {
  const extra = options.args ?? [];
  const [ours, theirs] = await Promise.all([
    startServer({args: extra}),
    startServer({
      bin: CDM_BIN,
      replaceFlags: true,
      args: [
        '--executablePath',
        CHROME_PATH,
        '--headless',
        '--isolated',
        '--chromeArg=--no-sandbox',
        '--chromeArg=--disable-gpu',
        '--no-usage-statistics',
        '--no-performance-crux',
        ...extra,
      ],
      env: {CI: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'},
    }),
  ]);
  return {
    ours,
    theirs,
    async close() {
      await Promise.all([ours.close(), theirs.close()]);
    },
  };
}

/** Snapshot text with uids and loopback ports replaced, so two servers' texts compare. */
export function normalizeSnapshot(text: string): string {
  return text
    .replace(/uid=\d+_\d+/g, 'uid=N')
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:PORT')
    .trimEnd();
}

export async function compareSnapshots(
  pair: OraclePair,
  {verbose}: {verbose: boolean},
): Promise<{ours: string; theirs: string; diff: string[]}> {
  const [o, t] = await Promise.all([
    pair.ours.call('take_snapshot', {pageId: 1, verbose}),
    pair.theirs.call('take_snapshot', {pageId: 1, verbose}),
  ]);
  const ours = normalizeSnapshot(o.text);
  const theirs = normalizeSnapshot(t.text);
  return {ours, theirs, diff: lineDiff(ours.split('\n'), theirs.split('\n'))};
}

/** Lines only in `a` ("- ours") or only in `b` ("+ theirs"), by longest common subsequence. */
export function lineDiff(a: string[], b: string[]): string[] {
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({length: n + 1}, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push(`- ours   ${a[i++]}`);
    } else {
      out.push(`+ theirs ${b[j++]}`);
    }
  }
  return out;
}
