import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {SERVER_BIN, startServer, type TestServer} from '../support/mcpClient.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

const SCRIPT_REFUSAL = (scheme: string) =>
  `Error: Navigating to ${scheme} URLs is not allowed when JavaScript evaluation is disabled.`;
const FILE_REFUSAL = 'Error: Navigating to file: URLs is not allowed when --file-navigations is disabled.';

/** Every refused navigation, by tool, with the reference's text. */
const REFUSED: Array<[string, string]> = [
  ['javascript:void(document.title="ran")', SCRIPT_REFUSAL('javascript:')],
  ['data:text/html,<title>data</title>', SCRIPT_REFUSAL('data:')],
  ['vbscript:msgbox("x")', SCRIPT_REFUSAL('vbscript:')],
  ['file:///etc/hostname', FILE_REFUSAL],
  ['view-source:file:///etc/hostname', FILE_REFUSAL],
  ['view-source:view-source:file:///etc/hostname', FILE_REFUSAL],
  ['not a url', 'Error: Invalid URL: "not a url". URLs must be valid according to the URL standard.'],
];

async function refusals(server: TestServer): Promise<string[]> {
  const texts: string[] = [];
  for (const [url] of REFUSED) {
    const navigated = await server.call('navigate_page', {pageId: 1, type: 'url', url});
    assert.equal(navigated.isError, true, `navigate_page ${url}: ${navigated.text}`);
    const opened = await server.call('new_page', {url});
    assert.equal(opened.isError, true, `new_page ${url}: ${opened.text}`);
    texts.push(navigated.text, opened.text);
  }
  return texts;
}

describe('--no-javascript-evaluation and --no-file-navigations, against chrome-devtools-mcp 1.11', () => {
  let pair: OraclePair;

  before(async () => {
    pair = await startOraclePair({
      args: ['--no-javascript-evaluation', '--no-file-navigations'],
      record: 'evalFileRefusals',
    });
  });

  after(async () => {
    await pair?.close();
  });

  it('refuse script and file navigations in new_page and navigate_page with the reference texts', async () => {
    const [ours, theirs] = await Promise.all([refusals(pair.ours), refusals(pair.theirs)]);
    assert.deepEqual(
      ours,
      REFUSED.flatMap(([, text]) => [text, text]),
    );
    assert.deepEqual(ours, theirs);
    // Nothing was opened: the only page is still the first, blank one.
    const pages = await pair.ours.call('list_pages');
    assert.equal(pages.text, '## Pages\n1: about:blank [selected]');
  });

  it('drop the evaluate tools and initScript, and refuse initScript as an unknown argument', async () => {
    const [ourTools, theirTools] = await Promise.all([pair.ours.client.listTools(), pair.theirs.client.listTools()]);
    for (const {tools} of [ourTools, theirTools]) {
      assert.ok(!tools.some(t => t.name === 'evaluate_script'));
      const navigate = tools.find(t => t.name === 'navigate_page');
      assert.ok(navigate && !('initScript' in (navigate.inputSchema.properties ?? {})));
      const open = tools.find(t => t.name === 'new_page');
      assert.ok(open && !('initScript' in (open.inputSchema.properties ?? {})));
    }
    // tools.md's unknown-argument text (1.11 itself answers with the SDK's "Input validation error: …
    // Unrecognized key" there, for every tool: a difference of the argument check, not of this flag).
    const ours = await pair.ours.call('navigate_page', {
      pageId: 1,
      type: 'url',
      url: 'about:blank',
      initScript: 'document.title = "ran"',
    });
    assert.equal(ours.isError, true);
    assert.equal(
      ours.text,
      'Unknown argument for tool "navigate_page": "initScript". Expected arguments: "pageId", "type", "url", "ignoreCache", "handleBeforeUnload", "timeout", "effect". Remove it and retry.',
    );
    const opened = await pair.ours.call('new_page', {url: 'about:blank', initScript: 'document.title = "ran"'});
    assert.equal(opened.isError, true);
    assert.equal(
      opened.text,
      'Unknown argument for tool "new_page": "initScript". Expected arguments: "url", "background", "isolatedContext", "timeout". Remove it and retry.',
    );
    const evaluated = await pair.ours.call('evaluate_script', {pageId: 1, function: '() => 1'});
    assert.equal(
      evaluated.text,
      'Tool evaluate_script requires flag --javascriptEvaluation and is currently disabled. Restart the server with --javascriptEvaluation=true to enable it.',
    );
  });
});

describe('each switch refuses only its own navigations', () => {
  let fixtures: FixtureServer;
  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/plain', '<title>Plain</title>');
  });
  after(async () => {
    await fixtures?.stop();
  });

  it('--no-file-navigations still loads data: URLs; --no-javascript-evaluation still loads file: URLs', async () => {
    const [noFiles, noScripts] = await Promise.all([
      startServer({args: ['--no-file-navigations']}),
      startServer({args: ['--no-javascript-evaluation']}),
    ]);
    try {
      const data = await noFiles.call('navigate_page', {
        pageId: 1,
        type: 'url',
        url: 'data:text/html,<title>Data</title>',
      });
      assert.equal(data.isError, false, data.text);
      assert.match(data.text, /\n1: Data \(data:text\/html,<title>Data<\/title>\) \[selected\]$/);
      const file = await noScripts.call('navigate_page', {pageId: 1, type: 'url', url: 'file:///etc/hostname'});
      assert.equal(file.isError, false, file.text);
      assert.match(file.text, /\n1: file:\/\/\/etc\/hostname \[selected\]$/);
      // And plain web pages load under both.
      for (const server of [noFiles, noScripts]) {
        const web = await server.call('new_page', {url: fixtures.url('/plain')});
        assert.equal(web.isError, false, web.text);
      }
    } finally {
      await Promise.all([noFiles.close(), noScripts.close()]);
    }
  });
});

describe('bad values of the switches', () => {
  it('stop the server at startup with exit code 2', () => {
    for (const [arg, message] of [
      ['--javascriptEvaluation=no', /--javascriptEvaluation takes true or false, not "no"\./],
      ['--fileNavigations=0', /--fileNavigations takes true or false, not "0"\./],
    ] as const) {
      const run = spawnSync(process.execPath, [SERVER_BIN, arg], {encoding: 'utf8', input: ''});
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, message);
    }
  });
});
