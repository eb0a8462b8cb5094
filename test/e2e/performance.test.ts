import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {pathToFileURL} from 'node:url';
import {gunzipSync} from 'node:zlib';

import {analyzeTrace, formatTraceSummary, insightNames} from '../../src/devtools/trace/analysis.js';
import {routePerformancePages} from '../support/devtoolsFixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {BUILD_SERVER_BIN, findProcesses, startServer, type TestServer, TRACE_HOST} from '../support/mcpClient.js';
import {MODULES_RUN_ON_STDERR, modulesRun} from '../support/modulesRun.js';
import {callResultOf} from '../support/referenceRecord.js';

const ALREADY_RUNNING =
  'Error: a performance trace is already running. Use performance_stop_trace to stop it. Only one trace can be running at any given time.';

/** The trace analysis processes of one server (never another test's). */
/** Trace analysis processes of one server: the bundle's, or the compiled tree's (the server that reports its modules). */
const traceHosts = async (serverPid: number | null) => [
  ...(await findProcesses(TRACE_HOST, serverPid)),
  ...(await findProcesses('devtools/trace/host.js', serverPid)),
];

/** The insight names listed under one insight set of a summary. */
function listedInsights(summary: string, setId = 'NAVIGATION_0'): string[] {
  const set = summary.split(`## insight set id: ${setId}\n`)[1]?.split('\n## ')[0] ?? '';
  return [...set.matchAll(/^ {2}- insight name: (\w+)$/gm)].map(m => m[1] ?? '');
}

