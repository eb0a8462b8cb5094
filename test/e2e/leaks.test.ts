import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {soak} from '../support/soak.js';

describe('leaks', () => {
  it('keeps heap, Chrome targets and CDP sessions flat over navigate + snapshot + evaluate cycles', async () => {
    // A short version of `npm run soak` (300 cycles), which the closing figures come from.
    const result = await soak(80, 10);
    assert.equal(result.withSnapshot, true);
    assert.deepEqual(result.leaks, [], result.lines.join('\n'));
    assert.equal(result.end.pending, 0);
  });
});
