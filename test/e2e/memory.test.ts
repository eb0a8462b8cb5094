import assert from 'node:assert/strict';
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {pathToFileURL} from 'node:url';

import {FixtureServer} from '../support/fixtureServer.js';
import {
  LEAK_INITIAL,
  LEAK_LABELS,
  LEAK_PAGE,
  LEAK_PER_CLICK,
  writeCorruptCopy,
  writeStringHeavySnapshot,
  writeTruncatedCopy,
} from '../support/heapFixtures.js';
import {findProcesses, HEAP_HOST, startServer, type TestServer} from '../support/mcpClient.js';

// Without the output cap: these tests read whole listings (the cap has its own tests in tokens.test.ts).
const MEMORY_FLAGS = ['--no-page-id-routing', '--memoryDebugging', '--maxOutputChars', '0'];

/** The heap host processes of one server (never another test's or another user's). */
async function heapHosts(serverPid: number | null): Promise<number[]> {
  const hosts: number[] = [];
  for (const pid of await findProcesses(HEAP_HOST)) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === serverPid) {
      hosts.push(pid);
    }
  }
  return hosts;
}

/** The value of `column` in the CSV row whose `keyColumn` is `key`. */
function csvCell(text: string, keyColumn: number, key: string, column: number): string | undefined {
  const row = text.split('\n').find(line => line.split(',')[keyColumn] === key);
  return row?.split(',')[column];
}

async function growButtonUid(mcp: TestServer): Promise<string> {
  const snapshot = await mcp.call('take_snapshot');
  const uid = /uid=(\S+) button "Grow"/.exec(snapshot.text)?.[1];
  assert.ok(uid, snapshot.text);
  return uid;
}

