import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {SERVER_BIN, startServer} from '../support/mcpClient.js';
import {serveMappedBundle} from '../support/sourceMapFixture.js';

/** The stack of the page's uncaught "widget exploded" error, as get_console_message prints it. */
async function widgetStack(args: string[], url: string): Promise<string> {
  const mcp = await startServer({args});
  try {
    await mcp.call('navigate_page', {pageId: 1, url});
    await mcp.call('evaluate_script', {pageId: 1, function: '() => new Promise(r => setTimeout(r, 50))'});
    const list = (await mcp.call('list_console_messages', {pageId: 1})).text;
    const line = list.split('\n').find(l => /\[error\] Uncaught Error: widget exploded/.test(l));
    assert.ok(line, list);
    const r = await mcp.call('get_console_message', {pageId: 1, msgid: Number(/msgid=(\d+)/.exec(line)?.[1])});
    assert.equal(r.isError, false, r.text);
    return /\n### Stack trace\n((?:.+\n)+?)(?:\n|Note:|$)/.exec(r.text)?.[1] ?? r.text;
  } finally {
    await mcp.close();
  }
}

describe('--sourceMaps', () => {
  let fixtures: FixtureServer;
  let generated: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    generated = serveMappedBundle(fixtures);
    fixtures.html('/mapped', '<!doctype html><title>mapped</title><script src="/static/bundle.js"></script>');
  });

  after(async () => {
    await fixtures?.stop();
  });

  it('maps console stacks to the original sources by default, and shows generated locations with it off', async () => {
    const url = fixtures.url('/mapped');
    const [on, off, offKebab] = await Promise.all([
      widgetStack(['--sourceMaps=true'], url),
      widgetStack(['--sourceMaps=false'], url),
      widgetStack(['--no-source-maps'], url),
    ]);
    assert.equal(
      on,
      'at render (widget.ts:3:11)\nat mount (widget.ts:7:3)\nat <anonymous> (widget.ts:11:5)\n--- setTimeout -------------------------\nat <anonymous> (widget.ts:10:1)\n',
    );
    const col = (needle: string) => generated.indexOf(needle) + 1;
    assert.equal(
      off,
      `at render (bundle.js:1:${col('new Error')})\nat mount (bundle.js:1:${col('render()}setTimeout')})\nat <anonymous> (bundle.js:1:${col('mount()},0')})\n--- setTimeout -------------------------\nat <anonymous> (bundle.js:1:${col('setTimeout')})\n`,
    );
    assert.equal(offKebab, off);
  });

  it('rejects a value that is not true or false at startup with exit code 2', () => {
    const run = spawnSync(process.execPath, [SERVER_BIN, '--sourceMaps=off'], {encoding: 'utf8', input: ''});
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /--sourceMaps takes true or false, not "off"\./);
  });
});
