import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {withElementUids} from '../../../src/browser/apps/thirdParty.js';
import type {CdpSession} from '../../../src/cdp/CdpConnection.js';
import {insertExtraNodes} from '../../../src/snapshot/extraNodes.js';
import {formatSnapshot} from '../../../src/snapshot/format.js';
import type {FrameTarget, SnapNode} from '../../../src/snapshot/types.js';

const FRAME: FrameTarget = {session: {} as CdpSession, frameId: 'main', loaderId: 'L', key: 'main'};

function node(role: string, name: string, id: number, children: SnapNode[] = []): SnapNode {
  return {role, name, props: {}, children, key: `L_${id}`, ref: {kind: 'backend', frame: FRAME, backendNodeId: id}};
}

function text(root: SnapNode): string {
  return formatSnapshot(root, n => String(n.ref?.backendNodeId ?? '?'), false).replace(/uid=/g, '');
}

describe('extra nodes of third-party tool results', () => {
  it('wraps the children inside the element, at the place of the first, under the nearest shown ancestor', () => {
    // <main 2> <p 10>"a" 3</p> <button 4> <div 11><span>"b" 5</span></div> </main>
    const root = node('RootWebArea', 'Page', 1, [
      node('main', '', 2, [node('StaticText', 'a', 3), node('button', 'Go', 4), node('StaticText', 'b', 5)]),
    ]);
    insertExtraNodes(
      root,
      [
        {backendNodeId: 10, localName: 'p', ancestors: [2, 1], descendants: new Set([3])},
        {backendNodeId: 11, localName: 'div', ancestors: [2, 1], descendants: new Set([12, 5])},
        {backendNodeId: 4, localName: 'button', ancestors: [2, 1], descendants: new Set()},
      ],
      FRAME,
    );
    assert.equal(
      text(root),
      [
        '1 RootWebArea "Page"',
        '  2 main',
        '    10 p',
        '      3 "a"',
        '    4 button "Go"',
        '    11 div',
        '      5 "b"',
        '',
      ].join('\n'),
    );
    assert.equal(root.children[0]?.children[0]?.key, 'custom_10');
  });

  it('puts an element with no shown ancestor and no shown content last under the root', () => {
    const root = node('RootWebArea', 'Page', 1, [node('button', 'Go', 4)]);
    insertExtraNodes(root, [{backendNodeId: 20, localName: 'canvas', ancestors: [99], descendants: new Set()}], FRAME);
    assert.equal(text(root), '1 RootWebArea "Page"\n  4 button "Go"\n  20 canvas\n');
  });

  it('replaces element markers by uids, anywhere in the result', () => {
    const value = {a: {m: 0}, list: [{m: 1}, {m: 0}], other: {m: 0, x: 1}, s: 'm'};
    assert.deepEqual(withElementUids(value, 'm', ['1_2', undefined]), {
      a: {uid: '1_2'},
      list: [{uid: 'stashed-1'}, {uid: '1_2'}],
      other: {m: 0, x: 1},
      s: 'm',
    });
  });
});
