/**
 * The modes of chrome-devtools-mcp 1.11: `--slim` (three tools, bare
 * answers) and `--experimentalStructuredContent` (every result carries JSON
 * that validates against the tool's outputSchema), each side by side with
 * the reference where their outputs can be compared.
 */
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {Ajv2020} from 'ajv/dist/2020.js';

import {FixtureServer} from '../support/fixtureServer.js';
import type {TestServer} from '../support/mcpClient.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

const PNG_MAGIC = '89504e47';
const PORTS = /127\.0\.0\.1:\d+/g;

interface Structured {
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
}

async function callFull(server: TestServer, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await server.client.callTool({name, arguments: args});
  const content = result.content as Array<{type: string; text?: string}>;
  return {
    text: content
      .filter(c => c.type === 'text')
      .map(c => c.text ?? '')
      .join('\n'),
    isError: result.isError === true,
    structured: result.structuredContent as Record<string, unknown> | undefined,
  };
}

function shapeOf(server: TestServer) {
  return async () => {
    const {tools} = await server.client.listTools();
    return tools.map(tool => ({
      name: tool.name,
      properties: Object.keys(tool.inputSchema.properties ?? {}),
      required: tool.inputSchema.required ?? [],
      readOnly: tool.annotations?.readOnlyHint,
    }));
  };
}

describe('--slim', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/slim', '<title>Slim</title><h1>slim page</h1>');
    pair = await startOraclePair({args: ['--slim'], record: 'modes-slim'});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  it('lists the three slim tools with the reference schemas', async () => {
    const ours = await shapeOf(pair.ours)();
    assert.deepEqual(
      ours.map(t => t.name),
      ['evaluate', 'navigate', 'screenshot'],
    );
    assert.deepEqual(ours, await shapeOf(pair.theirs)());
  });

  it('answers navigate and evaluate with the reference texts', async () => {
    const url = fixtures.url('/slim');
    const calls: Array<[string, Record<string, unknown>]> = [
      ['navigate', {url}],
      ['evaluate', {script: '1 + 2'}],
      ['evaluate', {script: 'document.title'}],
      ['evaluate', {script: '({a: [1, "x"]})'}],
      ['evaluate', {script: 'undefined'}],
      ['evaluate', {script: 'throw new Error("test error")'}],
    ];
    for (const [name, args] of calls) {
      const [ours, theirs] = await Promise.all([pair.ours.call(name, args), pair.theirs.call(name, args)]);
      assert.deepEqual(ours, theirs, `${name} ${JSON.stringify(args)}`);
    }
    assert.equal((await pair.ours.call('navigate', {url})).text, `Navigated to ${url}.`);
  });

  it('saves screenshots to a PNG file and answers with its path only', async () => {
    const result = await pair.ours.call('screenshot');
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(result.images, []);
    assert.match(result.text, /^\/\S+\.png$/);
    assert.ok(existsSync(result.text));
    assert.equal(readFileSync(result.text).subarray(0, 4).toString('hex'), PNG_MAGIC);
  });

  it('refuses the full tools with the flag that offers them', async () => {
    const result = await pair.ours.call('list_pages');
    assert.equal(result.isError, true);
    assert.equal(result.text, 'Tool list_pages is not available with --slim.');
  });
});

