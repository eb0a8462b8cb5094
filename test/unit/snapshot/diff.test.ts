import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {capText} from '../../../src/response/truncate.js';
import {compactUids, diffSnapshotTexts, parseSnapshotText} from '../../../src/snapshot/diff.js';

const BEFORE = [
  'uid=1_0 RootWebArea "List" url="http://x/"',
  '  uid=1_1 main',
  '    uid=1_2 list',
  '      uid=1_3 listitem',
  '        uid=1_4 button "alpha"',
  '      uid=1_5 listitem',
  '        uid=1_6 button "beta"',
  '    uid=1_7 button "Save"',
  '',
].join('\n');

describe('snapshot diff', () => {
  it('parses lines with their parents', () => {
    const lines = parseSnapshotText(BEFORE);
    assert.equal(lines.length, 8);
    assert.deepEqual(lines[4], {uid: '1_4', depth: 4, body: 'uid=1_4 button "alpha"', parent: '1_3'});
  });

  it('shows added and changed nodes with their ancestors, removed uids once, and counts the rest', () => {
    const after = [
      'uid=1_0 RootWebArea "List" url="http://x/"',
      '  uid=1_1 main',
      '    uid=1_2 list',
      '      uid=1_3 listitem',
      '        uid=1_4 button "alpha" focusable focused',
      '      uid=2_0 listitem',
      '        uid=2_1 button "gamma"',
      '    uid=1_7 button "Save"',
      '',
    ].join('\n');
    const diff = diffSnapshotTexts(BEFORE, after);
    assert.deepEqual(
      {added: diff.added, changed: diff.changed, removed: diff.removed, unchanged: diff.unchanged},
      {added: 2, changed: 1, removed: 2, unchanged: 5},
    );
    assert.equal(
      diff.text,
      [
        '  uid=1_0 RootWebArea "List" url="http://x/"',
        '    uid=1_1 main',
        '      uid=1_2 list',
        '        uid=1_3 listitem',
        '~         uid=1_4 button "alpha" focusable focused',
        '+       uid=2_0 listitem',
        '+         uid=2_1 button "gamma"',
        'Removed: 1_5-1_6',
        'Unchanged: 5 of 8 nodes, not shown; their uids stay valid.',
        '',
      ].join('\n'),
    );
  });

  it('marks nodes that moved among their siblings, not the ones that stayed in order', () => {
    const after = BEFORE.replace(
      / {6}uid=1_3 listitem\n {8}uid=1_4 button "alpha"\n( {6}uid=1_5 listitem\n {8}uid=1_6 button "beta"\n)/,
      '$1      uid=1_3 listitem\n        uid=1_4 button "alpha"\n',
    );
    const diff = diffSnapshotTexts(BEFORE, after);
    assert.equal(diff.changed, 1);
    assert.match(diff.text, /^~ {7}uid=1_(3|5) listitem$/m);
  });

  it('says when nothing changed', () => {
    assert.equal(
      diffSnapshotTexts(BEFORE, BEFORE).text,
      'No changes: all 8 nodes and their uids are as in the previous snapshot.\n',
    );
  });

  it('writes runs of uids as ranges', () => {
    assert.equal(compactUids(['1_3', '1_4', '1_5', '1_9', '2_0', '2_1', 'odd']), '1_3-1_5, 1_9, 2_0-2_1, odd');
  });
});

describe('capText', () => {
  const text = Array.from({length: 100}, (_, i) => `line ${i}`).join('\n') + '\n';

  it('keeps whole lines within the cap and says what it left out and how to get it', () => {
    const capped = capText(text, 300, 'Use filePath.');
    assert.ok(capped.length <= 300, `${capped.length} characters`);
    const lines = capped.split('\n');
    const note = lines.pop() ?? '';
    assert.match(
      note,
      /^\[Output cut at 300 characters: (\d+) more lines \(\d+ characters\) left out\. Use filePath\.\]$/,
    );
    assert.equal(Number(/: (\d+) more lines/.exec(note)?.[1]) + lines.length, 100);
    assert.deepEqual(lines, text.split('\n').slice(0, lines.length));
  });

  it('leaves text under the cap alone and cuts one long line if it must', () => {
    assert.equal(capText('short', 300, 'x'), 'short');
    const one = capText('y'.repeat(1000), 300, 'Narrow it.');
    assert.ok(one.length <= 300);
    assert.match(
      one,
      /^y+\n\[Output cut at 300 characters: 1 more line \(\d+ characters\) left out\. The first line is cut after \d+ characters\. Narrow it\.\]$/,
    );
  });
});
