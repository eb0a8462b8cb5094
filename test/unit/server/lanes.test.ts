import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import type {BrowserScope} from '../../../src/browser/core/BrowserScope.js';
import type {Page} from '../../../src/browser/core/Page.js';
import {parseConfig} from '../../../src/config/options.js';
import {laneOf, PageLanes} from '../../../src/server/lanes.js';
import type {Tool, ToolLane} from '../../../src/tools/defineTool.js';
import {createTools} from '../../../src/tools/registry.js';
import {deferred} from '../../../src/util/async.js';

function tool(pageScoped: boolean, extra: {lane?: ToolLane; browserWide?: string} = {}): Tool {
  return {name: 't', pageScoped, annotations: {category: 'navigation'}, ...extra} as unknown as Tool;
}

/** A session with pages 1-4 whose selection select() changes. */
function fakeSession(id = 1) {
  const pages = [1, 2, 3, 4].map(n => ({id: n}) as unknown as Page);
  let selected = pages[0]!;
  const scope = {
    getPageById: (n: number) => pages.find(p => p.id === n)!,
    getSelectedPage: () => selected,
  } as unknown as BrowserScope;
  return {
    id,
    scope: async () => scope,
    select: (n: number) => (selected = pages[n - 1]!),
  };
}

const PAGE = tool(true);
const BROWSER = tool(false);
const signal = new AbortController().signal;

describe('PageLanes', () => {
  it('runs calls on two pages at once and calls on one page in order', async () => {
    const lanes = new PageLanes();
    const session = fakeSession();
    const stuck = deferred<string>();
    const order: string[] = [];
    const first = lanes.run({tool: PAGE, params: {pageId: 1}, session, signal}, () => stuck.promise);
    const samePage = lanes.run({tool: PAGE, params: {pageId: 1}, session, signal}, async () => {
      order.push('page 1 again');
      return 'again';
    });
    const other = await lanes.run({tool: PAGE, params: {pageId: 2}, session, signal}, async b => `page ${b?.page.id}`);
    assert.equal(other, 'page 2');
    assert.deepEqual(order, []);
    stuck.resolve('first');
    assert.equal(await first, 'first');
    assert.equal(await samePage, 'again');
  });

  it('runs a browser-wide call alone; list_pages (free) does not wait for it', async () => {
    const lanes = new PageLanes();
    const session = fakeSession();
    const stuck = deferred<string>();
    const events: string[] = [];
    const pageCall = lanes.run({tool: PAGE, params: {pageId: 1}, session, signal}, () => stuck.promise);
    const wide = lanes.run({tool: BROWSER, params: {}, session, signal}, async () => {
      events.push('browser-wide');
    });
    const later = lanes.run({tool: PAGE, params: {pageId: 2}, session, signal}, async () => {
      events.push('page 2 after it');
    });
    const free = tool(false, {lane: {kind: 'free', why: 'test'}});
    await lanes.run({tool: free, params: {}, session, signal}, async () => events.push('free'));
    assert.deepEqual(events, ['free']);
    stuck.resolve('done');
    await Promise.all([pageCall, wide, later]);
    assert.deepEqual(events, ['free', 'browser-wide', 'page 2 after it']);
  });

  it('binds a call without pageId to the page the session selected before it, however slow the select', async () => {
    const lanes = new PageLanes();
    const session = fakeSession();
    const selectTool = tool(false, {lane: {kind: 'selection', why: 'test'}});
    const slow = deferred<void>();
    const select = lanes.run({tool: selectTool, params: {pageId: 3}, session, signal}, async () => {
      await slow.promise;
      session.select(3);
    });
    const bound = lanes.run({tool: PAGE, params: {}, session, signal}, async b => b);
    slow.resolve();
    await select;
    const result = await bound;
    assert.equal(result?.page.id, 3);
    assert.equal(result?.selected, true);
  });

  it('never runs a call cancelled while it waits in its lane', async () => {
    const lanes = new PageLanes();
    const session = fakeSession();
    const stuck = deferred<void>();
    const first = lanes.run({tool: PAGE, params: {pageId: 1}, session, signal}, () => stuck.promise);
    const cancel = new AbortController();
    let ran = false;
    const second = lanes.run({tool: PAGE, params: {pageId: 1}, session, signal: cancel.signal}, async () => {
      ran = true;
    });
    await new Promise(resolve => setImmediate(resolve));
    cancel.abort();
    await assert.rejects(second, /cancel/i);
    stuck.resolve();
    await first;
    assert.equal(ran, false);
  });

  it('puts every registered tool in a lane: page tools in their page, the rest where their `lane` says', () => {
    const tools = createTools(parseConfig([])).map(t => t.tool);
    const of = (name: string) => laneOf(tools.find(t => t.name === name)!);
    assert.equal(of('take_snapshot'), 'page');
    assert.equal(of('list_pages'), 'free');
    assert.equal(of('select_page'), 'selection');
    assert.equal(of('new_page'), 'browser');
    assert.equal(of('performance_start_trace'), 'browser');
    assert.equal(of('get_heapsnapshot_summary'), 'session');
  });
});