describe('--experimentalStructuredContent', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;
  const ajv = new Ajv2020({strict: false, allErrors: true});
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html(
      '/app',
      `<!doctype html><link rel="icon" href="data:,"><title>App</title><h1>app</h1><button onclick="document.title='clicked'">Go</button>
       <script>console.log('hello', 1); console.warn('careful'); fetch('/data.json');</script>`,
    );
    fixtures.route('/data.json', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'});
      res.end('{"ok":true}');
    });
    pair = await startOraclePair({
      args: ['--experimentalStructuredContent', '--memoryDebugging'],
      record: 'modes-structured',
    });
    const {tools} = await pair.ours.client.listTools();
    for (const tool of tools) {
      assert.ok(tool.outputSchema, `${tool.name} declares an outputSchema`);
      validators.set(tool.name, ajv.compile(tool.outputSchema));
    }
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  /** Calls one of our tools and checks its structured content against the tool's outputSchema. */
  async function checked(name: string, args: Record<string, unknown> = {}): Promise<Structured> {
    const result = await callFull(pair.ours, name, args);
    assert.ok(result.structured, `${name} has structuredContent`);
    const validate = validators.get(name);
    assert.ok(validate, name);
    assert.ok(validate(result.structured), `${name}: ${ajv.errorsText(validate.errors)}`);
    return result;
  }

  it('gives every tool an outputSchema that rejects unknown keys', () => {
    const validate = validators.get('list_pages');
    assert.ok(validate);
    assert.equal(validate({pages: [], bogus: 1}), false);
    assert.equal(validate({pages: [{id: 1}]}), false, 'a page without url, title and selected');
  });

  it('carries the reference keys and values for pages, console and network lists', async () => {
    const url = fixtures.url('/app');
    for (const server of [pair.ours, pair.theirs]) {
      await callFull(server, 'navigate_page', {pageId: 1, url});
      await callFull(server, 'wait_for', {pageId: 1, text: ['app']});
    }
    for (const [name, args] of [
      ['list_pages', {}],
      ['list_console_messages', {pageId: 1}],
      ['list_network_requests', {pageId: 1, resourceTypes: ['fetch']}],
      ['evaluate_script', {pageId: 1, function: '() => 6 * 7'}],
    ] as const) {
      const [ours, theirs] = await Promise.all([callFull(pair.ours, name, args), callFull(pair.theirs, name, args)]);
      const normalize = (value: unknown): unknown =>
        JSON.parse(JSON.stringify(value).replace(PORTS, '127.0.0.1:<port>'));
      // Beyond the reference: evaluate_script's result is a field of its own, besides the message.
      const {scriptResult, ...shared} = ours.structured ?? {};
      assert.deepEqual(normalize(shared), normalize(theirs.structured), name);
      assert.deepEqual(scriptResult, name === 'evaluate_script' ? 42 : undefined, name);
    }
  });
  it("validates every tool's structured content, successes and errors alike", async () => {
    const url = fixtures.url('/app');
    await checked('navigate_page', {pageId: 1, url});
    const snapshot = await checked('take_snapshot', {pageId: 1});
    const button = /uid=(\S+) button "Go"/.exec(snapshot.text)?.[1];
    assert.ok(button, snapshot.text);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['list_pages', {}],
      ['click', {pageId: 1, uid: button, includeSnapshot: true}],
      ['evaluate_script', {pageId: 1, function: '() => document.title'}],
      ['list_console_messages', {pageId: 1}],
      ['get_console_message', {pageId: 1, msgid: 1}],
      ['list_network_requests', {pageId: 1}],
      ['get_network_request', {pageId: 1, reqid: 1}],
      ['wait_for', {pageId: 1, text: ['app']}],
      ['emulate', {pageId: 1, colorScheme: 'dark', viewport: '800x600x1'}],
      ['take_screenshot', {pageId: 1}],
      ['new_page', {url}],
      ['select_page', {pageId: 1}],
      ['close_page', {pageId: 2}],
      ['get_console_message', {pageId: 1, msgid: 999}],
      ['navigate_page', {pageId: 1}],
      ['resize_page', {pageId: 1, width: 700, height: 500}],
    ];
    for (const [name, args] of calls) {
      await checked(name, args);
    }
    const object = await checked('evaluate_script', {pageId: 1, function: '() => ({n: [1, 2], s: "x", none: null})'});
    assert.deepEqual(object.structured?.['scriptResult'], {n: [1, 2], s: 'x', none: null});
    const {tools} = await pair.ours.client.listTools();
    const evaluate = tools.find(t => t.name === 'evaluate_script');
    assert.ok(evaluate?.outputSchema?.properties?.['scriptResult'], 'outputSchema declares scriptResult');
    const failed = await checked('get_console_message', {pageId: 1, msgid: 999});
    assert.equal(failed.isError, true);
    assert.equal(typeof failed.structured?.['errorMessage'], 'string');
  });

  it("validates the heap, Lighthouse and screencast tools' structured content", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cdp-mcp-modes-'));
    try {
      await checked('navigate_page', {pageId: 1, url: fixtures.url('/app')});
      const filePath = join(dir, 'app.heapsnapshot');
      const taken = await checked('take_heapsnapshot', {pageId: 1, filePath});
      assert.equal(taken.isError, false, taken.text);
      assert.equal(taken.structured?.['message'], `Heap snapshot saved to ${filePath}`);
      for (const name of ['get_heapsnapshot_summary', 'get_heapsnapshot_details']) {
        const heap = await checked(name, {filePath});
        assert.equal(heap.isError, false, heap.text);
        assert.match(String(heap.structured?.['heapSnapshotText']), /^## Heap Snapshot Data/, name);
      }
      const later = join(dir, 'later.heapsnapshot');
      assert.equal((await checked('take_heapsnapshot', {pageId: 1, filePath: later})).isError, false);
      const compared = await checked('compare_heapsnapshots', {baseFilePath: filePath, currentFilePath: later});
      assert.match(String(compared.structured?.['heapSnapshotText']), /^## Heap Snapshot Data/, compared.text);
      assert.equal((await checked('close_heapsnapshot', {filePath})).isError, false);
      const audit = await checked('lighthouse_audit', {pageId: 1, mode: 'snapshot', outputDirPath: dir});
      assert.equal(audit.isError, false, audit.text);
      assert.match(String(audit.structured?.['lighthouseText']), /^## Lighthouse audit results/);
      const started = await checked('screencast_start', {pageId: 1, filePath: join(dir, 'clip.mp4')});
      assert.equal(started.isError, false, started.text);
      await checked('screencast_stop', {pageId: 1});
      const idle = await checked('screencast_stop', {pageId: 1});
      assert.equal(idle.structured?.['errorMessage'], 'no active screencast recording to stop.');
    } finally {
      await rm(dir, {recursive: true, force: true});
    }
  });
});
