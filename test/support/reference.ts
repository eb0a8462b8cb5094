import {existsSync} from 'node:fs';

import {CHROME_PATH, startServer, type TestServer} from './mcpClient.js';
import {referenceBin} from './oracle.js';
import {referenceServer} from './referenceRecord.js';

/** core-js in the reference's process: its DevTools-based tools need ES2024 built-ins on Node 20. */
const CORE_JS = new URL('../../../node_modules/core-js/actual/index.js', import.meta.url).pathname;

/**
 * chrome-devtools-mcp 1.11 with core-js preloaded (how its traces, CSS and heap
 * tools work on Node 20), flags as the bench uses them, page-id routing off.
 */
export async function startReference(extraArgs: string[] = [], record?: string): Promise<TestServer> {
  return record
    ? referenceServer(record, extraArgs, () => startLiveReference(extraArgs))
    : startLiveReference(extraArgs);
}

/** The live reference (core-js preloaded), never a record. */
async function startLiveReference(extraArgs: string[]): Promise<TestServer> {
  if (!existsSync(CORE_JS)) {
    throw new Error(`core-js is missing at ${CORE_JS}; run npm ci.`);
  }
  return startServer({
    bin: referenceBin(),
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
      '--no-page-id-routing',
      ...extraArgs,
    ],
    env: {
      CI: '1',
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      NODE_OPTIONS: `--require ${CORE_JS}`,
    },
  });
}

/**
 * Makes two DevTools texts comparable across runs and servers: every number
 * (timings, bounds, sizes, event keys, node ids, ports, dates) becomes N.
 */
export function normaliseNumbers(text: string): string {
  // Figures over 1,000 are printed with a group separator ("1,204 ms"): one number too.
  return text.replace(/\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d+)?/g, 'N');
}
