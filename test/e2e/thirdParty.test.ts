/**
 * `--categoryExperimentalThirdParty` against real Chromium, side by side with
 * the reference: a fixture page offers a tool group through its
 * devtoolstooldiscovery listener; input is checked against the tool's schema.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../src/testing/fixtureServer.js';
import {type OraclePair, startOraclePair} from '../../src/testing/oracle.js';

const TOOLS_PAGE = `<!doctype html><link rel="icon" href="data:,"><title>Dev</title><p id="p">dev tools</p><script>
  window.addEventListener('devtoolstooldiscovery', event => {
    event.respondWith({
      name: 'App Tools',
      description: 'Tools of the app',
      tools: [
        {
          name: 'add',
          description: 'Adds two numbers',
          inputSchema: {type: 'object', properties: {a: {type: 'number'}, b: {type: 'number'}}, required: ['a', 'b']},
          execute: async ({a, b}) => ({sum: a + b, at: new Date(0), fn() {}}),
        },
        {
          name: 'textOf',
          description: 'Text of an element',
          inputSchema: {type: 'object', properties: {el: {'x-mcp-type': 'HTMLElement'}}, required: ['el']},
          execute: async ({el}) => el.textContent,
        },
      ],
    });
  });
</script>`;

describe('--categoryExperimentalThirdParty', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/dev', TOOLS_PAGE);
    fixtures.html('/plain', '<!doctype html><link rel="icon" href="data:,"><title>Plain</title><p>plain</p>');
    pair = await startOraclePair({args: ['--categoryExperimentalThirdParty']});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  async function both(name: string, args: Record<string, unknown> = {}): Promise<{text: string; isError: boolean}> {
    const [ours, theirs] = await Promise.all([pair.ours.call(name, args), pair.theirs.call(name, args)]);
    const text = (t: string) => t.replace(/127\.0\.0\.1:\d+/g, '<host>');
    assert.deepEqual(
      {...ours, text: text(ours.text)},
      {...theirs, text: text(theirs.text)},
      `${name} ${JSON.stringify(args)}`,
    );
    return ours;
  }

  it('shows nothing for a page that offers no tools', async () => {
    await both('navigate_page', {pageId: 1, url: fixtures.url('/plain')});
    assert.equal((await both('list_3p_developer_tools', {pageId: 1})).text, '');
  });

  it("lists the page's tool groups, also after navigating", async () => {
    const nav = await both('navigate_page', {pageId: 1, url: fixtures.url('/dev')});
    assert.match(nav.text, /## Third-party developer tools\nApp Tools: Tools of the app\nAvailable tools:\nname="add"/);
    const listed = await both('list_3p_developer_tools', {pageId: 1});
    assert.match(
      listed.text,
      /"el":\{"x-mcp-type":"HTMLElement","properties":\{"uid":\{"type":"string"\}\},"required":\["uid"\]\}/,
    );
  });

  it('runs a tool with its result made JSON', async () => {
    const added = await both('execute_3p_developer_tool', {pageId: 1, toolName: 'add', params: '{"a":2,"b":3}'});
    assert.equal(added.isError, false, added.text);
    assert.match(added.text, /"sum": 5/);
  });

  it('rejects input its schema does not allow, and unknown tools', async () => {
    const invalid = await both('execute_3p_developer_tool', {pageId: 1, toolName: 'add', params: '{"a":"x","b":3}'});
    assert.equal(invalid.isError, true);
    assert.match(invalid.text, /Invalid parameters for tool add: /);
    await both('execute_3p_developer_tool', {pageId: 1, toolName: 'add', params: '{"a":1}'});
    await both('execute_3p_developer_tool', {pageId: 1, toolName: 'nope', params: '{}'});
    await both('execute_3p_developer_tool', {pageId: 1, toolName: 'add', params: 'nope'});
    await both('execute_3p_developer_tool', {pageId: 1, toolName: 'add', params: '3'});
  });

  it('passes elements by snapshot uid', async () => {
    const results = [];
    for (const server of [pair.ours, pair.theirs]) {
      const snapshot = await server.call('take_snapshot', {pageId: 1});
      const uid = /uid=(\S+) "dev tools"/.exec(snapshot.text)?.[1];
      assert.ok(uid, snapshot.text);
      results.push(
        await server.call('execute_3p_developer_tool', {
          pageId: 1,
          toolName: 'textOf',
          params: JSON.stringify({el: {uid}}),
        }),
      );
    }
    assert.deepEqual(results[0], results[1]);
    assert.equal(results[0]?.text, '"dev tools"');
  });
});