describe('performance traces', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let outDir: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    routePerformancePages(fixtures);
    outDir = mkdtempSync(join(tmpdir(), 'cdp-mcp-perf-test-'));
    // The compiled tree: its modules are named for what they hold (the bundle's are chunks).
    mcp = await startServer({bin: BUILD_SERVER_BIN, args: ['--no-page-id-routing'], nodeArgs: MODULES_RUN_ON_STDERR});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(outDir, {recursive: true, force: true});
  });

  it('answers analyze_insight before any trace as the reference does', async () => {
    const result = await mcp.call('performance_analyze_insight', {
      insightSetId: 'NAVIGATION_0',
      insightName: 'LCPBreakdown',
    });
    assert.equal(result.isError, false);
    assert.equal(result.text, 'No recorded traces found. Record a performance trace so you have Insights to analyze.');
  });

  it('records a reload of a page with a render-blocking stylesheet and an LCP image, saved gzipped', async () => {
    await mcp.call('navigate_page', {url: fixtures.url('/shop')});
    const file = join(outDir, 'shop.json.gz');
    const result = await mcp.call('performance_start_trace', {filePath: file});
    assert.equal(result.isError, false, result.text);
    const [saved, stopped, ...rest] = result.text.split('\n');
    assert.equal(saved, `The raw trace data was saved to ${file}.`);
    assert.equal(stopped, 'The performance trace has been stopped.');
    const summary = rest.join('\n');
    assert.match(summary, /^## Summary of Performance trace findings:\nURL: http:\/\/127\.0\.0\.1:\d+\/shop\n/);
    assert.match(summary, /\nCPU throttling: 1x\nNetwork throttling: none\n/);
    assert.match(
      summary,
      /\n {2}- LCP: \d+\sms, event: \(eventKey: r-\d+, ts: \d+\), nodeId: \d+\n {2}- LCP breakdown:\n/,
    );
    assert.match(summary, /\n {4}- Load duration: \d+\sms, bounds:/);
    assert.match(summary, /\nMetrics \(field \/ real users\): n\/a – no data for this page in CrUX\n/);
    const listed = listedInsights(summary);
    for (const name of ['LCPBreakdown', 'LCPDiscovery', 'RenderBlocking', 'NetworkDependencyTree', 'CharacterSet']) {
      assert.ok(listed.includes(name), `${name} in ${listed.join(', ')}`);
    }
    assert.match(summary, /\n## Details on call tree & network request formats:\n/);
    assert.match(summary, /\nNetwork requests are formatted like this:\n/);

    // The saved file is the raw trace: read back, DevTools finds the same summary in it.
    const reread = await analyzeTrace(gunzipSync(readFileSync(file)), {cpuThrottling: 1});
    assert.deepEqual([...insightNames(reread).keys()], ['NAVIGATION_0']);
    assert.equal(formatTraceSummary(reread, 'DESKTOP'), summary);
  });

  it('explains a found insight in full and answers unknown sets and names as the reference does', async () => {
    const blocking = await mcp.call('performance_analyze_insight', {
      insightSetId: 'NAVIGATION_0',
      insightName: 'RenderBlocking',
    });
    assert.equal(blocking.isError, false);
    assert.match(blocking.text, /^## Insight Title: Render-blocking requests\n/);
    assert.match(blocking.text, /\n## Network request: http:\/\/127\.0\.0\.1:\d+\/blocking\.css\n/);
    assert.match(blocking.text, /\nRender-blocking: Yes\n/);
    const lcp = await mcp.call('performance_analyze_insight', {
      insightSetId: 'NAVIGATION_0',
      insightName: 'LCPBreakdown',
    });
    assert.match(lcp.text, /is an image fetched from http:\/\/127\.0\.0\.1:\d+\/hero\.png/);
    assert.match(lcp.text, /\n- Resource load duration: \d+\sms/);

    const unknownSet = await mcp.call('performance_analyze_insight', {
      insightSetId: 'NAVIGATION_7',
      insightName: 'LCPBreakdown',
    });
    assert.equal(unknownSet.isError, false);
    assert.equal(
      unknownSet.text,
      'No Performance Insights for the given insight set id. Only use ids given in the "Available insight sets" list.',
    );
    const unknownName = await mcp.call('performance_analyze_insight', {
      insightSetId: 'NAVIGATION_0',
      insightName: 'Speed',
    });
    assert.equal(
      unknownName.text,
      'No Insight with the name Speed found. Double check the name you provided is accurate and try again.',
    );
  });

  it("parses traces in a process of its own: the server never runs DevTools' trace engine", async () => {
    const modules = modulesRun(mcp.stderr());
    assert.ok(modules.includes('src/devtools/trace/PerformanceTracer.js'), `the report works: ${modules.join(', ')}`);
    // The engine is megabytes of code, and each parsed trace tens of MB: they stayed in the server's memory.
    const engine = modules.filter(m => m.startsWith('vendor/') || m.endsWith('devtools/trace/analysis.js'));
    assert.deepEqual(engine, [], 'trace engine modules run in the server');
    assert.deepEqual(await traceHosts(mcp.pid), [], 'the trace analysis process is gone after the call');
  });

  it('starts and stops by hand, refusing a second start and a stop without start', async () => {
    const started = await mcp.call('performance_start_trace', {reload: false, autoStop: false});
    assert.equal(started.text, 'The performance trace is being recorded. Use performance_stop_trace to stop it.');
    const again = await mcp.call('performance_start_trace', {reload: false, autoStop: false});
    assert.equal(again.isError, false);
    assert.equal(again.text, ALREADY_RUNNING);
    await mcp.call('evaluate_script', {function: '() => { document.body.append("more"); return 1; }'});
    const file = join(outDir, 'manual.txt');
    const stopped = await mcp.call('performance_stop_trace', {filePath: file});
    assert.equal(stopped.isError, false, stopped.text);
    // The extension is forced to what the content is, as for every saved file.
    const json = join(outDir, 'manual.json');
    assert.match(
      stopped.text,
      new RegExp(
        `^The raw trace data was saved to ${json}\\.\\nThe performance trace has been stopped\\.\\n## Summary of Performance trace findings:\\n`,
      ),
    );
    const events = (JSON.parse(readFileSync(json, 'utf8')) as {traceEvents: unknown[]}).traceEvents;
    assert.ok(events.length > 100, `${events.length} events`);
    const noTrace = await mcp.call('performance_stop_trace', {});
    assert.equal(noTrace.isError, false);
    assert.equal(noTrace.text, 'Error: no active performance trace recording to stop.');
  });

  it('refuses a path outside the allowed roots before starting anything', async () => {
    const result = await mcp.call('performance_start_trace', {filePath: '/etc/cdp-mcp-trace.json'});
    assert.equal(result.isError, true);
    assert.match(
      result.text,
      /Access denied: path \/etc\/cdp-mcp-trace\.json .*is not within any of the configured workspace roots/,
    );
    const next = await mcp.call('performance_start_trace', {reload: false, autoStop: false});
    assert.equal(next.text, 'The performance trace is being recorded. Use performance_stop_trace to stop it.');
    await mcp.call('performance_stop_trace', {});
  });

  it('ends the trace and can trace again when saving fails', async () => {
    const directory = join(outDir, 'taken.json');
    mkdirSync(directory);
    const failed = await mcp.call('performance_start_trace', {reload: false, filePath: directory});
    assert.equal(failed.isError, true);
    assert.match(failed.text, /Error: Could not write .*taken\.json/);
    const next = await mcp.call('performance_start_trace', {reload: false, autoStop: false});
    assert.equal(next.text, 'The performance trace is being recorded. Use performance_stop_trace to stop it.');
    await mcp.call('performance_stop_trace', {});
  });

  it('reports a trace whose page closed, then traces again', async () => {
    await mcp.call('new_page', {url: fixtures.url('/clean')});
    const started = await mcp.call('performance_start_trace', {reload: false, autoStop: false});
    assert.equal(started.isError, false);
    const pages = await mcp.call('list_pages');
    const id = /^(\d+): Clean .*\[selected\]$/m.exec(pages.text)?.[1];
    assert.ok(id, pages.text);
    await mcp.call('close_page', {pageId: Number(id)});
    const stopped = await mcp.call('performance_stop_trace', {});
    assert.equal(stopped.isError, true);
    assert.match(stopped.text, /Error: The page closed while the trace was being recorded; the trace is lost\./);
    const next = await mcp.call('performance_start_trace', {reload: false, autoStop: false});
    assert.equal(next.text, 'The performance trace is being recorded. Use performance_stop_trace to stop it.');
    await mcp.call('performance_stop_trace', {});
  });

  it('reports progress when the client asks for it', async () => {
    await mcp.call('navigate_page', {url: fixtures.url('/clean')});
    const messages: string[] = [];
    const result = await mcp.client.callTool({name: 'performance_start_trace', arguments: {}}, undefined, {
      timeout: 60_000,
      onprogress: p => messages.push(p.message ?? ''),
    });
    const text = callResultOf(result).text;
    assert.notEqual(result.isError, true, text);
    assert.match(text, /^The performance trace has been stopped\./, text);
    // At most one notification per 500 ms: steps within one interval fold into
    // the latest, so each message is one of the steps, in their order.
    const steps = [
      /^Opening about:blank before the reload$/,
      /^Tracing started$/,
      /^Loading http:/,
      /^Waiting for the page to settle$/,
      /^Stopping the trace$/,
      /^Read the trace \(\d+\.\d MB\)$/,
      /^Analyzing the trace$/,
    ];
    const order = messages.map(m => steps.findIndex(step => step.test(m)));
    assert.equal(messages[0], 'Opening about:blank before the reload', `${messages.join(' | ')}\n${text}`);
    assert.ok(messages.length >= 2, messages.join(' | '));
    assert.ok(
      order.every((index, i) => index >= 0 && (i === 0 || index > (order[i - 1] ?? -1))),
      messages.join(' | '),
    );
  });
});

/**
 * A server whose first trace analysis process does `action` as soon as it has
 * read the whole trace (a script given to the server's processes through
 * NODE_OPTIONS; the marker file holds that process's pid).
 */
async function serverWithHostAction(
  action: string,
): Promise<{server: TestServer; fixtures: FixtureServer; marker: string; dispose: () => Promise<void>}> {
  const fixtures = await new FixtureServer().start();
  routePerformancePages(fixtures);
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-trace-host-'));
  const script = join(dir, 'action.mjs');
  const marker = join(dir, 'pid');
  writeFileSync(
    script,
    `import {existsSync, writeFileSync} from 'node:fs';
if (/(?:devtools[\\/]trace[\\/]host|dist[\\/]trace-host)\\.js$/.test(process.argv[1] ?? '') && !existsSync(${JSON.stringify(marker)})) {
  writeFileSync(${JSON.stringify(marker)}, String(process.pid));
  process.stdin.once('end', () => { ${action} });
}
`,
  );
  const server = await startServer({
    args: ['--no-page-id-routing'],
    env: {NODE_OPTIONS: `--import=${pathToFileURL(script).href}`},
  });
  return {
    server,
    fixtures,
    marker,
    dispose: async () => {
      await server.close().catch(() => undefined);
      await fixtures.stop();
      rmSync(dir, {recursive: true, force: true});
    },
  };
}

describe('performance traces: the trace analysis process dies', () => {
  it('fails the call saying so, and the next trace works', async () => {
    const {server, fixtures, marker, dispose} = await serverWithHostAction("process.kill(process.pid, 'SIGKILL');");
    try {
      await server.call('navigate_page', {url: fixtures.url('/shop')});
      const failed = await server.call('performance_start_trace', {});
      assert.equal(failed.isError, true, failed.text);
      assert.match(
        failed.text,
        /^The performance trace has been stopped\.\n[^]*The trace analysis process stopped \(it was killed \(SIGKILL\)\) before it finished, probably out of memory\. Its output is in the server's stderr\.$/,
      );
      assert.ok(readFileSync(marker, 'utf8'), 'the first analysis process ran the hook');
      assert.deepEqual(await traceHosts(server.pid), []);
      const next = await server.call('performance_start_trace', {});
      assert.equal(next.isError, false, next.text);
      assert.match(next.text, /^The performance trace has been stopped\.\n## Summary of Performance trace findings:\n/);
      const insight = await server.call('performance_analyze_insight', {
        insightSetId: 'NAVIGATION_0',
        insightName: 'RenderBlocking',
      });
      assert.match(insight.text, /^## Insight Title: Render-blocking requests\n/);
      assert.deepEqual(await traceHosts(server.pid), []);
    } finally {
      await dispose();
    }
  });

  it('exits when the server is killed mid-analysis', async () => {
    const {server, fixtures, marker, dispose} = await serverWithHostAction("process.kill(process.ppid, 'SIGKILL');");
    try {
      await server.call('navigate_page', {url: fixtures.url('/shop')});
      await assert.rejects(server.call('performance_start_trace', {}));
      const host = Number(readFileSync(marker, 'utf8'));
      // It sees its IPC channel close and exits: wait for that, bounded.
      const deadline = Date.now() + 10_000;
      while ((await findProcesses(TRACE_HOST)).includes(host) && Date.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 50));
      }
      assert.equal((await findProcesses(TRACE_HOST)).includes(host), false, 'the process exited');
    } finally {
      await dispose();
    }
  });
});
