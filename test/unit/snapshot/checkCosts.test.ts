import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {
  afterCheck,
  afterRead,
  CHECK_PAYS_AT,
  FIRST_CHECK_MS,
  type FrameCosts,
  MIN_CHECKED_NODES,
  MIN_KEPT_NODES,
  worthChecking,
} from '../../../src/snapshot/checkCosts.js';

const DOC = 'loader-1';

/** The costs after reads of `ms` each, then checks of `checks` ms each, in one document. */
function history(nodes: number, reads: number[], checks: number[] = []): FrameCosts | undefined {
  let costs: FrameCosts | undefined;
  for (const ms of reads) {
    costs = afterRead(costs, {loaderId: DOC, nodes, ms});
  }
  for (const ms of checks) {
    costs = afterCheck(costs, {loaderId: DOC, ms, refused: false});
  }
  return costs;
}

describe('snapshot cache: whether a frame is checked', () => {
  it('checks nothing it has not read', () => {
    assert.equal(worthChecking(undefined), false);
  });

  it('leaves the first read of a document out: Chrome builds its accessibility objects then', () => {
    assert.equal(worthChecking(history(150, [40])), false);
    assert.equal(worthChecking(history(150, [40, FIRST_CHECK_MS])), true);
    assert.equal(worthChecking(history(150, [40, FIRST_CHECK_MS - 0.5])), false);
  });

  it('never checks small frames, however slow their reads (a busy machine)', () => {
    assert.equal(worthChecking(history(MIN_CHECKED_NODES - 1, [40, 40, 40], [1, 1])), false);
    assert.equal(worthChecking(history(MIN_CHECKED_NODES, [40, 40, 40], [1, 1])), true);
  });

  it('always checks big frames', () => {
    assert.equal(worthChecking(history(MIN_KEPT_NODES, [1])), true);
  });

  it('checks while reads cost at least CHECK_PAYS_AT times the cheapest check after the first', () => {
    // The first check (it makes the isolated world) is not measured, however slow.
    assert.equal(worthChecking(history(100, [9, 6], [50])), true);
    assert.equal(worthChecking(history(100, [9, 6], [50, 3])), true);
    assert.equal(worthChecking(history(100, [9, 6], [50, 3.5])), false);
    // One slow check on a busy machine does not stop the checks: the cheapest counts.
    assert.equal(worthChecking(history(100, [9, 6], [50, 2, 40])), true);
    assert.equal(CHECK_PAYS_AT * 3, 6);
  });

  it('follows the latest read: a frame that got cheap to read is no longer checked', () => {
    const costs = afterRead(history(100, [9, 6], [50, 2]), {loaderId: DOC, nodes: 20, ms: 1});
    assert.equal(worthChecking(costs), false);
  });

  it('never checks a document the watch refused (a defined custom element), and starts over on a new one', () => {
    const refused = afterCheck(history(MIN_KEPT_NODES, [9, 9]), {loaderId: DOC, ms: 2, refused: true});
    assert.equal(worthChecking(refused), false);
    assert.equal(worthChecking(afterRead(refused, {loaderId: DOC, nodes: 400, ms: 9})), false);
    const next = afterRead(refused, {loaderId: 'loader-2', nodes: 400, ms: 9});
    assert.equal(next.refused, false);
    assert.equal(worthChecking(next), true);
  });
});
