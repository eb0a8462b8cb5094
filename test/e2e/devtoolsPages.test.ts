import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {describe, it} from 'node:test';

import {SERVER_BIN, startServer, type TestServer} from '../support/mcpClient.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

const INSPECTOR = 'devtools://devtools/bundled/inspector.html';
/** Bound of the wait for Chrome to open a tab's DevTools window. */
const DEVTOOLS_WINDOW_MS = 10_000;
/** Bound of loading the DevTools UI in a new tab. */
const DEVTOOLS_LOAD_MS = 60_000;

/** list_pages, again until `ready` holds or the deadline passes (Chrome opens DevTools windows on its own time). */
async function pagesWhen(server: TestServer, ready: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + DEVTOOLS_WINDOW_MS;
  let text = (await server.call('list_pages')).text;
  while (!ready(text) && Date.now() < deadline) {
    await new Promise(resolve => setTimeout(resolve, 100));
    text = (await server.call('list_pages')).text;
  }
  return text;
}

describe('--experimentalDevtools', () => {
  it("lists each tab's DevTools window and devtools:// pages, and drives them", async () => {
    const mcp = await startServer({args: ['--experimentalDevtools']});
    try {
      const first = await pagesWhen(mcp, text => /devtools:\/\/devtools\/bundled\/devtools_app\.html\?/.test(text));
      // Which of the two attaches first is Chrome's business: no order is asserted.
      const lines = first
        .split('\n')
        .slice(1)
        .map(line => line.replace(/^\d+: /, '').replace(/ \[selected\]$/, ''));
      assert.equal(lines.length, 2, first);
      assert.ok(lines.includes('about:blank'), first);
      assert.ok(
        lines.some(line =>
          // Titled "DevTools" once its script ran; until then the bare URL.
          /^(?:DevTools[^(]* \()?devtools:\/\/devtools\/bundled\/devtools_app\.html\?.*targetType=tab.*$/.test(line),
        ),
        first,
      );
      // The DevTools UI is heavy: on a loaded machine its load takes longer than new_page's default 10 s.
      const opened = await mcp.call('new_page', {url: INSPECTOR, timeout: DEVTOOLS_LOAD_MS});
      assert.equal(opened.isError, false, opened.text);
      // The DevTools UI sets its title from a script: under load new_page may answer before it has one.
      const inspector = INSPECTOR.replace(/[./]/g, '\\$&');
      const id = Number(
        new RegExp(`\\n(\\d+): (?:DevTools \\(${inspector}\\)|${inspector}) \\[selected\\]`).exec(opened.text)?.[1],
      );
      assert.ok(id >= 3, opened.text);
      // The DevTools UI is a page like any other: its accessibility tree is there to read.
      const snapshot = await mcp.call('take_snapshot', {pageId: id});
      assert.equal(snapshot.isError, false, snapshot.text);
      assert.match(snapshot.text, new RegExp(`^uid=\\S+ RootWebArea (?:"DevTools" )?url="${inspector}"`, 'm'));
    } finally {
      await mcp.close();
    }
  });
});

describe('without --experimentalDevtools, as chrome-devtools-mcp 1.11', () => {
  it('opens no DevTools windows and hides devtools:// pages', async () => {
    let pair: OraclePair | undefined;
    try {
      pair = await startOraclePair({record: 'devtoolsPages'});
      const {ours, theirs} = pair;
      const [ourOpen, theirOpen] = await Promise.all([
        ours.call('new_page', {url: INSPECTOR, timeout: DEVTOOLS_LOAD_MS}),
        theirs.call('new_page', {url: INSPECTOR, timeout: DEVTOOLS_LOAD_MS}),
      ]);
      assert.equal(ourOpen.isError, false, ourOpen.text);
      assert.equal(ourOpen.text, '## Pages\n1: about:blank');
      assert.equal(ourOpen.text, theirOpen.text);
      const [ourList, theirList] = await Promise.all([ours.call('list_pages'), theirs.call('list_pages')]);
      assert.equal(ourList.text, '## Pages\n1: about:blank');
      assert.equal(ourList.text, theirList.text);
    } finally {
      await pair?.close();
    }
  });
});

describe('--experimentalIncludeAllPages', () => {
  it('lists what the default lists when there are no webviews or background pages', async () => {
    const mcp = await startServer({args: ['--experimentalIncludeAllPages']});
    try {
      await mcp.call('new_page', {url: INSPECTOR, timeout: DEVTOOLS_LOAD_MS});
      const list = await mcp.call('list_pages');
      assert.equal(list.text, '## Pages\n1: about:blank');
    } finally {
      await mcp.close();
    }
  });

  it('bad values of both flags stop the server at startup with exit code 2', () => {
    for (const flag of ['experimentalIncludeAllPages', 'experimentalDevtools']) {
      const run = spawnSync(process.execPath, [SERVER_BIN, `--${flag}=yes`], {encoding: 'utf8', input: ''});
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`--${flag} takes true or false, not "yes"\\.`));
    }
  });
});
