import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {diffLines, findInSnapshot, normalizeSnapshot, parseSnapshotLine, UidNormalizer} from '../support/oracle.js';

describe('snapshot oracle helpers', () => {
  it('replaces uids by placeholders in order of first appearance, and loopback ports', () => {
    const text =
      'uid=3_0 RootWebArea "A" url="http://127.0.0.1:4321/x"\n  uid=3_7 link "B" url="http://localhost:99/y"\n';
    assert.equal(
      normalizeSnapshot(text),
      'uid=#0 RootWebArea "A" url="http://127.0.0.1:<port>/x"\n  uid=#1 link "B" url="http://localhost:<port>/y"\n',
    );
  });

  it('marks uids an earlier snapshot of the same server printed', () => {
    const n = new UidNormalizer();
    n.normalize('uid=1_0 RootWebArea\n  uid=1_1 button "A"\n');
    assert.equal(
      n.normalize('uid=1_0 RootWebArea\n  uid=2_0 button "B"\n  uid=1_1 button "A"\n'),
      'uid=#0* RootWebArea\n  uid=#1 button "B"\n  uid=#2* button "A"\n',
    );
  });

  it('gives each line of a uid the reference shares between nodes without a DOM node a placeholder of its own', () => {
    const n = new UidNormalizer(true);
    assert.equal(
      n.normalize('uid=1_2 "a"\n  uid=1_9 InlineTextBox "a"\nuid=1_3 "b"\n  uid=1_9 InlineTextBox "b"\n'),
      'uid=#0 "a"\n  uid=#1 InlineTextBox "a"\nuid=#2 "b"\n  uid=#3 InlineTextBox "b"\n',
    );
  });

  it('diffs lines with context, ours as - and theirs as +', () => {
    assert.deepEqual(diffLines('a\nb\nc\n', 'a\nb\nc\n'), []);
    assert.deepEqual(diffLines('a\nb\nc\nd', 'a\nx\nc\nd'), [
      '@@ line 1 (- ours, + theirs)',
      '  a',
      '+ x',
      '- b',
      '  c',
      '  d',
    ]);
  });

  it('parses names that contain quotes and finds elements by role and name', () => {
    assert.deepEqual(parseSnapshotLine('  uid=1_4 button "Say "hi"" disableable disabled'), {
      uid: '1_4',
      role: 'button',
      name: 'Say "hi"',
    });
    assert.deepEqual(parseSnapshotLine('    uid=1_5 "text"'), {uid: '1_5', role: 'StaticText', name: 'text'});
    const snapshot = 'uid=1_0 RootWebArea "P"\n  uid=1_1 button "Go"\n  uid=1_2 button "Go"\n';
    assert.equal(findInSnapshot(snapshot, {role: 'button', name: 'Go', nth: 1}), '1_2');
    assert.throws(() => findInSnapshot(snapshot, {role: 'link'}), /no link/);
  });
});
