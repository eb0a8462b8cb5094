import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {deferred, mapLimited} from '../../../src/util/async.js';

describe('mapLimited', () => {
  it('runs at most `limit` at a time, takes the items in order and keeps their order in the results', async () => {
    const started: number[] = [];
    const gates = Array.from({length: 10}, () => deferred<void>());
    let running = 0;
    let most = 0;
    const all = mapLimited([...gates.keys()], 3, async index => {
      started.push(index);
      running++;
      most = Math.max(most, running);
      await gates[index]!.promise;
      running--;
      return index * 2;
    });
    // Each release lets one more start: the items are released out of order.
    for (const index of [2, 0, 1, 5, 3, 4, 8, 6, 7, 9]) {
      const deadline = Date.now() + 10_000;
      while (!started.includes(index)) {
        assert.ok(Date.now() < deadline, `item ${index} never started (started: ${started.join(', ')})`);
        await new Promise(resolve => setImmediate(resolve));
      }
      gates[index]!.resolve();
    }
    assert.deepEqual(await all, [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    assert.equal(most, 3);
    assert.deepEqual(
      started,
      [...started].sort((a, b) => a - b),
      'items are taken in order',
    );
  });

  it('rejects with the first error and takes no more items', async () => {
    const taken: number[] = [];
    const result = mapLimited([0, 1, 2, 3, 4, 5], 2, async index => {
      taken.push(index);
      if (index === 1) {
        throw new Error('item 1 failed');
      }
      await new Promise(resolve => setImmediate(resolve));
      return index;
    });
    await assert.rejects(result, /item 1 failed/);
    assert.ok(taken.length < 6, `items taken after the failure: ${taken.join(', ')}`);
  });

  it('handles no items', async () => {
    assert.deepEqual(await mapLimited([], 4, () => Promise.resolve(1)), []);
  });
});
