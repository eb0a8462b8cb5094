import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {after, before, describe, it} from 'node:test';

import {isAlive} from '../../src/config/daemonState.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {findProcesses, startServer, type TestServer} from '../support/mcpClient.js';

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema & {enum?: unknown[]; minimum?: number; maximum?: number; items?: JsonSchema}>;
  required?: string[];
}

/** Values of the wrong JSON type for a parameter of `type`. */
function wrongTypes(type: string | undefined): unknown[] {
  const all: Record<string, unknown> = {
    string: 'text',
    number: 12.5,
    integer: 3,
    boolean: true,
    array: ['a'],
    object: {a: 1},
    null: null,
  };
  return Object.entries(all)
    .filter(
      ([t]) =>
        t !== type && !(type === 'number' && t === 'integer') && !(type === 'integer' && t === 'number' && false),
    )
    .map(([, v]) => v);
}

/** A well-typed value for a parameter (so one bad parameter at a time is tested). */
function goodValue(
  name: string,
  schema: JsonSchema & {enum?: unknown[]; minimum?: number; items?: JsonSchema},
): unknown {
  if (schema.enum) {
    return schema.enum[0];
  }
  switch (schema.type) {
    case 'number':
    case 'integer':
      return name === 'pageId' ? 1 : (schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.items?.type === 'object'
        ? [Object.fromEntries(Object.keys(schema.items.properties ?? {}).map(key => [key, 'x']))]
        : ['x'];
    default:
      return name.toLowerCase().includes('url') ? 'about:blank' : 'x';
  }
}

describe('reliability', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/', '<title>Home</title><p>home</p>');
    fixtures.route('/never', {delayMs: 60_000, body: 'late'});
    mcp = await startServer();
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  const alive = async () => {
    const r = await mcp.call('list_pages');
    assert.equal(r.isError, false, `server not usable after bad input: ${r.text}`);
  };

  it('answers every malformed call to every tool with a clear isError result and keeps working', async () => {
    const {tools} = await mcp.client.listTools();
    let tried = 0;
    for (const tool of tools) {
      const schema = tool.inputSchema as JsonSchema;
      const props = schema.properties ?? {};
      const required = schema.required ?? [];
      const base = Object.fromEntries(required.map(name => [name, goodValue(name, props[name] ?? {})]));
      const cases: Array<{args: unknown; expect: RegExp}> = [
        {args: {...base, notAParameter: 1}, expect: /Unknown argument for tool .*"notAParameter".*Remove it and retry/},
      ];
      for (const name of required) {
        const {[name]: _dropped, ...rest} = base;
        cases.push({args: rest, expect: new RegExp(`"${name}" is required`)});
      }
      for (const [name, prop] of Object.entries(props)) {
        for (const bad of wrongTypes(prop.type)) {
          cases.push({
            args: {...base, [name]: bad},
            expect: new RegExp(`Invalid arguments for tool "${tool.name}": "${name}`),
          });
        }
        if (prop.maximum !== undefined) {
          cases.push({args: {...base, [name]: prop.maximum + 1}, expect: new RegExp(`"${name}"`)});
        }
        if (prop.minimum !== undefined) {
          cases.push({args: {...base, [name]: prop.minimum - 1}, expect: new RegExp(`"${name}"`)});
        }
      }
      for (const {args, expect} of cases) {
        const r = await mcp.call(tool.name, args as Record<string, unknown>);
        tried++;
        assert.equal(r.isError, true, `${tool.name} ${JSON.stringify(args)} should fail: ${r.text}`);
        assert.match(r.text, expect, `${tool.name} ${JSON.stringify(args)}`);
        assert.doesNotMatch(r.text, /\n\s+at /, `stack trace leaked for ${tool.name}`);
      }
    }
    assert.ok(tried > 100, `only ${tried} malformed calls generated`);
    process.stderr.write(`malformed calls tried: ${tried}\n`);
    await alive();
  });

  it('survives huge strings, odd Unicode and hostile paths', async () => {
    const huge = 'x'.repeat(1_000_000);
    const odd = '\u0000\u202e\ud83d\ude00\ud800 "quoted" \\ </script>';
    const calls: Array<[string, Record<string, unknown>]> = [
      ['evaluate_script', {pageId: 1, function: `() => ${JSON.stringify(huge)}.length`}],
      ['evaluate_script', {pageId: 1, function: `() => ${JSON.stringify(odd)}`}],
      ['evaluate_script', {pageId: 1, function: odd}],
      ['navigate_page', {pageId: 1, url: `http://127.0.0.1:${fixtures.port}/?q=${huge.slice(0, 100_000)}`}],
      ['navigate_page', {pageId: 1, url: odd}],
      ['wait_for', {pageId: 1, text: [odd], timeout: 50}],
      ['new_page', {url: 'javascript:alert(1)'}],
      ['take_screenshot', {pageId: 1, filePath: '../../../../etc/passwd'}],
      ['take_screenshot', {pageId: 1, filePath: '/proc/self/../../etc/shadow'}],
      ['evaluate_script', {pageId: 1, function: '() => 1', filePath: '/tmp/../etc/x.json'}],
      ['evaluate_script', {pageId: 1, sourcePath: '/etc/passwd'}],
      ['take_screenshot', {pageId: 1, filePath: 'nul\u0000byte.png'}],
      ['screencast_start', {pageId: 1, filePath: '/proc/self/../../etc/cast.mp4'}],
      ['lighthouse_audit', {pageId: 1, outputDirPath: '/tmp/../etc/lighthouse'}],
      ['select_page', {pageId: Number.MAX_SAFE_INTEGER}],
      ['select_page', {pageId: -1}],
      ['resize_page', {pageId: 1, width: 1e9, height: 1e9}],
    ];
    for (const [name, args] of calls) {
      const r = await mcp.call(name, args);
      assert.ok(r.text.length > 0, `${name} gave an empty answer`);
      assert.doesNotMatch(r.text, /\n\s+at [\w.<]+ \(/, `stack trace leaked for ${name}`);
      if (JSON.stringify(args).includes('etc')) {
        assert.equal(r.isError, true, `${name} wrote outside the roots: ${r.text}`);
        assert.match(r.text, /Access denied/);
      }
    }
    // The javascript: URL left an alert open in another page: it blocks page 1
    // too when they share a renderer, and the server says so instead of hanging.
    const list = await mcp.call('list_pages');
    for (const id of [...list.text.matchAll(/\n(\d+): /g)].map(m => Number(m[1])).filter(id => id !== 1)) {
      await mcp.call('close_page', {pageId: id});
    }
    assert.match(
      (await mcp.call('evaluate_script', {pageId: 1, function: `() => ${JSON.stringify(huge)}.length`})).text,
      /1000000/,
    );
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
    await alive();
  });

  it('gives up on a page that never finishes loading, with the timeout in the message', async () => {
    const r = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/never'), timeout: 500});
    assert.equal(r.isError, false);
    assert.match(r.text, /^Unable to navigate in the selected page: Navigation timeout of 500 ms exceeded\./);
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
    await alive();
  });

  it('reports a crashed tab and recovers it with a reload', async () => {
    const crash = await mcp.call('navigate_page', {pageId: 1, url: 'chrome://crash', timeout: 3000});
    assert.ok(crash.text.length > 0);
    const after = await mcp.call('evaluate_script', {pageId: 1, function: '() => 1'});
    assert.equal(after.isError, true);
    assert.match(after.text, /Page 1 has crashed\. Reload it with navigate_page/);
    const back = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/')});
    assert.match(back.text, /^Successfully navigated to/, back.text);
    const ok = await mcp.call('evaluate_script', {pageId: 1, function: '() => document.title'});
    assert.match(ok.text, /"Home"/);
  });

  it('fails a call whose target goes away mid-call, then keeps working', async () => {
    const opener = await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => { window.open(${JSON.stringify(fixtures.url('/'))}); return 1; }`,
    });
    assert.equal(opener.isError, false, opener.text);
    let list = await mcp.call('list_pages');
    for (const end = Date.now() + 30_000; !/\n\d+: [^\n]*$/.test(list.text) && Date.now() < end;) {
      await new Promise(resolve => setTimeout(resolve, 50));
      list = await mcp.call('list_pages');
    }
    const popupId = Number(/\n(\d+): [^\n]*$/.exec(list.text)?.[1]);
    assert.ok(popupId > 1, list.text);
    // The popup closes itself while the call waits on it (never before the call reached it).
    const hang = await mcp.call('evaluate_script', {
      pageId: popupId,
      function: '() => { setTimeout(() => window.close(), 200); return new Promise(() => {}); }',
    });
    assert.equal(hang.isError, true);
    assert.match(hang.text, /closed/i);
    await alive();
  });

  it('relaunches Chrome after it is killed between calls, and says so once', async () => {
    const profilePids = await chromePids(mcp.pid);
    assert.ok(profilePids.length > 0);
    for (const pid of profilePids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    // Until the killed processes are gone from the process table (bounded):
    // Chrome's main process is the server's child, so the server has then
    // reaped it and seen it exit. A fixed pause raced on a loaded machine.
    const deadline = Date.now() + 30_000;
    while (profilePids.some(pid => existsSync(`/proc/${pid}`)) && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    assert.ok(!profilePids.some(isAlive), 'the killed Chrome processes are gone');
    const r = await mcp.call('list_pages');
    assert.equal(r.isError, false, r.text);
    assert.match(
      r.text,
      /^Note: the browser was restarted or reconnected since the last call\. Page ids have changed\. Call list_pages to see open pages\.\n## Pages\n\d+: about:blank \[selected\]$/,
    );
    const again = await mcp.call('list_pages');
    assert.doesNotMatch(again.text, /Note:/);
  });

  it('fails a call cleanly when Chrome dies during it', async () => {
    const list = await mcp.call('list_pages');
    const pageId = Number(/\n(\d+): /.exec(list.text)?.[1]);
    const pending = mcp.call('evaluate_script', {pageId, function: '() => new Promise(() => {})'});
    await new Promise(resolve => setTimeout(resolve, 300));
    for (const pid of await chromePids(mcp.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    const r = await pending;
    assert.equal(r.isError, true);
    assert.match(r.text, /browser connection (is )?closed/i);
    const next = await mcp.call('list_pages');
    assert.equal(next.isError, false, next.text);
    assert.match(next.text, /Note: the browser was restarted/);
  });

  it('answers 1000 queued calls in order with nothing lost', async () => {
    const list = await mcp.call('list_pages');
    const pageId = Number(/\n(\d+): /.exec(list.text)?.[1]);
    await mcp.call('navigate_page', {pageId, url: fixtures.url('/')});
    const rssBefore = rss(mcp.pid);
    const order: number[] = [];
    const calls = Array.from({length: 1000}, (_, i) =>
      mcp.call('evaluate_script', {pageId, function: `() => ${i}`, waitForStableDom: false}).then(r => {
        order.push(i);
        return r;
      }),
    );
    const results = await Promise.all(calls);
    results.forEach((r, i) => assert.match(r.text, new RegExp(`\`\`\`json\\n${i}\\n\`\`\``)));
    assert.deepEqual(
      order,
      Array.from({length: 1000}, (_, i) => i),
    );
    await alive();
    // Memory comes back: well under double the baseline once the burst is over.
    const rssAfter = rss(mcp.pid);
    assert.ok(rssAfter < rssBefore * 2 + 50 * 1024, `RSS grew from ${rssBefore} kB to ${rssAfter} kB`);
  });
});

function rss(pid: number | null): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** Chrome processes launched by server `serverPid` (its direct child and that child's group). */
async function chromePids(serverPid: number | null): Promise<number[]> {
  const pids = await findProcesses('cdp-mcp-profile-');
  return pids.filter(pid => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[1]) === serverPid;
    } catch {
      return false; // Exited meanwhile.
    }
  });
}
