import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {BrowserManager} from '../../src/browser/core/BrowserManager.js';
import {type Config, DEFAULT_CONFIG, parseConfig} from '../../src/config/options.js';
import {HeapSnapshots} from '../../src/devtools/heap/HeapSnapshots.js';
import {Pipeline} from '../../src/server/pipeline.js';
import {createTools} from '../../src/tools/registry.js';
import {PathSandbox} from '../../src/util/sandbox.js';

function pipeline(config: Config = DEFAULT_CONFIG): Pipeline {
  return new Pipeline({
    tools: createTools(config),
    config,
    browsers: new BrowserManager(config),
    files: new PathSandbox(),
    heap: new HeapSnapshots(),
  });
}

describe('tool registry', () => {
  const tools = createTools(DEFAULT_CONFIG);

  it('sorts tools by name and has unique snake_case names', () => {
    const names = tools.map(t => t.tool.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
    assert.equal(new Set(names).size, names.length);
    for (const name of names) {
      assert.match(name, /^[a-z][a-z0-9_]*$/);
    }
  });

  it('emits flat object JSON Schemas with every parameter described', () => {
    for (const {tool, inputSchema} of tools) {
      assert.equal(inputSchema['type'], 'object', tool.name);
      assert.equal(inputSchema['$schema'], 'https://json-schema.org/draft/2020-12/schema', tool.name);
      assert.equal(inputSchema['additionalProperties'], false, tool.name);
      const properties = inputSchema['properties'] as Record<string, {description?: string; type?: string}>;
      for (const [param, schema] of Object.entries(properties)) {
        assert.ok(schema.description, `${tool.name}.${param} has no description`);
        assert.notEqual(schema.type, 'object', `${tool.name}.${param} is a nested object`);
      }
      assert.ok(tool.description.length > 20, tool.name);
    }
  });

  it('adds a required pageId to page-scoped tools unless routing is off', () => {
    const navigate = tools.find(t => t.tool.name === 'navigate_page');
    assert.ok(navigate);
    assert.ok((navigate.inputSchema['required'] as string[]).includes('pageId'));
    const list = tools.find(t => t.tool.name === 'list_pages');
    assert.deepEqual(Object.keys(list?.inputSchema['properties'] as object), []);
    const unrouted = createTools(parseConfig(['--no-page-id-routing'])).find(t => t.tool.name === 'navigate_page');
    assert.equal((unrouted?.inputSchema['properties'] as Record<string, unknown>)['pageId'], undefined);
  });

  it('matches the parameter shapes of chrome-devtools-mcp 1.11', () => {
    const shape = (name: string) =>
      Object.keys(tools.find(t => t.tool.name === name)?.inputSchema['properties'] ?? {}).sort();
    // Plus the opt-in effect (issue 22), absent from the default answer.
    assert.deepEqual(shape('navigate_page'), [
      'effect',
      'handleBeforeUnload',
      'ignoreCache',
      'initScript',
      'pageId',
      'timeout',
      'type',
      'url',
    ]);
    assert.deepEqual(shape('new_page'), ['background', 'isolatedContext', 'timeout', 'url']);
    assert.deepEqual(shape('take_screenshot'), ['filePath', 'format', 'fullPage', 'pageId', 'quality', 'uid']);
    assert.deepEqual(shape('evaluate_script'), [
      'args',
      'dialogAction',
      'filePath',
      'format',
      'function',
      'pageId',
      'sourcePath',
      'waitForStableDom',
    ]);
    assert.deepEqual(shape('wait_for'), ['pageId', 'text', 'timeout']);
    assert.deepEqual(shape('select_page'), ['bringToFront', 'pageId']);
  });

  it('offers serviceWorkerId as chrome-devtools-mcp 1.11 does, per flag set', () => {
    const schemaOf = (args: string[], name: string) => {
      const schema = createTools(parseConfig(args)).find(t => t.tool.name === name)?.inputSchema;
      return {params: Object.keys(schema?.['properties'] ?? {}), required: (schema?.['required'] as string[]) ?? []};
    };
    const plain = schemaOf([], 'evaluate_script');
    assert.ok(!plain.params.includes('serviceWorkerId'));
    assert.ok(plain.required.includes('pageId'));
    const withExtensions = schemaOf(['--categoryExtensions'], 'evaluate_script');
    assert.deepEqual(withExtensions.params.slice(0, 1), ['pageId']);
    assert.equal(withExtensions.params.at(-1), 'serviceWorkerId');
    assert.ok(!withExtensions.required.includes('pageId'));
    const unrouted = schemaOf(['--categoryExtensions', '--no-page-id-routing'], 'evaluate_script');
    assert.ok(unrouted.params.includes('serviceWorkerId') && !unrouted.params.includes('pageId'));
    for (const args of [[], ['--categoryExtensions']]) {
      assert.equal(schemaOf(args, 'list_console_messages').params.at(-1), 'serviceWorkerId');
    }
  });

  it('hides disabled categories and says which flag enables them', async () => {
    const config = parseConfig(['--categoryEmulation=false']);
    const p = pipeline(config);
    assert.equal(
      p.listed().some(t => t.tool.name === 'resize_page'),
      false,
    );
    const r = await p.call('resize_page', {pageId: 1, width: 1, height: 1});
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      'Tool resize_page is in category Emulation which is currently disabled. Restart the server with --categoryEmulation=true to enable it.',
    );
  });
});

