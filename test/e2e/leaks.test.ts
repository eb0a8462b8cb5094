import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {soak} from '../support/soak.js';

describe('leaks', () => {
  it('keeps heap, Chrome targets and CDP sessions flat over navigate + snapshot + evaluate cycles', async () => {
    // A short version of `npm run soak` (300 cycles), which the closing figures
    // come from. Targets, pages, CDP sessions and listeners must stay level
    // over any number of cycles; heap after GC within 10% after 40.
    const result = await soak(40, 10);
    assert.equal(result.withSnapshot, true);
    assert.deepEqual(result.leaks, [], result.lines.join('\n'));
    assert.equal(result.end.pending, 0);
  });
});
