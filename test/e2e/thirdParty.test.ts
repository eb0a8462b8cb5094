/**
 * `--categoryExperimentalThirdParty` against real Chromium, side by side with
 * the reference: a fixture page offers a tool group through its
 * devtoolstooldiscovery listener; input is checked against the tool's schema.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

const TOOLS_PAGE = `<!doctype html><link rel="icon" href="data:,"><title>Dev</title><p id="p">dev tools</p>
<button id="b" onclick="this.textContent = 'pressed'">Press</button>
<div id="box" onclick="this.firstElementChild.textContent = 'box clicked'"><span>plain box</span></div><script>
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
        {
          name: 'pressButton',
          description: 'The button to press',
          inputSchema: {type: 'object'},
          execute: async () => document.getElementById('b'),
        },
        {
          name: 'parts',
          description: 'Elements the snapshot does not show on its own',
          inputSchema: {type: 'object'},
          execute: async () => ({box: document.getElementById('box'), all: [document.getElementById('p')],  n: 1}),
        },
        {
          name: 'detached',
          description: 'An element out of the document',
          inputSchema: {type: 'object'},
          execute: async () => ({gone: document.createElement('i')}),
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
    pair = await startOraclePair({args: ['--categoryExperimentalThirdParty'], record: 'thirdParty'});
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

  /** Every uid (`1_3`) replaced by a placeholder in order of first appearance, and ports hidden. */
  function normalized(text: string): string {
    const seen = new Map<string, string>();
    return text
      .replace(/\b\d+_\d+\b/g, uid => {
        if (!seen.has(uid)) {
          seen.set(uid, `#${seen.size}`);
        }
        return seen.get(uid) ?? uid;
      })
      .replace(/127\.0\.0\.1:\d+/g, '<host>');
  }

  it('gives returned elements as uids of the snapshot it shows, which click takes', async () => {
    await both('navigate_page', {pageId: 1, url: fixtures.url('/dev')});
    const answers = await Promise.all(
      [pair.ours, pair.theirs].map(server =>
        server.call('execute_3p_developer_tool', {pageId: 1, toolName: 'pressButton'}),
      ),
    );
    const [ours, theirs] = answers.map(answer => ({...answer, text: normalized(answer.text)}));
    assert.deepEqual(ours, theirs);
    assert.match(
      ours?.text ?? '',
      /^\{\n {2}"uid": "#0"\n\}\n## Latest page snapshot\n[^]*\n {2}uid=#0 button "Press"\n/,
    );
    const uid = /"uid": "(\d+_\d+)"/.exec(answers[0]?.text ?? '')?.[1];
    assert.ok(uid, answers[0]?.text);
    const clicked = await pair.ours.call('click', {pageId: 1, uid, includeSnapshot: true});
    assert.equal(clicked.isError, false, clicked.text);
    assert.match(clicked.text, /button "pressed"/);
    const theirUid = /"uid": "(\d+_\d+)"/.exec(answers[1]?.text ?? '')?.[1];
    assert.equal((await pair.theirs.call('click', {pageId: 1, uid: theirUid})).isError, false);
  });

  it('inserts returned elements the snapshot leaves out, under their nearest shown ancestor', async () => {
    const answers = await Promise.all(
      [pair.ours, pair.theirs].map(server => server.call('execute_3p_developer_tool', {pageId: 1, toolName: 'parts'})),
    );
    const [ours, theirs] = answers.map(answer => ({...answer, text: normalized(answer.text)}));
    assert.deepEqual(ours, theirs);
    const text = answers[0]?.text ?? '';
    const box = /"box": \{\n {4}"uid": "(\d+_\d+)"/.exec(text)?.[1];
    assert.ok(box, text);
    assert.match(text, new RegExp(`\\n {2}uid=${box} div\\n {4}uid=\\d+_\\d+ "plain box"\\n`));
    assert.match(text, /\n {2}uid=\d+_\d+ p\n {4}uid=\d+_\d+ "dev tools"\n/);
    const clicked = await pair.ours.call('click', {pageId: 1, uid: box});
    assert.equal(clicked.isError, false, clicked.text);
    const after = await pair.ours.call('evaluate_script', {
      pageId: 1,
      function: "() => document.querySelector('#box span').textContent",
    });
    assert.match(after.text, /"box clicked"/);
  });

  // The reference inserts an element out of the document under the root, with a uid no tool can act on.
  it('says which returned elements are out of the document (ours)', async () => {
    const answer = await pair.ours.call('execute_3p_developer_tool', {pageId: 1, toolName: 'detached'});
    assert.equal(answer.text, '{\n  "gone": "<Detached i element>"\n}');
  });
});
