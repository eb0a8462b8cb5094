import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

import {registerModulesRunHook} from '../../support/modulesRun.js';

const BIN = fileURLToPath(new URL('../../../src/bin/cdp-mcp.js', import.meta.url));
const ANSWER_WAIT_MS = 60_000;

/**
 * Loaded into the server before its own code: when the server writes the
 * tools/list answer (id 2), a report goes to stderr as one line: the Node.js
 * built-in modules loaded by then, how many Intl objects and locale
 * comparisons the server made (each pages ICU's data into memory), the size
 * of V8's young generation after a burst of allocations that survive a little
 * while (a snapshot's pattern), and the server's own modules run by then
 * (test/support/modulesRun.ts).
 */
const REPORT_LOADED = `
${registerModulesRunHook('(globalThis.__modulesRun ??= []).push(import.meta.url);')}
let intl = 0;
for (const name of ['Collator', 'NumberFormat', 'DateTimeFormat', 'Segmenter', 'PluralRules', 'ListFormat']) {
  const Original = Intl[name];
  Intl[name] = new Proxy(Original, {construct: (target, args) => (intl++, new target(...args))});
}
const localeCompare = String.prototype.localeCompare;
String.prototype.localeCompare = function (...args) { intl++; return localeCompare.apply(this, args); };
const {getHeapSpaceStatistics} = await import('node:v8');
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"id":2')) {
    const builtins = process.moduleLoadList.filter(m => m.startsWith('NativeModule ')).map(m => m.slice(13));
    const intlAtStart = intl;
    const kept = [];
    for (let round = 0; round < 300; round++) {
      const batch = [];
      for (let i = 0; i < 20000; i++) batch.push({i, text: 'node ' + i});
      if (round % 3 === 0) kept.push(batch);
      if (kept.length > 20) kept.shift();
    }
    const young = getHeapSpaceStatistics().find(space => space.space_name === 'new_space').space_size;
    const modules = (globalThis.__modulesRun ?? []).map(url => url.replace(/^.*?\\/build\\//, ''));
    process.stderr.write('LOADED ' + JSON.stringify({builtins, modules, intl: intlAtStart, youngMb: young / 2 ** 20}) + '\\n');
  }
  return write(chunk, ...rest);
};`;

interface StartReport {
  builtins: string[];
  /** The server's modules run by then, relative to build/ (src/server/start.js...). */
  modules: string[];
  intl: number;
  youngMb: number;
}

/** Starts the stdio server, asks initialize and tools/list, returns the report made when it answered. */
function reportAtToolsList(): Promise<StartReport> {
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(REPORT_LOADED)}`, BIN, '--headless', '--isolated'],
    {stdio: ['pipe', 'pipe', 'pipe']},
  );
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'startup-test', version: '1'}},
  });
  send({jsonrpc: '2.0', method: 'notifications/initialized'});
  send({jsonrpc: '2.0', id: 2, method: 'tools/list'});
  let stderr = '';
  return new Promise<StartReport>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no tools/list answer within ${ANSWER_WAIT_MS / 1000} s; stderr:\n${stderr}`)),
      ANSWER_WAIT_MS,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const line = /^LOADED (.*)$/m.exec(stderr);
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line[1]!) as StartReport);
      }
    });
    child.on('exit', code => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before answering tools/list; stderr:\n${stderr}`));
    });
  }).finally(() => child.kill('SIGKILL'));
}

describe('start-up', () => {
  // One start serves every check (each start allocates a burst on a shared machine).
  let report: Promise<StartReport> | undefined;
  const atToolsList = () => (report ??= reportAtToolsList());

  it('answers tools/list without loading what only some tools use (crypto, zlib, child processes)', async () => {
    const {builtins: loaded} = await atToolsList();
    assert.ok(loaded.includes('net'), `the report works (stdio loads net): ${loaded.join(', ')}`);
    for (const module of ['crypto', 'zlib', 'child_process']) {
      assert.ok(!loaded.includes(module), `${module} is loaded at start-up: ${loaded.join(', ')}`);
    }
  });

  it("answers tools/list without loading the tools' handles or the browser-side code behind them", async () => {
    const {modules} = await atToolsList();
    assert.ok(
      modules.includes('src/tools/registry.js'),
      `the report works (the tool list is loaded): ${modules.join(', ')}`,
    );
    // What the first call loads (server/callParts.ts): the handles handlers see and what they drive.
    const callTime =
      /^src\/(tools\/handles|snapshot|input|devtools\/(css|trace)|browser\/(script|rawCdp|pageText|storage|recording))\b/;
    const early = modules.filter(module => callTime.test(module));
    assert.deepEqual(early, [], 'modules of tool calls loaded before tools/list');
  });

  it('makes no Intl object and no locale comparison before tools/list (ICU data stays out of memory)', async () => {
    const {intl} = await atToolsList();
    assert.equal(intl, 0, 'Intl objects made or localeCompare calls before tools/list');
  });

  it("keeps V8's young generation at its first size under plain node (the bin sets the heap flags)", async () => {
    const {youngMb} = await atToolsList();
    // Grown, it is 32 MB (16 MB semi-spaces); kept, 1-2 MB.
    assert.ok(youngMb <= 4, `young generation ${youngMb} MB after a burst of allocations`);
  });
});
