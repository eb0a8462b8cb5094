/**
 * Lists the CDP commands one tool call sends, in order, with when each went
 * (ms from the call's start), how long its answer took, and a star on each
 * that starts a sequential round trip (none of the others awaited an answer
 * when it went: roundTrips in test/support/wsProxy.ts). The server drives a
 * Chromium through the test support's CDP proxy.
 *
 *   node build/scripts/bench/cdpTrace.js [--page simple|form|corpus:ID] [--tool take_snapshot|hover|click]
 *     [--warm N] [--repeat N] [--reference] [--bin PATH]
 *
 * --repeat N: N more calls first, timed (median wall, and the server's CPU
 * time a call); --reference: chrome-devtools-mcp 1.11 instead (no trace,
 * only the timed calls); --bin PATH: another build of our server (say, an
 * older commit's build/src/bin/cdp-mcp.js). Environment: CDP_TRACE_DIRECT=1, our server
 * launching its own Chrome (over the pipe, no proxy: no trace);
 * CDP_TRACE_PROF=DIR, a CPU profile of the server into DIR;
 * CDP_TRACE_AFTER_VERBOSE=1, each timed call right after a verbose snapshot
 * (as npm run corpus-report times them).
 */
import {readFileSync} from 'node:fs';
import {parseArgs} from 'node:util';

import {type RunningChromium, startChromium} from '../../test/support/chromium.js';
import {CORPUS} from '../../test/support/corpus/index.js';
import {serveCorpus, waitUntil} from '../../test/support/corpus/runner.js';
import {FixtureServer} from '../../test/support/fixtureServer.js';
import {startServer, type TestServer} from '../../test/support/mcpClient.js';
import {startReference} from '../../test/support/reference.js';
import {roundTrips, startsRoundTrip, WsProxy} from '../../test/support/wsProxy.js';
import {formPage, simplePage} from './fixtures.js';

const HEADER = {name: 'Authorization', value: 'Bearer cdp-trace'};

const {values} = parseArgs({
  options: {
    page: {type: 'string', default: 'simple'},
    tool: {type: 'string', default: 'take_snapshot'},
    warm: {type: 'string', default: '3'},
    repeat: {type: 'string', default: '0'},
    reference: {type: 'boolean', default: false},
    bin: {type: 'string'},
    help: {type: 'boolean', default: false},
  },
});
if (values.help) {
  console.log(
    'node build/scripts/bench/cdpTrace.js [--page simple|form|corpus:ID] [--tool take_snapshot|hover|click] [--warm N] [--repeat N] [--reference] [--bin PATH] (see the file)',
  );
  process.exit(0);
}

async function open(mcp: TestServer, fixtures: FixtureServer): Promise<void> {
  if (values.page.startsWith('corpus:')) {
    const page = CORPUS.find(p => p.id === values.page.slice('corpus:'.length));
    if (!page) {
      throw new Error(`no corpus page ${values.page}`);
    }
    await serveCorpus(fixtures, [page]);
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url(`/corpus/${page.id}`)});
    await waitUntil(mcp, page.ready, page.id);
    return;
  }
  fixtures.html('/simple', simplePage());
  fixtures.html('/form', formPage());
  await mcp.call('navigate_page', {pageId: 1, url: fixtures.url(`/${values.page}`)});
}

function uidOf(text: string, pattern: RegExp): string {
  const line = text.split('\n').find(l => pattern.test(l));
  const uid = line && /uid=(\S+)/.exec(line)?.[1];
  if (!uid) {
    throw new Error(`no ${pattern} in\n${text}`);
  }
  return uid;
}

/** chrome-devtools-mcp without page-id routing takes no pageId. */
function withoutPageIds(server: TestServer): TestServer {
  const call = server.call.bind(server);
  server.call = (name, args) =>
    call(name, args && Object.fromEntries(Object.entries(args).filter(([k]) => k !== 'pageId')));
  return server;
}

/** User and system CPU time of a process so far (Linux /proc), in ms. */
function serverCpuMs(pid: number | null): number {
  if (pid === null) {
    return 0;
  }
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function profArgs(): string[] {
  return process.env['CDP_TRACE_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['CDP_TRACE_PROF']}`] : [];
}

async function main(): Promise<void> {
  const fixtures = await new FixtureServer().start();
  const chromium: RunningChromium = await startChromium();
  const proxy = await new WsProxy(chromium.browserWsUrl, HEADER).start();
  const mcp = values.reference
    ? withoutPageIds(await startReference())
    : process.env['CDP_TRACE_DIRECT']
      ? await startServer({nodeArgs: profArgs(), bin: values.bin})
      : await startServer({
          args: ['--wsEndpoint', proxy.url, '--wsHeaders', JSON.stringify({[HEADER.name]: HEADER.value})],
          replaceFlags: true,
          nodeArgs: profArgs(),
          bin: values.bin,
        });
  try {
    await open(mcp, fixtures);
    const snap = await mcp.call('take_snapshot', {pageId: 1});
    const args: Array<Record<string, unknown>> = [{pageId: 1}];
    if (values.tool !== 'take_snapshot') {
      const targets = values.tool === 'hover' ? [/button "Hover A"/, /button "Hover B"/] : [/button "Count"/];
      args.splice(0, 1, ...targets.map(t => ({pageId: 1, uid: uidOf(snap.text, t)})));
    }
    const warm = Number(values.warm);
    for (let i = 0; i < warm; i++) {
      await mcp.call(values.tool, args[i % args.length]);
    }
    const cpuBefore = serverCpuMs(mcp.pid);
    const walls: number[] = [];
    for (let i = 0; i < Number(values.repeat); i++) {
      if (process.env['CDP_TRACE_AFTER_VERBOSE']) {
        await mcp.call('take_snapshot', {pageId: 1, verbose: true});
      }
      const t = performance.now();
      await mcp.call(values.tool, args[i % args.length]);
      walls.push(performance.now() - t);
    }
    if (walls.length > 0) {
      walls.sort((a, b) => a - b);
      const cpu = (serverCpuMs(mcp.pid) - cpuBefore) / walls.length;
      console.log(
        `median of ${walls.length}: ${walls[walls.length >> 1]!.toFixed(2)} ms; server CPU ${cpu.toFixed(2)} ms a call`,
      );
    }
    if (process.env['CDP_TRACE_AFTER_VERBOSE']) {
      await mcp.call('take_snapshot', {pageId: 1, verbose: true});
    }
    const from = proxy.commands.length;
    const start = performance.now();
    const result = await mcp.call(values.tool, args[warm % args.length]);
    const wall = performance.now() - start;
    const commands = proxy.commands.slice(from);
    console.log(
      `${values.tool} on ${values.page}: ${wall.toFixed(1)} ms, ${commands.length} commands, ${roundTrips(commands)} sequential round trips${result.isError ? ' (error)' : ''}`,
    );
    for (const c of commands) {
      const took = c.answered === undefined ? '-' : (c.answered - c.sent).toFixed(2);
      const mark = startsRoundTrip(c, commands) ? '*' : ' ';
      console.log(
        `${mark} ${(c.sent - start).toFixed(2).padStart(7)} +${took.padStart(6)}  ${c.sessionId ? c.sessionId.slice(0, 6) : 'browser'} ${c.method}`,
      );
    }
  } finally {
    await mcp.close();
    await proxy.stop();
    chromium.kill();
    await fixtures.stop();
  }
}

await main();
