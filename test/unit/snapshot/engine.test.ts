import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {nextPath, recordPath} from '../../../src/snapshot/engine.js';

type History = ReturnType<typeof recordPath>;
type Path = ReturnType<typeof nextPath>;

/** Takes `count` snapshots of one frame whose paths cost `cost` each; returns the paths taken. */
function run(first: History, count: number, cost: Record<Path, number>, nodes = 2_000): {paths: Path[]; last: History} {
  let history = first;
  const paths: Path[] = [];
  for (let i = 0; i < count; i++) {
    const path = nextPath(history);
    paths.push(path);
    history = recordPath(history, path, cost[path], nodes, false);
  }
  return {paths, last: history};
}

describe('snapshot engine: the path per frame', () => {
  it('reads a small frame whole, always', () => {
    const small = recordPath(undefined, 'full', 3, 120, false);
    assert.deepEqual(run(small, 20, {full: 3, fast: 1}, 120).paths, Array(20).fill('full'));
  });

  it('tries the walk once on a big frame, keeps the faster path, and measures the slower one again later', () => {
    const big = recordPath(undefined, 'full', 100, 2_000, false);
    const {paths} = run(big, 8, {full: 100, fast: 20});
    // The walk wins: it stays, with the full tree measured again five snapshots later.
    assert.deepEqual(paths, ['fast', 'fast', 'fast', 'fast', 'fast', 'fast', 'full', 'fast']);
  });

  it('goes back to the full tree when the walk is slower, and tries the walk less and less often', () => {
    const big = recordPath(undefined, 'full', 30, 2_000, false);
    const {paths} = run(big, 40, {full: 30, fast: 90});
    const walks = paths.flatMap((path, i) => (path === 'fast' ? [i] : []));
    // The first trial, then after 5, 10 and 20 snapshots on the full tree.
    assert.deepEqual(walks, [0, 6, 17, 38]);
  });

  it('switches when the page changes and the slower path becomes the faster', () => {
    const big = recordPath(undefined, 'full', 30, 2_000, false);
    const before = run(big, 12, {full: 30, fast: 90});
    assert.equal(before.paths.at(-1), 'full');
    // The page becomes a long list of plain buttons: the next trial of the walk wins and it stays.
    const after = run(before.last, 30, {full: 120, fast: 25});
    const firstWalk = after.paths.indexOf('fast');
    assert.ok(firstWalk >= 0, 'the walk is tried again');
    assert.equal(after.paths[firstWalk + 1], 'fast');
    assert.ok(after.paths.filter(p => p === 'fast').length > after.paths.length / 2);
  });

  it('measures the full tree after a costly first walk of a big frame', () => {
    const walked = recordPath(undefined, 'fast', 400, 5_000, true);
    assert.equal(nextPath(walked), 'full');
    const cheapWalk = recordPath(undefined, 'fast', 40, 5_000, false);
    assert.equal(nextPath(cheapWalk), 'fast');
  });
});
