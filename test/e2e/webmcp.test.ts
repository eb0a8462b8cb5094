/**
 * `--categoryExperimentalWebmcp` against real Chromium (launched with
 * `--enable-features=WebMCP`), side by side with the reference: a fixture
 * page registers tools with document.modelContext.registerTool.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

const TOOLS_PAGE = `<!doctype html><link rel="icon" href="data:,"><title>Tools</title><p>tools</p><script>
  document.modelContext.registerTool({
    name: 'greet',
    description: 'Greets someone',
    inputSchema: {type: 'object', properties: {who: {type: 'string'}}, required: ['who']},
    execute: async ({who}) => 'hello ' + who,
  });
  document.modelContext.registerTool({
    name: 'fail',
    description: 'Always fails',
    execute: async () => { throw new Error('boom'); },
  });
</script>`;

describe('--categoryExperimentalWebmcp', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/tools', TOOLS_PAGE);
    fixtures.html('/plain', '<!doctype html><link rel="icon" href="data:,"><title>Plain</title><p>plain</p>');
    // The reference leaves the feature to the user; we turn it on ourselves (the flag repeated is harmless).
    pair = await startOraclePair({
      args: ['--categoryExperimentalWebmcp', '--chromeArg=--enable-features=WebMCP'],
      record: 'webmcp',
    });
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  async function both(name: string, args: Record<string, unknown> = {}): Promise<{text: string; isError: boolean}> {
    const [ours, theirs] = await Promise.all([pair.ours.call(name, args), pair.theirs.call(name, args)]);
    // JSON.parse's message is the Node.js runtime's: Node 22 adds "(line 1 column 2)", and the
    // reference's answers are recorded on another Node than this run's may be.
    const text = (t: string) => t.replace(/127\.0\.0\.1:\d+/g, '<host>').replace(/ \(line \d+ column \d+\)/g, '');
    assert.deepEqual(
      {...ours, text: text(ours.text)},
      {...theirs, text: text(theirs.text)},
      `${name} ${JSON.stringify(args)}`,
    );
    return ours;
  }

  it('lists none on a page without tools', async () => {
    await both('navigate_page', {pageId: 1, url: fixtures.url('/plain')});
    assert.equal((await both('list_webmcp_tools', {pageId: 1})).text, '## WebMCP tools\nNo WebMCP tools available.');
  });

  it("lists the page's tools", async () => {
    await both('navigate_page', {pageId: 1, url: fixtures.url('/tools')});
    await both('wait_for', {pageId: 1, text: ['tools']});
    const listed = await both('list_webmcp_tools', {pageId: 1});
    assert.match(listed.text, /^## WebMCP tools\nname="greet", description="Greets someone", inputSchema=\{/);
  });

  it('runs a tool and reports its failures', async () => {
    const greeted = await both('execute_webmcp_tool', {pageId: 1, toolName: 'greet', input: '{"who":"Ada"}'});
    assert.equal(greeted.text, '{\n  "status": "Completed",\n  "output": "hello Ada"\n}');
    await both('execute_webmcp_tool', {pageId: 1, toolName: 'fail'});
    await both('execute_webmcp_tool', {pageId: 1, toolName: 'nope', input: '{}'});
    await both('execute_webmcp_tool', {pageId: 1, toolName: 'greet', input: '{bad'});
    await both('execute_webmcp_tool', {pageId: 1, toolName: 'greet', input: '[1]'});
  });

  it('forgets the tools of a document that navigated away', async () => {
    await both('navigate_page', {pageId: 1, url: fixtures.url('/plain')});
    assert.equal((await both('list_webmcp_tools', {pageId: 1})).text, '## WebMCP tools\nNo WebMCP tools available.');
  });
});
