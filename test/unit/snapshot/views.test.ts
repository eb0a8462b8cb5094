import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {formatMatches} from '../../../src/snapshot/find.js';
import type {PrintedLine} from '../../../src/snapshot/format.js';
import {openLayerLine} from '../../../src/snapshot/layers.js';
import {snapshotView} from '../../../src/snapshot/views.js';

/** Lines from `depth role "name" [props]` shorthand, uids 1_0, 1_1, ... */
function lines(...specs: Array<[number, string, string, Record<string, string | number | boolean>?]>): PrintedLine[] {
  const stack: string[] = [];
  return specs.map(([depth, role, name, props = {}], i) => {
    const uid = `1_${i}`;
    stack.length = depth;
    const parent = stack[depth - 1];
    stack.push(uid);
    const extra = Object.entries(props).map(([k, v]) => (v === true ? k : `${k}="${v}"`));
    const body = [`uid=${uid}`, role === 'StaticText' ? '' : role, name ? `"${name}"` : '', ...extra]
      .filter(Boolean)
      .join(' ');
    return {uid, depth, body, parent, role, name, props};
  });
}

const PAGE = lines(
  [0, 'RootWebArea', 'Page'],
  [1, 'heading', 'A', {level: 1}],
  [1, 'StaticText', 'intro'],
  [1, 'navigation', ''],
  [2, 'link', 'Home'],
  [1, 'heading', 'B', {level: 2}],
  [1, 'generic', ''],
  [2, 'button', 'Go'],
  [1, 'dialog', 'Ask', {modal: true}],
  [2, 'textbox', 'Q', {focused: true, value: 'hi'}],
);

const text = (view: {lines: Array<{depth: number; body: string}>}) =>
  view.lines.map(l => `${'  '.repeat(l.depth)}${l.body}`);

describe('snapshot views', () => {
  it('interactive keeps actionable lines under their place and heading', () => {
    assert.deepEqual(text(snapshotView(PAGE, {interactive: true})), [
      'uid=1_0 RootWebArea "Page"',
      '  uid=1_1 heading "A" level="1"',
      '    uid=1_3 navigation',
      '      uid=1_4 link "Home"',
      '    uid=1_5 heading "B" level="2"',
      '      uid=1_7 button "Go"',
      '      uid=1_8 dialog "Ask" modal',
      '        uid=1_9 textbox "Q" focused value="hi"',
    ]);
  });

  it('uid re-roots a subtree with its ancestor chain; depth counts what it cuts', () => {
    const view = snapshotView(PAGE, {uid: '1_6'});
    assert.deepEqual(view.head, ['In: uid=1_0 RootWebArea "Page"']);
    assert.deepEqual(text(view), ['uid=1_6 generic', '  uid=1_7 button "Go"']);
    const shallow = snapshotView(PAGE, {depth: 1});
    assert.deepEqual(text(shallow).slice(3, 4), ['  uid=1_3 navigation [+1 below]']);
    assert.match(shallow.tail[0] ?? '', /^3 deeper nodes not shown \(depth 1\)/);
    assert.throws(() => snapshotView(PAGE, {uid: '9_9'}), /Element uid "9_9" is not on the page/);
    assert.deepEqual(snapshotView(PAGE, {uid: '9_9'}, true).lines, []);
  });

  it('names the open layer', () => {
    assert.equal(
      openLayerLine(PAGE, false),
      'Open: modal dialog uid=1_8 "Ask" (focus inside). Pass its uid to take_snapshot or find_elements to see only it.',
    );
    assert.equal(openLayerLine(PAGE.slice(0, 8), false), undefined);
    assert.equal(openLayerLine(PAGE.slice(0, 8), true), 'Open: no modal dialog, menu or listbox.');
  });

  it('find matches role, name and value, grouped under their ancestors (the page root left out)', () => {
    assert.deepEqual(formatMatches(PAGE, {query: 'HI', limit: 20}), [
      'In: uid=1_8 dialog "Ask"',
      '  uid=1_9 textbox "Q" focused value="hi"',
    ]);
    assert.deepEqual(formatMatches(PAGE, {query: 'o', role: 'link', limit: 1}), [
      'In: uid=1_3 navigation',
      '  uid=1_4 link "Home"',
    ]);
    // Children of the root, then the root itself: under one line saying so.
    assert.deepEqual(formatMatches(PAGE, {query: 'heading', limit: 20}), [
      'At the top:',
      '  uid=1_1 heading "A" level="1"',
      '  uid=1_5 heading "B" level="2"',
    ]);
    assert.deepEqual(formatMatches(PAGE, {query: 'o', limit: 4}), [
      'At the top:',
      '  uid=1_0 RootWebArea "Page"',
      '  uid=1_2 "intro"',
      '  uid=1_3 navigation',
      'In: uid=1_3 navigation',
      '  uid=1_4 link "Home"',
      '3 more matched: narrow the query, give a role, or raise limit.',
    ]);
    assert.deepEqual(formatMatches(PAGE, {query: 'zz', limit: 1}), [
      'No element matches "zz" among 10 nodes. take_snapshot with interactive=true lists what can be acted on.',
    ]);
  });
});