describe('heap snapshots: a leak found end to end', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let workspace: string;
  let before1: string;
  let after1: string;
  const progress: string[] = [];

  before(async () => {
    workspace = mkdtempSync(join(process.cwd(), '.ws-heap-'));
    fixtures = await new FixtureServer().start();
    fixtures.html('/leak', LEAK_PAGE);
    mcp = await startServer({args: MEMORY_FLAGS, roots: [pathToFileURL(workspace).href]});
    await mcp.call('navigate_page', {url: fixtures.url('/leak')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(workspace, {recursive: true, force: true});
  });

  it('takes two snapshots around a click, streamed to files, with progress', async () => {
    const first = await mcp.client.callTool(
      {name: 'take_heapsnapshot', arguments: {filePath: join(workspace, 'before.json')}},
      undefined,
      {timeout: 120_000, onprogress: p => progress.push(p.message ?? '')},
    );
    before1 = join(workspace, 'before.heapsnapshot');
    assert.deepEqual(first.content, [{type: 'text', text: `Heap snapshot saved to ${before1}`}]);
    assert.ok(
      progress.some(m => /^Taking heap snapshot: \d+%$/.test(m)),
      progress.join('|'),
    );
    assert.match(readFileSync(before1, 'utf8').slice(0, 40), /^\{"snapshot":\{/);

    await mcp.call('click', {uid: await growButtonUid(mcp)});
    const second = await mcp.call('take_heapsnapshot', {filePath: join(workspace, 'after')});
    after1 = join(workspace, 'after.heapsnapshot');
    assert.equal(second.text, `Heap snapshot saved to ${after1}`);
  });

  it('finds the class in the details of each snapshot, with its instances', async () => {
    const base = await mcp.call('get_heapsnapshot_details', {filePath: before1});
    assert.match(base.text, /^## Heap Snapshot Data\nObjects: \d+\nTotal shallow size: [\d,.]+\u00a0kB\n/);
    assert.equal(csvCell(base.text, 1, 'LeakyWidget', 2), String(LEAK_INITIAL));
    // Without a path the tools use the snapshot taken last.
    const current = await mcp.call('get_heapsnapshot_details', {pageSize: 5});
    assert.match(
      current.text,
      /Showing 1-5 of \d+ \(Page 1 of \d+\)\.\nNext page: 1\nid,className,count,selfSize,retainedSize\n/,
    );
    const all = await mcp.call('get_heapsnapshot_details', {});
    assert.equal(csvCell(all.text, 1, 'LeakyWidget', 2), String(LEAK_INITIAL + LEAK_PER_CLICK));
  });

  it('walks from an instance to the global that keeps it: nodes, retainers, paths, dominators, details', async () => {
    const details = await mcp.call('get_heapsnapshot_details', {filePath: after1});
    const classId = csvCell(details.text, 1, 'LeakyWidget', 0);
    const nodes = await mcp.call('get_heapsnapshot_class_nodes', {filePath: after1, id: Number(classId), pageSize: 3});
    assert.match(nodes.text, /^## Heap Snapshot Data\nnodeId,nodeName,type,distance,selfSize,retainedSize\n/);
    assert.match(nodes.text, new RegExp(`Showing 1-3 of ${LEAK_INITIAL + LEAK_PER_CLICK} \\(Page 1 of \\d+\\)\\.`));
    const nodeId = Number(/\n(\d+),LeakyWidget,object,/.exec(nodes.text)?.[1]);

    const retainers = await mcp.call('get_heapsnapshot_retainers', {filePath: after1, nodeId});
    assert.match(retainers.text, /\nname,type,nodeId,nodeName,selfSize,retainedSize\n/);
    assert.match(retainers.text, /\n\d+,element,\d+,Array,/);

    const edges = await mcp.call('get_heapsnapshot_edges', {filePath: after1, nodeId});
    assert.match(edges.text, /\npayload,property,\d+,Array,/);

    const paths = await mcp.call('get_heapsnapshot_retaining_paths', {filePath: after1, nodeId});
    assert.match(paths.text, /### Retaining Paths\n<- @\d+ Array via element \d+ \(distance: \d+\)/);
    assert.match(
      paths.text,
      /\n {2}<- @\d+ Window \[JSGlobalObject\][^\n]* via property leakedWidgets \(distance: \d+\)/,
    );

    const dominators = await mcp.call('get_heapsnapshot_dominators', {filePath: after1, nodeId});
    const chain = dominators.text.split('\n').slice(3);
    assert.match(chain[0] ?? '', new RegExp(`^${nodeId},LeakyWidget,`));
    assert.ok(
      chain.some(line => /^\d+,Window \[JSGlobalObject\]/.test(line)),
      dominators.text,
    );
    assert.match(chain.at(-1) ?? '', /^\d+,,/, 'the chain ends at the snapshot root');

    const object = await mcp.call('get_heapsnapshot_object_details', {filePath: after1, nodeId});
    assert.match(
      object.text,
      new RegExp(
        `### Object Details\nid: @${nodeId}\nname: LeakyWidget\ntype: object\ndetachedness: unknown\nselfSize: [\\d.]+\u00a0kB\nretainedSize: [\\d.]+\u00a0kB\ndistance: \\d+\nedgeCount: \\d+\nretainerCount: [1-9]`,
      ),
    );
  });

  it('lists the duplicated labels, queries objects and summarises', async () => {
    const duplicates = await mcp.call('get_heapsnapshot_duplicate_strings', {filePath: after1});
    const copies = (LEAK_INITIAL + LEAK_PER_CLICK) / LEAK_LABELS;
    assert.match(
      duplicates.text,
      new RegExp(`\n"widget-3",${copies},[\\d.]+\u00a0kB,[\\d.]+\u00a0kB,false,(@\\d+ ?){${copies}}\n`),
    );

    const query = await mcp.call('query_heapsnapshot_objects', {className: '^LeakyWidget$', nodeType: 'object'});
    assert.match(
      query.text,
      new RegExp(`Showing 1-${LEAK_INITIAL + LEAK_PER_CLICK} of ${LEAK_INITIAL + LEAK_PER_CLICK} `),
    );

    const summary = await mcp.call('get_heapsnapshot_summary', {});
    assert.match(summary.text, /^## Heap Snapshot Data\nStatistics: \{\n {2}"total": \d+,/);
    assert.match(
      summary.text,
      /### Native Contexts\nnodeId,nodeName,selfSize,retainedSize,attributedSize\n\d+,system \/ NativeContext/,
    );
    assert.match(summary.text, /### Retained by Context Summary\nContext count: \d+\n/);

    const contexts = await mcp.call('analyze_heapsnapshot_contexts', {pageSize: 2});
    assert.match(contexts.text, /^## Heap Snapshot Data\n### Context Analysis\nShowing \d+-\d+ of \d+/);
  });

  it('compares the two snapshots by default, with the growth and a leak verdict', async () => {
    const diff = await mcp.call('compare_heapsnapshots', {});
    assert.equal(diff.isError, false, diff.text);
    assert.match(
      diff.text,
      /^## Heap Snapshot Data\n### Heap Snapshot Diff\nTotal: # new: \d+, # deleted: \d+, # delta: [+-]?\d+/,
    );
    const row = diff.text.split('\n').find(line => line.split(',')[1] === 'LeakyWidget');
    assert.match(row ?? '', new RegExp(`^\\d+,LeakyWidget,${LEAK_PER_CLICK},0,${LEAK_PER_CLICK},`));
    assert.match(
      diff.text,
      new RegExp(
        `### Leak Verdict\n\\d+ classes grew in both object count and size\\. Check first:\n- LeakyWidget: \\+${LEAK_PER_CLICK} objects, \\+[\\d.]+\u00a0kB\\. Its newest object @\\d+ is retained through property "leakedWidgets" of Window`,
      ),
    );
    assert.match(
      diff.text,
      /\n {2}<- @\d+ Array via element \d+ \(distance: \d+\)\n {2}<- @\d+ Window \[JSGlobalObject\]/,
    );

    const index = Number(row?.split(',')[0]);
    const detail = await mcp.call('compare_heapsnapshots', {
      baseFilePath: before1,
      currentFilePath: after1,
      classIndex: index,
    });
    assert.match(
      detail.text,
      new RegExp(
        `### Heap Snapshot Detailed Diff\nLeakyWidget: # new: ${LEAK_PER_CLICK}, # deleted: 0, # delta: \\+${LEAK_PER_CLICK}, alloc size: \\+`,
      ),
    );
    assert.equal(
      detail.text.split('\n').filter(line => /^ {2}\+ @\d+ \(self_size: /.test(line)).length,
      LEAK_PER_CLICK,
    );
  });

  it('reloads a snapshot whose file was taken again', async () => {
    await mcp.call('click', {uid: await growButtonUid(mcp)});
    const retaken = await mcp.call('take_heapsnapshot', {filePath: after1});
    assert.equal(retaken.text, `Heap snapshot saved to ${after1}`);
    const details = await mcp.call('get_heapsnapshot_details', {filePath: after1});
    assert.match(
      details.text,
      /^Note: reloaded heap snapshot .*after\.heapsnapshot: the file changed since it was loaded\.\n/,
    );
    assert.equal(csvCell(details.text, 1, 'LeakyWidget', 2), String(LEAK_INITIAL + 2 * LEAK_PER_CLICK));
  });

  it('closes snapshots, and says when one was not loaded', async () => {
    const closed = await mcp.call('close_heapsnapshot', {filePath: before1});
    assert.deepEqual(closed, {text: `Closed heap snapshot: ${before1}`, images: [], isError: false});
    const again = await mcp.call('close_heapsnapshot', {filePath: before1});
    assert.equal(again.isError, true);
    assert.equal(again.text, `Error: Failed to close heap snapshot: ${before1} was not loaded.`);
    assert.equal((await mcp.call('close_heapsnapshot', {})).text, `Closed heap snapshot: ${after1}`);
  });
});

describe('heap snapshots: bad input gets a clear error, and the server stays usable', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let workspace: string;
  let good: string;

  before(async () => {
    workspace = mkdtempSync(join(process.cwd(), '.ws-heap-bad-'));
    fixtures = await new FixtureServer().start();
    fixtures.html('/leak', LEAK_PAGE);
    mcp = await startServer({args: MEMORY_FLAGS, roots: [pathToFileURL(workspace).href]});
    await mcp.call('navigate_page', {url: fixtures.url('/leak')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(workspace, {recursive: true, force: true});
  });

  const expectError = async (tool: string, args: Record<string, unknown>, pattern: RegExp) => {
    const result = await mcp.call(tool, args);
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, pattern);
  };

  it('needs a snapshot before analysing without a path', async () => {
    await expectError('get_heapsnapshot_summary', {}, /No heap snapshot was taken in this session: pass filePath/);
    await expectError('compare_heapsnapshots', {}, /No heap snapshot was taken in this session: pass currentFilePath/);
    good = join(workspace, 'good.heapsnapshot');
    await mcp.call('take_heapsnapshot', {filePath: good});
    await expectError('compare_heapsnapshots', {}, /Comparing needs two snapshots: pass baseFilePath/);
  });

  it('rejects files that are not heap snapshots', async () => {
    const text = join(workspace, 'notes.txt');
    writeFileSync(text, 'hello');
    await expectError(
      'get_heapsnapshot_summary',
      {filePath: text},
      /^Error: File .*notes\.txt must have a \.heapsnapshot or \.heaptimeline extension\.$/,
    );
    await expectError(
      'get_heapsnapshot_summary',
      {filePath: join(workspace, 'missing.heapsnapshot')},
      /does not exist\. Take one with take_heapsnapshot/,
    );
    const json = join(workspace, 'fake.heapsnapshot');
    writeFileSync(json, '{"hello": "world"}');
    await expectError('get_heapsnapshot_details', {filePath: json}, /fake\.heapsnapshot is not a V8 heap snapshot/);
    const empty = join(workspace, 'empty.heapsnapshot');
    writeFileSync(empty, '');
    await expectError('get_heapsnapshot_details', {filePath: empty}, /empty\.heapsnapshot is empty\./);
    await expectError('get_heapsnapshot_summary', {filePath: '/etc/passwd.heapsnapshot'}, /Access denied: path/);
  });

  it('says which snapshot is truncated or corrupt', async () => {
    const truncated = join(workspace, 'truncated.heapsnapshot');
    writeTruncatedCopy(good, truncated);
    await expectError(
      'get_heapsnapshot_summary',
      {filePath: truncated},
      /truncated\.heapsnapshot is truncated \(it ends while loading \w+/,
    );
    const corrupt = join(workspace, 'corrupt.heapsnapshot');
    writeCorruptCopy(good, corrupt);
    await expectError('get_heapsnapshot_summary', {filePath: corrupt}, /corrupt\.heapsnapshot is corrupt \(.*JSON/);
  });

  it('rejects ids that do not exist and malformed ranges', async () => {
    await expectError(
      'get_heapsnapshot_retainers',
      {filePath: good, nodeId: 987654321},
      /Node with ID 987654321 not found\./,
    );
    await expectError('get_heapsnapshot_object_details', {nodeId: 1.5}, /Node with ID 1\.5 not found\./);
    await expectError('get_heapsnapshot_class_nodes', {id: 99999}, /Class with ID 99999 not found in heap snapshot\./);
    await expectError(
      'compare_heapsnapshots',
      {baseFilePath: good, currentFilePath: good, classIndex: 5},
      /Invalid classIndex: 5\. Total classes with changes: 0/,
    );
    await expectError(
      'query_heapsnapshot_objects',
      {retainedSize: '12XB'},
      /"retainedSize": Unknown unit "XB" in "12XB"/,
    );
    await expectError(
      'get_heapsnapshot_edges',
      {nodeId: 1, retainedSize: '2MB-1MB'},
      /The lower bound must not exceed the upper bound/,
    );
    await expectError(
      'get_heapsnapshot_details',
      {filterName: 'attributedToSpecificNativeContext'},
      /objectId is required when filterName is attributedToSpecificNativeContext/,
    );
  });

  it('stays usable: the same snapshot answers after all of that', async () => {
    const summary = await mcp.call('get_heapsnapshot_summary', {filePath: good});
    assert.equal(summary.isError, false, summary.text);
    assert.match(summary.text, /^## Heap Snapshot Data\nStatistics:/);
  });

  it('restarts the heap analysis process when it is killed', async () => {
    const [host] = await heapHosts(mcp.pid);
    assert.ok(host, 'the heap host runs while a snapshot is loaded');
    // Right away: the request may reach the dying host, which never takes it; it goes to a new one.
    process.kill(host, 'SIGKILL');
    const details = await mcp.call('get_heapsnapshot_details', {filePath: good, pageSize: 1});
    assert.equal(details.isError, false, details.text);
    assert.match(details.text, /^## Heap Snapshot Data\nObjects: \d+/);
    const [restarted] = await heapHosts(mcp.pid);
    assert.ok(restarted && restarted !== host, 'a new heap host runs');
  });

  it('reports load progress when the client asks for it', async () => {
    const messages: string[] = [];
    await mcp.client.callTool({name: 'get_heapsnapshot_details', arguments: {filePath: good, pageSize: 1}}, undefined, {
      timeout: 120_000,
      onprogress: p => messages.push(p.message ?? ''),
    });
    // Loaded already: no progress. A fresh load reports reading and computing.
    assert.equal(messages.length, 0);
    await mcp.call('close_heapsnapshot', {filePath: good});
    await mcp.client.callTool({name: 'get_heapsnapshot_details', arguments: {filePath: good, pageSize: 1}}, undefined, {
      timeout: 120_000,
      onprogress: p => messages.push(p.message ?? ''),
    });
    // The first step goes out at once; later ones are throttled (one per
    // 500 ms, and a step held when the call ends is dropped), so the computing
    // step shows only when it outlasts the interval: when shown, it is last.
    const computing = 'Heap snapshot read; computing distances, dominators and retained sizes';
    assert.match(messages[0] ?? '', /^Loading heap snapshot: \d+% of [\d.]+ MB$/, messages.join('|'));
    const percents = messages
      .filter(m => m !== computing)
      .map(m => Number(/^Loading heap snapshot: (\d+)% of [\d.]+ MB$/.exec(m)?.[1]));
    assert.ok(
      percents.every((n, i) => Number.isFinite(n) && (i === 0 || n >= (percents[i - 1] ?? 0))),
      messages.join('|'),
    );
    assert.ok(!messages.includes(computing) || messages.at(-1) === computing, messages.join('|'));
  });

  it('stops the heap analysis process with its last snapshot', async () => {
    assert.equal((await mcp.call('close_heapsnapshot', {filePath: good})).isError, false);
    assert.deepEqual(await heapHosts(mcp.pid), []);
  });
});

describe('heap snapshots: the heap host never outlives the server', () => {
  it('exits when the server is killed', async () => {
    const workspace = mkdtempSync(join(process.cwd(), '.ws-heap-kill-'));
    // Any snapshot keeps a host running: a small well-formed one, so no browser is started for it.
    const snapshot = join(workspace, 'one.heapsnapshot');
    writeStringHeavySnapshot(snapshot, 100);
    const mcp = await startServer({args: MEMORY_FLAGS, roots: [pathToFileURL(workspace).href]});
    try {
      const summary = await mcp.call('get_heapsnapshot_summary', {filePath: snapshot});
      assert.equal(summary.isError, false, summary.text);
      const [host] = await heapHosts(mcp.pid);
      assert.ok(host);
      process.kill(mcp.pid ?? 0, 'SIGKILL');
      // The host sees its IPC channel close and exits: wait for that, bounded.
      const deadline = Date.now() + 10_000;
      while ((await findProcesses(HEAP_HOST)).includes(host) && Date.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 50));
      }
      assert.equal((await findProcesses(HEAP_HOST)).includes(host), false, 'the heap host exited');
    } finally {
      await mcp.close().catch(() => undefined);
      rmSync(workspace, {recursive: true, force: true});
    }
  });
});

describe('heap snapshots: memory limits', () => {
  let fixtures: FixtureServer;
  let workspace: string;
  let snapshots: string[];

  before(async () => {
    workspace = mkdtempSync(join(process.cwd(), '.ws-heap-limit-'));
    fixtures = await new FixtureServer().start();
    fixtures.html('/leak', LEAK_PAGE);
    const taker = await startServer({args: MEMORY_FLAGS, roots: [pathToFileURL(workspace).href]});
    await taker.call('navigate_page', {url: fixtures.url('/leak')});
    const [one, two] = [join(workspace, 'one.heapsnapshot'), join(workspace, 'two.heapsnapshot')];
    snapshots = [one, two];
    // Two files of a real snapshot's size: the limits count files, so the second may be a copy.
    await taker.call('take_heapsnapshot', {filePath: one});
    copyFileSync(one, two);
    await taker.close();
  });

  after(async () => {
    await fixtures?.stop();
    rmSync(workspace, {recursive: true, force: true});
  });

  const withLimit = async (mb: number, work: (mcp: TestServer) => Promise<void>) => {
    const mcp = await startServer({
      args: [...MEMORY_FLAGS, `--heapSnapshotMemoryLimit=${mb}`],
      roots: [pathToFileURL(workspace).href],
    });
    try {
      await work(mcp);
    } finally {
      await mcp.close();
    }
  };

  it('refuses a snapshot bigger than the limit before loading it', async () => {
    await withLimit(20, async mcp => {
      const result = await mcp.call('get_heapsnapshot_summary', {filePath: snapshots[0]});
      assert.equal(result.isError, true);
      assert.match(
        result.text,
        /one\.heapsnapshot is \d+ MB; analyzing it needs about \d+ MB, more than the heap analysis limit of 20 MB\. Start the server with a larger --heapSnapshotMemoryLimit/,
      );
    });
  });

  it('unloads the least recently used snapshot to stay within the limit, and says so', async () => {
    await withLimit(45, async mcp => {
      const [one = '', two = ''] = snapshots;
      assert.equal((await mcp.call('get_heapsnapshot_summary', {filePath: one})).isError, false);
      const second = await mcp.call('get_heapsnapshot_summary', {filePath: two});
      assert.match(
        second.text,
        new RegExp(
          `^Note: unloaded heap snapshot ${one.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(least recently used\\) to stay within the heap analysis memory limit of 45 MB\\. It is loaded again when a tool needs it\\.\n## Heap Snapshot Data\n`,
        ),
      );
      const closed = await mcp.call('close_heapsnapshot', {filePath: one});
      assert.match(closed.text, /was not loaded/);
      // A compare needs both at once: neither is unloaded for the other.
      const diff = await mcp.call('compare_heapsnapshots', {baseFilePath: one, currentFilePath: two});
      assert.equal(diff.isError, false, diff.text);
      assert.match(diff.text, /### Heap Snapshot Diff\n/);
    });
  });

  it('reports a snapshot that exhausts the analysis memory, then keeps working', async () => {
    const heavy = join(workspace, 'heavy.heapsnapshot');
    // 15 MB of short strings: within what the limit admits (it needs 24 MB + 2.5 times
    // the file, 61 MB), but parsed they need about 85 MB. At the lowest limit
    // (the analysis thread gets 64 MB at least), so running out costs less.
    writeStringHeavySnapshot(heavy, 2_100_000);
    await withLimit(64, async mcp => {
      const result = await mcp.call('get_heapsnapshot_summary', {filePath: heavy});
      assert.equal(result.isError, true);
      assert.match(
        result.text,
        /heavy\.heapsnapshot ran out of memory\. Loading it needs more than the heap analysis limit of 64 MB/,
      );
      const next = await mcp.call('get_heapsnapshot_summary', {filePath: snapshots[0]});
      assert.equal(next.isError, false, next.text);
    });
    assert.ok(existsSync(heavy));
  });
});
