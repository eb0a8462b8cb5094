import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, afterEach, describe, it} from 'node:test';
import {gunzipSync} from 'node:zlib';

import {analyzeTrace, traceReport} from '../../../src/devtools/trace/analysis.js';
import type {TraceHostConfig} from '../../../src/devtools/trace/hostProtocol.js';
import {TraceAnalysis} from '../../../src/devtools/trace/TraceHost.js';
import {configureLogger} from '../../../src/util/logger.js';
import {traceFixture} from '../../support/goldens.js';
import {findProcesses} from '../../support/mcpClient.js';

const CONFIG: TraceHostConfig = {conditions: {cpuThrottling: 1}, summaryScope: 'DESKTOP'};
const LOG = "Its output is in the embedding program's log \\(onLog\\)\\.";

/**
 * The trace analysis process (src/devtools/trace/host.ts): DevTools' texts
 * from it are the ones the engine gives in-process, and a process that cannot
 * start, dies or hangs is the analysis's clear error, and gone afterwards.
 */
describe('trace analysis process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-trace-host-'));
  const warnings: string[] = [];
  configureLogger({sink: (level, message) => level === 'warn' && warnings.push(message)});
  const shop = gunzipSync(readFileSync(traceFixture('shop')));

  afterEach(() => {
    warnings.length = 0;
  });
  after(() => {
    configureLogger({});
    rmSync(dir, {recursive: true, force: true});
  });

  /** A stand-in for host.ts that says it started, reads the trace, then does `then`. */
  function stub(name: string, then: string): string {
    const entry = join(dir, `${name}.mjs`);
    writeFileSync(
      entry,
      `process.send({started: true});
for await (const chunk of process.stdin) {}
${then}
`,
    );
    return entry;
  }

  /** Analyses `data` with `entry`; the process is gone when this settles. */
  async function analyze(data: Buffer, entry?: string, timeoutMs?: number) {
    const analysis = new TraceAnalysis(CONFIG, {entry, timeoutMs});
    try {
      return await analysis.analyze(data);
    } finally {
      await analysis.close();
      if (entry) {
        assert.deepEqual(await findProcesses(entry), [], 'the process is gone');
      }
    }
  }

  it("gives the texts DevTools' engine gives in this process, and exits", async () => {
    const report = await analyze(shop);
    const expected = traceReport(await analyzeTrace(shop, CONFIG.conditions), 'DESKTOP');
    assert.equal(report.summary, expected.summary);
    assert.deepEqual(report.insights, expected.insights);
    assert.ok(report.insights?.get('NAVIGATION_0')?.get('RenderBlocking')?.DESKTOP.startsWith('## Insight Title'));
    // This process's children only: performance tests beside this file start their own.
    assert.deepEqual(await findProcesses('devtools/trace/host.js', process.pid), []);
  });

  it("answers DevTools' parse errors as they are (the reference's texts)", async () => {
    await assert.rejects(
      analyze(Buffer.from('{"traceEvents": []}')),
      /^Error: There was an unexpected error parsing the trace: No trace events were found in the trace buffer\.$/,
    );
    await assert.rejects(
      analyze(Buffer.alloc(0)),
      /^Error: There was an unexpected error parsing the trace: No buffer was provided\.$/,
    );
    assert.deepEqual(warnings, []);
  });

  it('fails clearly when the process dies mid-analysis, and the next analysis works', async () => {
    const entry = stub('dies', "process.kill(process.pid, 'SIGKILL');");
    await assert.rejects(
      analyze(shop, entry),
      new RegExp(
        `^Error: The trace analysis process stopped \\(it was killed \\(SIGKILL\\)\\) before it finished, probably out of memory\\. ${LOG}$`,
      ),
    );
    assert.match(warnings.join('\n'), /The trace analysis process stopped/);
    const report = await analyze(shop);
    assert.match(report.summary, /^## Summary of Performance trace findings:\n/);
  });

  it('kills a process that does not finish within its bound', async () => {
    const entry = stub('hangs', 'setInterval(() => {}, 1000);');
    await assert.rejects(
      analyze(shop, entry, 1_000),
      new RegExp(`^Error: The trace analysis process did not finish within 1 s and was stopped\\. ${LOG}$`),
    );
  });

  it('fails once, quoting the error, when its code cannot load', async () => {
    const entry = join(dir, 'throws.mjs');
    writeFileSync(entry, "throw new Error('a chunk is missing');\n");
    await assert.rejects(
      analyze(shop, entry),
      new RegExp(
        `^Error: The trace analysis process could not start: it exited \\(code 1\\) \\(Error: a chunk is missing\\)\\. ${LOG}$`,
      ),
    );
    assert.match(
      warnings.join('\n'),
      /could not start: it exited \(code 1\) \(Error: a chunk is missing\)\. Its output:\n[^]*at file:/,
    );
  });
});
