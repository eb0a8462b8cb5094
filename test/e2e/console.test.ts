import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {serveMappedBundle} from '../support/sourceMapFixture.js';

/** The msgid of the first listed message whose line matches. */
function msgid(list: string, pattern: RegExp): number {
  const line = list.split('\n').find(l => pattern.test(l));
  assert.ok(line, `no message matching ${pattern} in:\n${list}`);
  return Number(/msgid=(\d+)/.exec(line)?.[1]);
}

describe('console messages', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    serveMappedBundle(fixtures);
    fixtures.html(
      '/all-types',
      `<!doctype html><title>console</title><script>
      console.log('plain', 42, true, null, undefined, {a: 1}, [1, 2]);
      console.debug('debugging'); console.info('for info'); console.warn('careful');
      console.error('bad', new Error('boom', {cause: new TypeError('root cause')}));
      console.dir({d: 1}); console.dirxml({x: 1}); console.table([{a: 1}]); console.trace('tracing');
      console.group('grp'); console.groupCollapsed('collapsed'); console.groupEnd();
      console.assert(false, 'assertion'); console.count('counter'); console.time('t'); console.timeEnd('t');
      console.log('again'); console.log('again'); console.log('again');
      Promise.reject(new Error('nobody caught me'));
      setTimeout(() => { throw new RangeError('thrown later'); }, 0);
      </script>`,
    );
    fixtures.html('/mapped', '<!doctype html><title>mapped</title><script src="/static/bundle.js"></script>');
    fixtures.html('/quiet', '<!doctype html><title>quiet</title><script>console.log("quiet page")</script>');
    mcp = await startServer();
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/all-types')});
    await mcp.call('evaluate_script', {pageId: 1, function: '() => new Promise(r => setTimeout(r, 50))'});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('lists console messages of every type, uncaught errors and rejections', async () => {
    const r = await mcp.call('list_console_messages', {pageId: 1});
    assert.equal(r.isError, false, r.text);
    const expected = [
      /\[log\] plain 42 true {3}\[object Object\] \[array Array\] \(7 args\)/,
      /\[debug\] debugging \(1 args\)/,
      /\[info\] for info \(1 args\)/,
      /\[warn\] careful \(1 args\)/,
      /\[error\] bad Error: boom \(2 args\)/,
      /\[dir\] \[object Object\] \(1 args\)/,
      /\[dirxml\] \[object Object\] \(1 args\)/,
      /\[table\] \[array Array\] \(1 args\)/,
      /\[trace\] tracing \(1 args\)/,
      /\[startGroup\] grp \(1 args\)/,
      /\[startGroupCollapsed\] collapsed \(1 args\)/,
      /\[endGroup\] console\.groupEnd \(1 args\)/,
      /\[assert\] assertion \(1 args\)/,
      /\[count\] counter: 1 \(1 args\)/,
      /\[timeEnd\] t: [\d.]+ ms \(1 args\)/,
      /\[log\] again \(1 args\) \[3 times\]/,
    ];
    let last = -1;
    for (const pattern of expected) {
      const index = r.text.split('\n').findIndex(l => pattern.test(l));
      assert.ok(index > last, `${pattern} missing or out of order in:\n${r.text}`);
      last = index;
    }
    // Rejections are reported at the end of a task, timers run later: either order is right.
    assert.match(r.text, /\n(msgid=\d+) \[error\] Uncaught \(in promise\) Error: nobody caught me \(0 args\)\n/);
    assert.match(r.text, /\nmsgid=\d+ \[error\] Uncaught RangeError: thrown later \(0 args\)\n/);
    // A browser log entry (the favicon 404) has no arguments.
    assert.match(
      r.text,
      /\nmsgid=\d+ \[error\] Failed to load resource: the server responded with a status of 404 \(Not Found\) \(0 args\)$/,
    );
  });

  it('filters by type; uncaught errors count as errors', async () => {
    const r = await mcp.call('list_console_messages', {pageId: 1, types: ['error']});
    const lines = r.text.split('\n').filter(l => l.startsWith('msgid='));
    assert.equal(lines.length, 4, r.text);
    assert.ok(lines.every(l => l.includes('[error]')));
  });

  it('shows arguments by value, errors with their stack and cause', async () => {
    const list = (await mcp.call('list_console_messages', {pageId: 1})).text;
    const plain = await mcp.call('get_console_message', {pageId: 1, msgid: msgid(list, /\[log\] plain/)});
    assert.match(
      plain.text,
      /^ID: \d+\nMessage: log> plain 42 true {3}\[object Object\] \[array Array\]\n### Arguments\nArg #0: plain\nArg #1: 42\nArg #2: true\nArg #3: null\nArg #4: undefined\nArg #5: \{"a":1\}\nArg #6: \[1,2\]\n### Stack trace\nat <anonymous> \(all-types:2:15\)\nNote: line and column numbers use 1-based indexing$/,
    );
    const error = await mcp.call('get_console_message', {pageId: 1, msgid: msgid(list, /\[error\] bad/)});
    assert.match(
      error.text,
      /\nArg #1: Error: boom\nat <anonymous> \(all-types:4:28\)\nCaused by: TypeError: root cause\nat <anonymous> \(all-types:4:54\)\nNote: line and column numbers use 1-based indexing\n### Stack trace\n/,
    );
  });

  it('shows the async part of an uncaught error stack', async () => {
    const r = await mcp.call('list_console_messages', {pageId: 1, types: ['error'], includeStackTraces: true});
    assert.match(
      r.text,
      /\[error\] Uncaught RangeError: thrown later \(0 args\)\n {2}at <anonymous> \(all-types:\d+:\d+\)\n {2}--- setTimeout -{25}\n {2}at <anonymous> \(all-types:\d+:\d+\)/,
    );
    assert.match(r.text, /\nNote: stack trace line and column numbers use 1-based indexing$/);
  });

  it('resolves stacks through source maps to the original file and line', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/mapped')});
    await mcp.call('evaluate_script', {pageId: 1, function: '() => new Promise(r => setTimeout(r, 50))'});
    const list = (await mcp.call('list_console_messages', {pageId: 1})).text;
    const id = msgid(list, /\[error\] Uncaught Error: widget exploded/);
    const r = await mcp.call('get_console_message', {pageId: 1, msgid: id});
    assert.match(
      r.text,
      /\n### Stack trace\nat render \(widget\.ts:3:11\)\nat mount \(widget\.ts:7:3\)\nat <anonymous> \(widget\.ts:11:5\)\n--- setTimeout -{25}\nat <anonymous> \(widget\.ts:10:1\)\n/,
    );
  });

  it('keeps messages of previous navigations on request', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/quiet')});
    const current = (await mcp.call('list_console_messages', {pageId: 1})).text;
    assert.match(current, /\[log\] quiet page/);
    assert.doesNotMatch(current, /widget exploded|plain 42/);
    const preserved = (await mcp.call('list_console_messages', {pageId: 1, includePreservedMessages: true})).text;
    assert.ok(preserved.indexOf('plain 42') < preserved.indexOf('widget exploded'), preserved);
    assert.ok(preserved.indexOf('widget exploded') < preserved.indexOf('quiet page'), preserved);
    assert.match(preserved, /^msgid=1 \[log\] plain/m);
  });

  it('paginates grouped messages and handles empty and out-of-range pages', async () => {
    const page = await mcp.call('list_console_messages', {
      pageId: 1,
      includePreservedMessages: true,
      pageSize: 4,
      pageIdx: 1,
    });
    assert.match(
      page.text,
      /^## Console messages\nShowing 5-8 of \d+ \(Page 2 of \d+\)\.\nNext page: 2\nPrevious page: 0\nmsgid=/,
    );
    const out = await mcp.call('list_console_messages', {pageId: 1, pageSize: 4, pageIdx: 50});
    assert.match(
      out.text,
      /^## Console messages\nInvalid page number provided\. Showing first page\.\nShowing 1-\d+ of \d+ \(Page 1 of 1\)\./,
    );
    const empty = await mcp.call('list_console_messages', {pageId: 1, types: ['profile']});
    assert.equal(empty.text, '## Console messages\n<no console messages found>');
  });

  it('says how to find msgids for an unknown one', async () => {
    const r = await mcp.call('get_console_message', {pageId: 1, msgid: 9999});
    assert.equal(r.isError, true);
    assert.match(r.text, /No console message with msgid 9999 on page 1\. Call list_console_messages/);
  });
});
