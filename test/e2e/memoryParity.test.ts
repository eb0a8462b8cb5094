import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {pathToFileURL} from 'node:url';

import {FixtureServer} from '../support/fixtureServer.js';
import {LEAK_PAGE} from '../support/heapFixtures.js';
import {CHROME_PATH, startServer, type TestServer} from '../support/mcpClient.js';
import {requireTestDep} from '../support/testDeps.js';

const require = createRequire(import.meta.url);
const CDM_BIN = join(
  dirname(requireTestDep.resolve('chrome-devtools-mcp/package.json')),
  'build/src/bin/chrome-devtools-mcp.js',
);
// chrome-devtools-mcp's DevTools code needs ES2024 built-ins that Node 20 lacks.
const CORE_JS = require.resolve('core-js/actual/index.js');

/** The same calls on chrome-devtools-mcp 1.11 and on us, on the same snapshot files: same text. */
describe('heap analysis matches chrome-devtools-mcp 1.11 on the same snapshots', () => {
  let fixtures: FixtureServer;
  let ours: TestServer;
  let theirs: TestServer;
  let workspace: string;
  let base: string;
  let current: string;

  before(async () => {
    workspace = mkdtempSync(join(process.cwd(), '.ws-heap-parity-'));
    const roots = [pathToFileURL(workspace).href];
    fixtures = await new FixtureServer().start();
    fixtures.html('/leak', LEAK_PAGE);
    // Whole outputs, as the reference gives them.
    ours = await startServer({args: ['--no-page-id-routing', '--memoryDebugging', '--maxOutputChars', '0'], roots});
    await ours.call('navigate_page', {url: fixtures.url('/leak')});
    base = join(workspace, 'base.heapsnapshot');
    current = join(workspace, 'current.heapsnapshot');
    await ours.call('take_heapsnapshot', {filePath: base});
    await ours.call('evaluate_script', {function: '() => document.getElementById("grow").click()'});
    await ours.call('take_heapsnapshot', {filePath: current});
    theirs = await startServer({
      bin: CDM_BIN,
      replaceFlags: true,
      args: [
        '--executablePath',
        CHROME_PATH,
        '--headless',
        '--isolated',
        '--chromeArg=--no-sandbox',
        '--no-usage-statistics',
        '--no-performance-crux',
        '--no-page-id-routing',
        '--memoryDebugging',
      ],
      env: {NODE_OPTIONS: `--require ${CORE_JS}`, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'},
      roots,
    });
  });

  after(async () => {
    await ours?.close();
    await theirs?.close();
    await fixtures?.stop();
    rmSync(workspace, {recursive: true, force: true});
  });

  const same = async (tool: string, args: Record<string, unknown>, ourText = (text: string) => text) => {
    const [a, b] = [await theirs.call(tool, args), await ours.call(tool, args)];
    assert.equal(b.isError, a.isError, `${tool}: ${b.text}`);
    assert.equal(ourText(b.text), a.text, tool);
    return a.text;
  };

  it('has the same parameters (ours take the file path as optional)', async () => {
    const schemas = async (server: TestServer) =>
      Object.fromEntries(
        (await server.client.listTools()).tools
          .filter(t => t.name.includes('heapsnapshot'))
          .map(t => [t.name, t.inputSchema]),
      );
    const [theirTools, ourTools] = [await schemas(theirs), await schemas(ours)];
    assert.deepEqual(Object.keys(ourTools).sort(), Object.keys(theirTools).sort());
    for (const [name, schema] of Object.entries(theirTools)) {
      const mine = ourTools[name];
      const types = (s: typeof schema) =>
        Object.fromEntries(
          Object.entries(s.properties ?? {}).map(([p, v]) => [
            p,
            [(v as {type?: string}).type, (v as {enum?: unknown}).enum],
          ]),
        );
      assert.deepEqual(types(mine ?? schema), types(schema), name);
      const optional = new Set(['filePath', 'baseFilePath', 'currentFilePath']);
      const required = (s: typeof schema) =>
        (s.required ?? []).filter(p => name === 'take_heapsnapshot' || !optional.has(p));
      assert.deepEqual(required(mine ?? schema).sort(), required(schema).sort(), name);
    }
  });

  it('summarises and lists classes alike', async () => {
    await same('get_heapsnapshot_summary', {filePath: base});
    await same('get_heapsnapshot_details', {filePath: current});
    await same('get_heapsnapshot_details', {filePath: current, pageSize: 7, pageIdx: 2, maxNameLength: 12});
    await same('get_heapsnapshot_details', {filePath: current, filterName: 'objectsRetainedByEventHandlers'});
    await same('get_heapsnapshot_duplicate_strings', {filePath: current, pageSize: 4});
    await same('query_heapsnapshot_objects', {filePath: current, className: 'Leaky', pageSize: 5});
    await same('query_heapsnapshot_objects', {filePath: current, nodeType: 'string', selfSize: '100B-', sortBy: 'id'});
  });

  it('answers the same about one object', async () => {
    const details = await same('get_heapsnapshot_details', {filePath: current});
    const classId = /\n(\d+),LeakyWidget,/.exec(details)?.[1];
    const nodes = await same('get_heapsnapshot_class_nodes', {filePath: current, id: Number(classId), pageSize: 4});
    const nodeId = Number(/\n(\d+),LeakyWidget,/.exec(nodes)?.[1]);
    assert.ok(nodeId > 0, nodes);
    await same('get_heapsnapshot_retainers', {filePath: current, nodeId});
    await same('get_heapsnapshot_edges', {filePath: current, nodeId});
    await same('get_heapsnapshot_edges', {filePath: current, nodeId, sortBy: 'name', excludePrimitives: false});
    await same('get_heapsnapshot_dominators', {filePath: current, nodeId});
    await same('get_heapsnapshot_retaining_paths', {filePath: current, nodeId, maxDepth: 8, maxSiblings: 3});
    await same('get_heapsnapshot_object_details', {filePath: current, nodeId});
  });

  it('diffs the same, our leak verdict coming after the reference text', async () => {
    const withoutVerdict = (text: string) => text.slice(0, text.indexOf('\n### Leak Verdict'));
    const diff = await same('compare_heapsnapshots', {baseFilePath: base, currentFilePath: current}, withoutVerdict);
    const index = diff
      .split('\n')
      .find(line => line.split(',')[1] === 'LeakyWidget')
      ?.split(',')[0];
    await same(
      'compare_heapsnapshots',
      {baseFilePath: base, currentFilePath: current, pageSize: 5, pageIdx: 1},
      withoutVerdict,
    );
    await same('compare_heapsnapshots', {baseFilePath: base, currentFilePath: current, classIndex: Number(index)});
  });

  it('fails the same way on a missing node and class, and on closing twice', async () => {
    await same('get_heapsnapshot_class_nodes', {filePath: current, id: 99999}, text =>
      text.replace(/\. Class ids are in the first column of get_heapsnapshot_details\.$/, ''),
    );
    await same('close_heapsnapshot', {filePath: base});
    await same('close_heapsnapshot', {filePath: base});
  });
});
