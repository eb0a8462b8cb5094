/**
 * Lanes bench: how long calls on healthy pages take while another page is
 * stuck, with --lanes page and with the default --lanes server (and
 * chrome-devtools-mcp 1.11 with --theirs).
 *
 *   npm run bench:lanes -- [--rounds 4 | --calls 50] [--hangs spin,load,dialog,screenshot] [--modes page,server] [--theirs]
 *
 * Per mode: three working pages; three agents (one per page, concurrent calls
 * over one stdio client, so their calls interleave) each run `rounds` rounds
 * of take_snapshot, click, evaluate_script on their page (`--calls N`: N calls
 * each, cycling through the three; `--calls 50` is issue 23's 4x50
 * measurement: 4 pages, 50 calls on each healthy one, one page hung, the
 * healthy pages' p95 against the same calls with no page hung, goal 1.2x). First with nothing stuck (idle), then once
 * per hang on a fourth page: `spin` (evaluate_script in while(true)), `load`
 * (navigate_page to a response that never ends), `dialog` (a script that
 * opens alerts forever), `screenshot` (take_screenshot of a page spinning in
 * a script of its own). Prints p50/p95/max per mode and hang. Talks only to
 * a fixture server on 127.0.0.1; every call is bounded by the client timeout.
 */
import {FixtureServer} from '../../test/support/fixtureServer.js';
import {CHROME_PATH, startServer, type TestServer} from '../../test/support/mcpClient.js';
import {chromeArgs, ensureTheirs, SERVER_ENV} from './session.js';

const HANGS = {
  spin: {
    tool: 'evaluate_script',
    args: {function: '() => { while (true) {} }'},
  },
  load: {tool: 'navigate_page', args: {type: 'url', url: '/never', timeout: 30_000}},
  dialog: {tool: 'evaluate_script', args: {function: '() => { for (;;) alert("again"); }'}},
  // take_screenshot of a page whose script started spinning once the call that set it going returned.
  screenshot: {
    tool: 'take_screenshot',
    args: {fullPage: true},
    first: {function: '() => { setTimeout(() => { while (true) {} }); }'},
  },
} as const;
type Hang = keyof typeof HANGS;

interface Options {
  /** Calls per agent. */
  calls: number;
  hangs: Hang[];
  modes: string[];
}

