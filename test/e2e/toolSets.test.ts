/**
 * Under each flag set of chrome-devtools-mcp 1.11, the server lists the same
 * tool names as the reference (test/fixtures/cdm-1.11-tool-names-by-flag.txt,
 * from its tools/list; update it when we follow a newer release). What the
 * test expects is driven from the registry: every reference tool has a
 * definition here, and every tool we define is listed exactly where the
 * reference lists it.
 */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {after, before, describe, it} from 'node:test';

import {DEFAULT_CONFIG, parseConfig} from '../../src/config/options.js';
import {createTools} from '../../src/tools/registry.js';
import {REPO_ROOT} from '../support/goldens.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

const REFERENCE = `${REPO_ROOT}test/fixtures/cdm-1.11-tool-names-by-flag.txt`;

interface FlagSet {
  flags: string[];
  names: string[];
}

function readReference(): FlagSet[] {
  return readFileSync(REFERENCE, 'utf8')
    .split('\n')
    .filter(line => line.trim())
    .map(line => {
      const [set = '', count = '', ...names] = line.trim().split(/\s+/);
      assert.equal(names.length, Number(count), `the count of "${set}" matches its names`);
      return {flags: set === '(default)' ? [] : [set], names};
    });
}

/** Every tool name our definitions have, under any mode; `beyond`: ours only (not in chrome-devtools-mcp). */
function definedNames(): {defined: Set<string>; beyond: Set<string>} {
  const configs = [DEFAULT_CONFIG, parseConfig(['--slim'])];
  const tools = configs.flatMap(config => createTools(config).map(t => t.tool));
  return {
    defined: new Set(tools.filter(t => !t.beyondReference).map(t => t.name)),
    beyond: new Set(tools.filter(t => t.beyondReference).map(t => t.name)),
  };
}

describe('tool names under every flag set of chrome-devtools-mcp 1.11', () => {
  const reference = readReference();
  const {defined, beyond} = definedNames();

  it('defines every reference tool', () => {
    const all = new Set(reference.flatMap(set => set.names));
    const missing = [...all].filter(name => !defined.has(name));
    assert.deepEqual(missing, [], 'reference tools with no definition here');
    const extra = [...defined].filter(name => !all.has(name));
    assert.deepEqual(extra, [], 'tools here that the reference never lists (mark ours-only ones beyondReference)');
    const misMarked = [...beyond].filter(name => all.has(name));
    assert.deepEqual(misMarked, [], 'reference tools marked beyondReference');
  });

  for (const {flags, names} of reference) {
    it(`lists the reference's tools with ${flags.join(' ') || 'no flags'}`, async () => {
      const server = await startServer({args: flags});
      try {
        const {tools} = await server.client.listTools();
        const listed = tools.map(tool => tool.name).filter(name => !beyond.has(name));
        assert.deepEqual(listed, names);
      } finally {
        await server.close();
      }
    });
  }
});

describe('gated tools called anyway', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({args: ['--categoryNetwork=false', '--no-javascript-evaluation']});
  });
  after(() => server.close());

  it('answer with the flag that turns their category on', async () => {
    const {tools} = await server.client.listTools();
    assert.ok(!tools.some(tool => tool.name === 'list_network_requests'));
    const result = await server.call('list_network_requests', {pageId: 1});
    assert.equal(result.isError, true);
    assert.equal(
      result.text,
      'Tool list_network_requests is in category Network which is currently disabled. Restart the server with --categoryNetwork=true to enable it.',
    );
  });

  it('answer with the flag their condition names', async () => {
    const vision = await server.call('click_at', {pageId: 1, x: 1, y: 1});
    assert.equal(
      vision.text,
      'Tool click_at requires experimental feature --experimentalVision and is currently disabled. Restart the server with --experimentalVision=true to enable it.',
    );
    const evaluate = await server.call('evaluate_script', {pageId: 1, function: '() => 1'});
    assert.equal(
      evaluate.text,
      'Tool evaluate_script requires flag --javascriptEvaluation and is currently disabled. Restart the server with --javascriptEvaluation=true to enable it.',
    );
    const heap = await server.call('get_heapsnapshot_summary', {filePath: '/tmp/x.heapsnapshot'});
    assert.equal(
      heap.text,
      'Tool get_heapsnapshot_summary requires flag --memoryDebugging and is currently disabled. Restart the server with --memoryDebugging=true to enable it.',
    );
  });
});
