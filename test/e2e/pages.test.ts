import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

describe('pages and navigation', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/one', '<title>One</title><h1>first page</h1><a id="next" href="/two">next</a>');
    fixtures.html('/two', '<title>Two</title><h1>second page</h1>');
    fixtures.html('/untitled', '<p>no title here</p>');
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('lists the initial blank page as selected', async () => {
    const r = await mcp.call('list_pages');
    assert.equal(r.isError, false);
    assert.equal(r.text, '## Pages\n1: about:blank [selected]');
  });

  it('navigates to a URL and shows title and URL in the page list', async () => {
    const url = fixtures.url('/one');
    const r = await mcp.call('navigate_page', {pageId: 1, url});
    assert.equal(r.isError, false, r.text);
    assert.equal(r.text, `Successfully navigated to ${url}.\n## Pages\n1: One (${url}) [selected]`);
  });

  it('shows the bare URL for a page without a title', async () => {
    const url = fixtures.url('/untitled');
    const r = await mcp.call('navigate_page', {pageId: 1, url});
    assert.match(r.text, new RegExp(`\\n1: ${url.replace(/[.]/g, '\\.')} \\[selected\\]$`));
  });

  it('goes back, forward and reloads', async () => {
    const back = await mcp.call('navigate_page', {pageId: 1, type: 'back'});
    assert.match(back.text, /^Successfully navigated back to http:\/\/127\.0\.0\.1:\d+\/one\./);
    const forward = await mcp.call('navigate_page', {pageId: 1, type: 'forward'});
    assert.match(forward.text, /^Successfully navigated forward to http:\/\/127\.0\.0\.1:\d+\/untitled\./);
    const reload = await mcp.call('navigate_page', {pageId: 1, type: 'reload', ignoreCache: true});
    assert.match(reload.text, /^Successfully reloaded the page\./);
    const noForward = await mcp.call('navigate_page', {pageId: 1, type: 'forward'});
    assert.match(
      noForward.text,
      /^Unable to navigate forward in the selected page: History entry to navigate to not found\./,
    );
  });

  it('reports a failed navigation as a line, not an error', async () => {
    const r = await mcp.call('navigate_page', {pageId: 1, url: 'http://127.0.0.1:9/'});
    assert.equal(r.isError, false);
    assert.match(r.text, /^Unable to navigate in the selected page: net::ERR_[A-Z_]+ at http:\/\/127\.0\.0\.1:9\/\./);
  });

  it('rejects navigate_page without url or type', async () => {
    const r = await mcp.call('navigate_page', {pageId: 1});
    assert.equal(r.isError, true);
    assert.equal(r.text, 'Error: Either URL or a type is required.');
  });

  it('runs an init script before the page scripts', async () => {
    const url = fixtures.html('/init', '<script>document.title = String(window.injected)</script>');
    await mcp.call('navigate_page', {pageId: 1, url, initScript: 'window.injected = 42'});
    const r = await mcp.call('evaluate_script', {pageId: 1, function: '() => document.title'});
    assert.match(r.text, /```json\n"42"\n```/);
  });

  it('opens, selects and closes pages; ids are never reused', async () => {
    const two = fixtures.url('/two');
    const opened = await mcp.call('new_page', {url: two});
    assert.equal(opened.isError, false, opened.text);
    assert.match(opened.text, new RegExp(`2: Two \\(${two.replace(/[.]/g, '\\.')}\\) \\[selected\\]`));
    const selected = await mcp.call('select_page', {pageId: 1, bringToFront: true});
    assert.match(selected.text, /^## Pages\n1: .* \[selected\]\n2: Two/);
    const closed = await mcp.call('close_page', {pageId: 2});
    assert.doesNotMatch(closed.text, /\n2: /);
    const again = await mcp.call('new_page', {url: 'about:blank'});
    assert.match(again.text, /\n3: about:blank \[selected\]$/);
    await mcp.call('close_page', {pageId: 3});
  });

  it('selects another page when the selected one is closed', async () => {
    await mcp.call('new_page', {url: 'about:blank'});
    const r = await mcp.call('close_page', {pageId: 4});
    assert.match(
      r.text,
      /^Note: the previously selected page was closed\. Page 1 is now selected\.\n## Pages\n1: .*\[selected\]$/,
    );
  });

  it('refuses to close the last page', async () => {
    const r = await mcp.call('close_page', {pageId: 1});
    assert.equal(r.isError, false);
    assert.match(r.text, /^The last open page cannot be closed\. It is fine to keep it open\.\n## Pages/);
  });

  it('says which page ids exist for an unknown pageId', async () => {
    const r = await mcp.call('select_page', {pageId: 99});
    assert.equal(r.isError, true);
    assert.match(r.text, /No page found with id 99\. Open pages: 1\./);
  });

  it('opens pages in named isolated contexts', async () => {
    const url = fixtures.url('/two');
    const a = await mcp.call('new_page', {url, isolatedContext: 'alpha'});
    assert.match(a.text, /Two \(.*\) \[selected\] isolatedContext=alpha/);
    const setCookie = await mcp.call('evaluate_script', {
      pageId: 5,
      function: '() => { document.cookie = "k=v"; return document.cookie; }',
    });
    assert.match(setCookie.text, /"k=v"/);
    const b = await mcp.call('new_page', {url, isolatedContext: 'beta'});
    assert.match(b.text, /isolatedContext=beta/);
    const cookie = await mcp.call('evaluate_script', {pageId: 6, function: '() => document.cookie'});
    assert.match(cookie.text, /```json\n""\n```/);
    await mcp.call('close_page', {pageId: 5});
    await mcp.call('close_page', {pageId: 6});
  });

  it('tracks a popup the page opens and notices a page closed from outside', async () => {
    const url = fixtures.html('/opener', '<title>Opener</title>');
    await mcp.call('navigate_page', {pageId: 1, url});
    const popup = fixtures.url('/two');
    await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => { window.w = window.open(${JSON.stringify(popup)}); return true; }`,
    });
    // window.open returns before the popup has loaded: poll (bounded) until it has.
    let list = await mcp.call('list_pages');
    for (const end = Date.now() + 30_000; !/\n7: Two \(/.test(list.text) && Date.now() < end;) {
      await new Promise(resolve => setTimeout(resolve, 20));
      list = await mcp.call('list_pages');
    }
    assert.match(list.text, /\n7: Two \(http:\/\/127\.0\.0\.1:\d+\/two\)$/);
    // Select the popup, then let its opener close it: the selection falls back.
    const selected = await mcp.call('select_page', {pageId: 7});
    assert.match(selected.text, /\n7: Two .*\[selected\]$/);
    await mcp.call('evaluate_script', {pageId: 1, function: '() => { window.w.close(); return true; }'});
    for (const end = Date.now() + 30_000; /\n7: /.test(list.text) && Date.now() < end;) {
      await new Promise(resolve => setTimeout(resolve, 20));
      list = await mcp.call('list_pages');
    }
    assert.doesNotMatch(list.text, /\n7: /);
    assert.match(
      list.text,
      /^(Note: the previously selected page was closed\. Page 1 is now selected\.\n)?## Pages\n1: Opener .*\[selected\]$/,
    );
    const shot = await mcp.call('take_screenshot', {pageId: 7});
    assert.equal(shot.isError, true);
    assert.match(shot.text, /No page found with id 7\. Open pages: 1\./);
  });
});