function options(): Options {
  const value = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const modes = (value('modes') ?? 'page,server').split(',');
  return {
    calls: Number(value('calls') ?? Number(value('rounds') ?? 4) * 3),
    hangs: (value('hangs') ?? 'spin,load,dialog,screenshot').split(',') as Hang[],
    modes: process.argv.includes('--theirs') ? [...modes, 'theirs'] : modes,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function text(result: Awaited<ReturnType<TestServer['client']['callTool']>>): string {
  return (result.content as Array<{text?: string}>).map(c => c.text ?? '').join('\n');
}

async function call(mcp: TestServer, name: string, args: Record<string, unknown>): Promise<string> {
  return text(await mcp.client.callTool({name, arguments: args}, undefined, {timeout: 180_000}));
}

/** The latencies (ms) of each agent's `calls` calls on its page, cycling through take_snapshot, click, evaluate_script. */
async function agents(mcp: TestServer, pages: number[], calls: number): Promise<number[]> {
  const times: number[] = [];
  const timed = async (name: string, args: Record<string, unknown>) => {
    const start = performance.now();
    const out = await call(mcp, name, args);
    times.push(performance.now() - start);
    return out;
  };
  await Promise.all(
    pages.map(async pageId => {
      let uid: string | undefined;
      for (let n = 0; n < calls; n++) {
        if (n % 3 === 0) {
          uid = /uid=(\S+) button/.exec(await timed('take_snapshot', {pageId}))?.[1];
        } else if (n % 3 === 1) {
          await timed('click', {pageId, uid});
        } else {
          await timed('evaluate_script', {pageId, function: '() => window.clicks'});
        }
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

function start(mode: string): Promise<TestServer> {
  if (mode === 'theirs') {
    const bin = ensureTheirs('/tmp/cdp-mcp-bench/cdm');
    return startServer({bin, replaceFlags: true, args: chromeArgs(CHROME_PATH, '1280x720'), env: SERVER_ENV});
  }
  return startServer({args: ['--lanes', mode]});
}

/** Opens a page, sets a hang going on it; the promise of the stuck call and its page id. */
async function hang(
  mcp: TestServer,
  fixtures: FixtureServer,
  kind: Hang,
): Promise<{pageId: number; done: Promise<unknown>}> {
  const opened = await call(mcp, 'new_page', {url: fixtures.url('/work')});
  const pageId = Math.max(...[...opened.matchAll(/^(\d+): /gm)].map(m => Number(m[1])));
  const hangCall = HANGS[kind];
  if ('first' in hangCall) {
    await call(mcp, 'evaluate_script', {pageId, ...hangCall.first});
  }
  const {tool, args} = hangCall;
  const hangArgs = 'url' in args ? {...args, url: fixtures.url(args.url)} : args;
  const done = call(mcp, tool, {pageId, ...hangArgs}).catch((error: unknown) => String(error));
  // Let the hang take hold (the server has the call, the page is in it) before measuring.
  await new Promise(resolve => setTimeout(resolve, 1_000));
  return {pageId, done};
}

async function runMode(mode: string, fixtures: FixtureServer, opts: Options): Promise<string[]> {
  const mcp = await start(mode);
  const rows: string[] = [];
  try {
    await call(mcp, 'navigate_page', {pageId: 1, type: 'url', url: fixtures.url('/work')});
    await call(mcp, 'new_page', {url: fixtures.url('/work')});
    await call(mcp, 'new_page', {url: fixtures.url('/work')});
    const pages = [1, 2, 3];
    await agents(mcp, pages, 3);
    const row = (name: string, times: number[], idle?: number[]) => {
      const p95 = percentile(times, 95);
      const ratio = idle ? ` (${(p95 / percentile(idle, 95)).toFixed(2)}x idle)` : '';
      rows.push(
        `| ${mode} | ${name} | ${times.length} | ${percentile(times, 50).toFixed(0)} | ${p95.toFixed(0)}${ratio} | ${times.at(-1)?.toFixed(0)} |`,
      );
    };
    const idle = await agents(mcp, pages, opts.calls);
    row('idle', idle);
    for (const kind of opts.hangs) {
      const stuck = await hang(mcp, fixtures, kind);
      row(kind, await agents(mcp, pages, opts.calls), idle);
      const ended = String(await stuck.done);
      console.error(`[${mode}/${kind}] stuck call ended: ${ended.split('\n').slice(0, 3).join(' | ').slice(0, 300)}`);
      await call(mcp, 'close_page', {pageId: stuck.pageId});
    }
  } finally {
    await mcp.close();
  }
  return rows;
}

const opts = options();
const fixtures = await new FixtureServer().start();
fixtures.html('/work', '<title>work</title><button onclick="window.clicks = (window.clicks || 0) + 1">Press</button>');
// A response that starts and never ends: the page never finishes loading.
fixtures.route('/never', (_req, res) => {
  res.writeHead(200, {'content-type': 'text/html'});
  res.write('<title>never</title><p>loading forever');
});
const rows = ['| mode | hung page | calls | p50 ms | p95 ms | max ms |', '| --- | --- | --- | --- | --- | --- |'];
try {
  for (const mode of opts.modes) {
    console.error(`[lanes bench] ${mode}`);
    rows.push(...(await runMode(mode, fixtures, opts)));
  }
} finally {
  await fixtures.stop();
}
console.log(
  `Calls on 3 healthy pages (3 agents x ${opts.calls} calls: take_snapshot, click, evaluate_script in turn, interleaved) with a fourth page stuck:\n`,
);
console.log(rows.join('\n'));
