import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {describeLoadError} from '../../../src/devtools/heap/loadErrors.js';
import {SnapshotCache} from '../../../src/devtools/heap/SnapshotCache.js';

describe('loaded snapshot cache', () => {
  it('unloads the least recently used snapshot past the count limit', () => {
    const cache = new SnapshotCache({maxSnapshots: 2, maxBytes: 1e9});
    cache.touch('a', 10);
    cache.touch('b', 10);
    cache.touch('a');
    assert.deepEqual(cache.evictions(new Set(['c']), 1), [{key: 'b', reason: 'count'}]);
    assert.deepEqual(cache.evictions(new Set()), []);
  });

  it('unloads by memory, oldest first, never a snapshot the call uses', () => {
    const cache = new SnapshotCache({maxSnapshots: 10, maxBytes: 100});
    cache.touch('old', 40);
    cache.touch('mid', 40);
    cache.touch('new', 40);
    assert.deepEqual(cache.evictions(new Set(['new'])), [{key: 'old', reason: 'memory'}]);
    assert.deepEqual(cache.evictions(new Set(['old', 'mid', 'new']), 1, 50), []);
    assert.deepEqual(cache.evictions(new Set(['new']), 1, 50), [
      {key: 'old', reason: 'memory'},
      {key: 'mid', reason: 'memory'},
    ]);
    cache.delete('old');
    assert.equal(cache.totalBytes, 80);
    assert.equal(cache.size, 2);
  });
});

describe('load errors', () => {
  const MB = 1024 * 1024;
  it('tells a non-snapshot, a truncated file and a corrupt one apart', () => {
    assert.match(
      describeLoadError('/x.heapsnapshot', new Error('Token "snapshot" not found (unexpected end of input)'), MB)
        .message,
      /^\/x\.heapsnapshot is not a V8 heap snapshot/,
    );
    assert.equal(
      describeLoadError('/x.heapsnapshot', new Error('Unexpected end of input while Loading edges… {PH1}%'), MB)
        .message,
      'Heap snapshot /x.heapsnapshot is truncated (it ends while loading edges). Take the snapshot again with take_heapsnapshot.',
    );
    assert.match(
      describeLoadError(
        '/x.heapsnapshot',
        new Error('Unexpected token \'o\', ..."broken" oops]" is not valid JSON'),
        MB,
      ).message,
      /^Heap snapshot \/x\.heapsnapshot is corrupt \(Unexpected token/,
    );
    assert.match(
      describeLoadError(
        '/x.heapsnapshot',
        new Error('Analyzing heap snapshot /x.heapsnapshot ran out of memory.'),
        64 * MB,
      ).message,
      /ran out of memory\. Loading it needs more than the heap analysis limit of 64 MB\./,
    );
  });
});