describe('memory tools', () => {
  const memoryNames = (config: Config) =>
    pipeline(config)
      .listed()
      .map(t => t.tool.name)
      .filter(n => n.includes('heapsnapshot'));

  it('offers take_heapsnapshot by default and the 13 analysis tools with --memoryDebugging', () => {
    assert.deepEqual(memoryNames(DEFAULT_CONFIG), ['take_heapsnapshot']);
    assert.deepEqual(memoryNames(parseConfig(['--experimentalMemory'])), [
      'analyze_heapsnapshot_contexts',
      'close_heapsnapshot',
      'compare_heapsnapshots',
      'get_heapsnapshot_class_nodes',
      'get_heapsnapshot_details',
      'get_heapsnapshot_dominators',
      'get_heapsnapshot_duplicate_strings',
      'get_heapsnapshot_edges',
      'get_heapsnapshot_object_details',
      'get_heapsnapshot_retainers',
      'get_heapsnapshot_retaining_paths',
      'get_heapsnapshot_summary',
      'query_heapsnapshot_objects',
      'take_heapsnapshot',
    ]);
  });

  it('says which flag enables an analysis tool', async () => {
    const r = await pipeline().call('get_heapsnapshot_summary', {filePath: '/tmp/x.heapsnapshot'});
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      'Tool get_heapsnapshot_summary requires flag --memoryDebugging and is currently disabled. Restart the server with --memoryDebugging=true to enable it.',
    );
  });
});

describe('pipeline argument checks (no browser needed)', () => {
  const p = pipeline();

  it('rejects unknown arguments, naming the expected ones', async () => {
    const r = await p.call('select_page', {pageId: 1, bogus: 1});
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      'Unknown argument for tool "select_page": "bogus". Expected arguments: "pageId", "bringToFront". Remove it and retry.',
    );
    const many = await p.call('list_pages', {a: 1, b: 2});
    assert.equal(
      many.text,
      'Unknown arguments for tool "list_pages": "a", "b". This tool does not accept any arguments. Remove them and retry.',
    );
  });

  it('names the parameter in validation errors', async () => {
    const r = await p.call('new_page', {url: 5});
    assert.equal(r.isError, true);
    assert.match(
      r.text,
      /^Invalid arguments for tool "new_page": "url": Invalid type: Expected string but received 5\. Fix it and retry\.$/,
    );
    const missing = await p.call('select_page', {});
    assert.match(missing.text, /"pageId" is required\. Fix it and retry\./);
    const enumBad = await p.call('take_screenshot', {pageId: 1, format: 'gif'});
    assert.match(enumBad.text, /"format": Invalid type: Expected \("png" \| "jpeg" \| "webp"\) but received "gif"/);
    const emptyList = await p.call('wait_for', {pageId: 1, text: []});
    assert.match(emptyList.text, /"text": text needs at least one string\./);
  });

  it('rejects non-object arguments and unknown tools', async () => {
    assert.match((await p.call('list_pages', [1])).text, /must be a JSON object/);
    await assert.rejects(p.call('navigate_to', {}), {
      code: -32602,
      message: /^Unknown tool "navigate_to"\. Did you mean "navigate_page"/,
    });
    // A tool of the other mode is known: it says which flag offers it.
    const slimOnly = await p.call('navigate', {});
    assert.equal(slimOnly.text, 'Tool navigate is only available with --slim.');
  });
});

describe('screencast_start', () => {
  it('keeps the legacy recorder to .mp4 and .webm, any case, .mp4 when there is none', async () => {
    const {legacyExtension} = await import('../../src/tools/screencast.js');
    assert.equal(legacyExtension('/x/clip.WEBM'), '.webm');
    assert.equal(legacyExtension('/x/clip.mp4'), '.mp4');
    assert.equal(legacyExtension('/x/clip'), '.mp4');
    assert.equal(legacyExtension(undefined), '.mp4');
    assert.throws(
      () => legacyExtension('/x/clip.gif'),
      /^Error: Unsupported screencast file extension "\.gif"\. Supported formats: \.webm, \.mp4 \(case-insensitive\)\.$/,
    );
  });

  it('describes what the configured recorder writes', () => {
    const describeFile = (config: Config) =>
      (
        createTools(config).find(t => t.tool.name === 'screencast_start')?.inputSchema['properties'] as Record<
          string,
          {description: string}
        >
      )['filePath']?.description;
    assert.match(describeFile(DEFAULT_CONFIG) ?? '', /saved as \.mp4/);
    assert.match(describeFile(parseConfig(['--experimentalScreencast'])) ?? '', /\.mp4 or \.webm/);
  });
});
