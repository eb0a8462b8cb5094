import assert from 'node:assert/strict';
import {mkdtemp} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {CdpSends, cdpSendsOptions, roundTrips} from '../support/cdpSends.js';
import {routePerformancePages} from '../support/devtoolsFixtures.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {normaliseNumbers, startReference} from '../support/reference.js';

function uidOf(snapshot: string, pattern: RegExp): string {
  const uid = new RegExp(`uid=(\\S+) ${pattern.source}`).exec(snapshot)?.[1];
  assert.ok(uid, `no ${pattern} in:\n${snapshot}`);
  return uid;
}

describe('get_css_styles', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let snapshot: string;
  let sends: CdpSends;

  before(async () => {
    fixtures = await new FixtureServer().start();
    routePerformancePages(fixtures);
    sends = new CdpSends(join(await mkdtemp(join(tmpdir(), 'css-sends-')), 'server.log'));
    const logged = cdpSendsOptions(sends.logFile);
    // Whole outputs, as the reference gives them (ours caps them by default).
    mcp = await startServer({args: ['--no-page-id-routing', '--maxOutputChars', '0', ...logged.args], env: logged.env});
    await mcp.call('navigate_page', {url: fixtures.url('/shop')});
    snapshot = (await mcp.call('take_snapshot')).text;
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it("waits on Chrome twice for a set-up page's element: its node, then its styles and the environment together", async () => {
    const uid = uidOf(snapshot, /heading "Big sale"/);
    // The first call sets DevTools' models up.
    assert.equal((await mcp.call('get_css_styles', {uid})).isError, false);
    const from = await sends.mark();
    const result = await mcp.call('get_css_styles', {uid});
    assert.equal(result.isError, false, result.text);
    const commands = (await sends.since(from)).filter(c => c.method.startsWith('CSS.') || c.method.startsWith('DOM.'));
    const shown = commands.map(c => `${c.method} (after ${c.after})`).join(', ');
    assert.deepEqual(
      commands.map(c => c.method).sort(),
      ['CSS.getEnvironmentVariables', 'CSS.getMatchedStylesForNode', 'DOM.pushNodesByBackendIdsToFrontend'],
      shown,
    );
    assert.equal(roundTrips(commands), 2, shown);
  });

  it('lists the cascade with sources, overridden and inherited declarations', async () => {
    const uid = uidOf(snapshot, /heading "Big sale"/);
    const result = await mcp.call('get_css_styles', {uid});
    assert.equal(result.isError, false, result.text);
    assert.equal(
      result.text.split('\n  h1 (user agent stylesheet) {')[0],
      `Showing 1-4 of 4 (Page 1 of 1).
Styles for h1.hero (uid: "${uid}"):

  h1.hero (shop:5) {
    margin: 4px;
  }

  .hero (blocking.css:1) {
    color: rgb(200, 0, 0);
    font-size: 32px;
  }
`,
    );
    assert.match(
      result.text,
      /\n {2}h1 \(user agent stylesheet\) \{\n {4}display: block;\n {4}\[overloaded\] font-size: 2em;\n/,
    );
    assert.match(
      result.text,
      /\n {2}Inherited from body:\n {4}body \(shop:4\) \{\n {6}\[overloaded\] color: rgb\(10, 20, 30\);\n {6}font-family: serif;\n {6}line-height: 1\.5;\n {4}\}$/,
    );
  });

  it('marks !important and inline declarations', async () => {
    const uid = uidOf(snapshot, /"Ends soon"/);
    const result = await mcp.call('get_css_styles', {uid});
    assert.match(result.text, /^Showing 1-\d+ of \d+ \(Page 1 of 1\)\.\nStyles for p\.note \(uid: /);
    assert.match(result.text, /\n {2}element\.style \{\n {4}font-weight: 600;\n {2}\}\n/);
    assert.match(result.text, /\n {2}\.note \(shop:6\) \{\n {4}color: rgb\(0, 0, 200\) !important;\n {2}\}\n/);
    assert.match(
      result.text,
      /\n {2}p \(blocking\.css:2\) \{\n {4}\[overloaded\] color: rgb\(0, 128, 0\);\n {4}margin: 2px;\n/,
    );
  });

  it('pages through the rules', async () => {
    const uid = uidOf(snapshot, /heading "Big sale"/);
    const second = await mcp.call('get_css_styles', {uid, pageSize: 1, pageIdx: 1});
    assert.equal(
      second.text,
      `Showing 2-2 of 4 (Page 2 of 4).
Next page: 2
Previous page: 0
Styles for h1.hero (uid: "${uid}"):

  .hero (blocking.css:1) {
    color: rgb(200, 0, 0);
    font-size: 32px;
  }`,
    );
    const beyond = await mcp.call('get_css_styles', {uid, pageSize: 2, pageIdx: 9});
    assert.match(
      beyond.text,
      /^Invalid page number provided\. Showing first page\.\nShowing 1-2 of 4 \(Page 1 of 2\)\.\nNext page: 1\n/,
    );
  });

  it('refuses unknown uids, bad pagination and pages without a snapshot', async () => {
    const unknown = await mcp.call('get_css_styles', {uid: '9_99'});
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /Element uid "9_99" not found on page \d+\./);
    const badSize = await mcp.call('get_css_styles', {uid: '1_1', pageSize: 0});
    assert.equal(badSize.isError, true);
    assert.match(badSize.text, /"pageSize"/);
    await mcp.call('new_page', {url: fixtures.url('/clean')});
    const noSnapshot = await mcp.call('get_css_styles', {uid: '1_1'});
    assert.equal(noSnapshot.isError, true);
    assert.match(noSnapshot.text, /No snapshot found for page \d+\. Use take_snapshot to capture one\./);
  });

  it('prints what chrome-devtools-mcp 1.11 prints for the same elements', async () => {
    const theirs = await startReference([], 'css');
    try {
      await theirs.call('navigate_page', {type: 'url', url: fixtures.url('/shop')});
      const theirSnapshot = (await theirs.call('take_snapshot')).text;
      await mcp.call('navigate_page', {url: fixtures.url('/shop')});
      const ourSnapshot = (await mcp.call('take_snapshot')).text;
      for (const element of [/heading "Big sale"/, /"Ends soon"/, /button "Buy"/]) {
        for (const args of [{}, {pageSize: 2, pageIdx: 1}]) {
          const ours = await mcp.call('get_css_styles', {uid: uidOf(ourSnapshot, element), ...args});
          const reference = await theirs.call('get_css_styles', {uid: uidOf(theirSnapshot, element), ...args});
          const normalise = (text: string) => normaliseNumbers(text.replace(/\(uid: "[^"]+"\)/g, '(uid)'));
          assert.equal(normalise(ours.text), normalise(reference.text), `${element} ${JSON.stringify(args)}`);
        }
      }
    } finally {
      await theirs.close();
    }
  });

  it('shows custom properties whose values are strings (DevTools parses them with its CSS grammar)', async () => {
    fixtures.html(
      '/strings',
      '<style>h1 { --note: "hello world"; --font: "Inter", sans-serif; content: "x"; color: red }</style><h1>Quoted</h1>',
    );
    await mcp.call('navigate_page', {url: fixtures.url('/strings')});
    const uid = uidOf((await mcp.call('take_snapshot')).text, /heading "Quoted"/);
    const result = await mcp.call('get_css_styles', {uid});
    assert.equal(result.isError, false, result.text);
    assert.match(
      result.text,
      /\n {2}h1 \(strings:1\) \{\n {4}--note: "hello world";\n {4}--font: "Inter", sans-serif;\n {4}content: "x";\n {4}color: red;\n {2}\}/,
    );
  });
});
