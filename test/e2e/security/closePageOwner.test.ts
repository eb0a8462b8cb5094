import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {type HttpSession, type HttpTestServer, startHttpServer} from '../../support/httpClient.js';

/**
 * close_page checks whose page an id is before anything else it would say
 * about it: a session with one page that names another session's page gets
 * the ownership error, not the last-page note (which would confirm nothing is
 * closed, but hide that the id was refused).
 */
describe('close_page: ownership before the last-page rule', () => {
  let fixtures: FixtureServer;
  let server: HttpTestServer;
  let a: HttpSession;
  let b: HttpSession;
  const selectedId = (text: string) => Number(/(\d+): .*\[selected\]/.exec(text)?.[1]);

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/a', '<title>Private page of A</title><p>a</p>');
    server = await startHttpServer();
    a = await server.connect();
    b = await server.connect();
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await server?.close();
    await fixtures?.stop();
  });

  it("refuses another session's page id even when the caller has only one page", async () => {
    const pageA = selectedId((await a.call('list_pages')).text);
    await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/a')});
    const bList = await b.call('list_pages');
    const pageB = selectedId(bList.text);
    assert.ok(pageA > 0 && pageB > 0 && pageA !== pageB, `${pageA} / ${pageB}`);
    assert.match(bList.text, /^## Pages\n\d+: about:blank \[selected\]$/, 'B has exactly one page');

    const r = await b.call('close_page', {pageId: pageA});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, new RegExp(`Page ${pageA} is not a page of this MCP session`));
    assert.doesNotMatch(r.text, /last open page/);
    assert.doesNotMatch(r.text, /Private page of A/);
    assert.match((await a.call('list_pages')).text, new RegExp(`${pageA}: Private page of A`), "A's page is open");
  });

  it("still keeps the caller's own last page open", async () => {
    const pageB = selectedId((await b.call('list_pages')).text);
    const r = await b.call('close_page', {pageId: pageB});
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^The last open page cannot be closed\. It is fine to keep it open\.\n## Pages/);
  });
});
