import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, afterEach, describe, it} from 'node:test';

import {heapEntryPath} from '../../../src/devtools/heap/entryPoints.js';
import {HeapHost} from '../../../src/devtools/heap/HeapHost.js';
import {configureLogger} from '../../../src/util/logger.js';
import {findProcesses} from '../../support/mcpClient.js';

const CONFIG = {modulePath: 'file:///unused.mjs', maxSnapshots: 1, maxBytes: 64 * 1024 * 1024};
const CLOSE = {op: 'close', path: '/nothing.heapsnapshot'} as const;

async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`Within ${timeoutMs} ms, never: ${what}`);
    }
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

/**
 * A host that cannot start is the call's clear error, never a hang: its
 * code failing to load used to make the server fork it again and again until
 * the request's own bound (minutes) ran out.
 */
describe('heap host that cannot start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-heap-host-'));
  const warnings: string[] = [];
  configureLogger({sink: (level, message) => level === 'warn' && warnings.push(message)});

  afterEach(() => {
    warnings.length = 0;
  });
  after(() => {
    configureLogger({});
    rmSync(dir, {recursive: true, force: true});
  });

  /** A host script that notes each start (one line per process) and then does `body`. */
  function hostScript(name: string, body: string): {entry: string; starts: () => string[]} {
    const entry = join(dir, `${name}.mjs`);
    const log = join(dir, `${name}.starts`);
    writeFileSync(
      entry,
      `import {appendFileSync} from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, process.pid + '\\n');\n${body}\n`,
    );
    return {entry, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [])};
  }

  it('fails the call once, quoting the error and saying where the output went, when its code throws', async () => {
    const {entry, starts} = hostScript('throws', "throw new Error('a chunk is missing');");
    const host = new HeapHost(CONFIG, {entry});
    await assert.rejects(
      host.request(CLOSE, {timeoutMs: 120_000}),
      new RegExp(
        "^Error: The heap analysis process could not start: it exited \\(code 1\\) \\(Error: a chunk is missing\\)\\. Its output is in the embedding program's log \\(onLog\\)\\.$",
      ),
    );
    assert.equal(starts().length, 1, 'forked once, not again and again');
    assert.match(warnings.join('\n'), /could not start: it exited \(code 1\)\. Its output:\n[^]*a chunk is missing/);
    assert.equal(host.running, false);
  });

  it('kills a host that never answers and fails the call after the start bound', async () => {
    const {entry, starts} = hostScript('silent', 'setInterval(() => {}, 1000);');
    const host = new HeapHost(CONFIG, {entry, startTimeoutMs: 1_000});
    await assert.rejects(
      host.request(CLOSE, {timeoutMs: 120_000}),
      /^Error: The heap analysis process could not start: it did not answer within 1 s\. Its output is in /,
    );
    // On a busy machine it may be killed before its first line ran: look for it by its script.
    assert.ok(starts().length <= 1, 'forked once, not again and again');
    await waitUntil('the silent host is gone', async () => (await findProcesses(entry)).length === 0);
    assert.equal(host.running, false);
  });

  it('answers through the real host (host.js, as the server forks it)', async () => {
    // The compiled host.js, as the server forks it.
    const host = new HeapHost(CONFIG, {entry: heapEntryPath('host')});
    const {result} = await host.request(CLOSE, {timeoutMs: 60_000});
    assert.deepEqual(result, {closed: false, remaining: 0});
    assert.equal(host.running, true);
    await host.stop();
    assert.equal(host.running, false);
  });
});
