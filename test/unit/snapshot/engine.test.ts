import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {nextPath, recordPath} from '../../../src/snapshot/engine.js';

type History = ReturnType<typeof recordPath>;
type Path = ReturnType<typeof nextPath>;

const DOC = 'loader-1';

/** A frame's history after one snapshot. */
const after = (path: Path, ms: number, nodes = 2_000, costlyWalk = false, document = DOC) =>
  recordPath(undefined, {document, path, ms, nodes, costlyWalk});

/** Takes `count` snapshots of one frame whose paths cost `cost` each; returns the paths taken. */
function run(first: History, count: number, cost: Record<Path, number>, nodes = 2_000): {paths: Path[]; last: History} {
  let history = first;
  const paths: Path[] = [];
  for (let i = 0; i < count; i++) {
    const path = nextPath(history);
    paths.push(path);
    history = recordPath(history, {document: DOC, path, ms: cost[path], nodes, costlyWalk: false});
  }
  return {paths, last: history};
}

const indexes = (paths: Path[], path: Path) => paths.flatMap((p, i) => (p === path ? [i] : []));

describe('snapshot engine: the path per frame', () => {
  it('reads a small frame whole, always', () => {
    assert.deepEqual(run(after('full', 3, 120), 20, {full: 3, fast: 1}, 120).paths, Array(20).fill('full'));
  });

  it('tries the walk once on a big frame, keeps the faster path, and measures the slower one again later', () => {
    // The walk is 1.25x faster: the full tree is measured again 7 snapshots later (5 x 1.25, rounded up).
    const {paths} = run(after('full', 25), 12, {full: 25, fast: 20});
    assert.deepEqual(paths.slice(0, 10), [
      'fast',
      'fast',
      'fast',
      'fast',
      'fast',
      'fast',
      'fast',
      'fast',
      'full',
      'fast',
    ]);
  });

  it('waits in proportion to the loss before measuring the slower path again, twice as long after each loss', () => {
    const {paths} = run(after('full', 30), 80, {full: 30, fast: 90});
    // The first walk is sampled twice (one-time costs). Lost 3x: 15 snapshots on the full tree, then 30.
    assert.deepEqual(indexes(paths, 'fast'), [0, 1, 17, 48]);
    // A walk ten times faster leaves the full tree untried for 50 snapshots.
    const big = run(after('full', 2_000), 60, {full: 2_000, fast: 200});
    assert.deepEqual(indexes(big.paths, 'full'), [51]);
  });

  it('follows the page when the path it takes gets slower than the other', () => {
    const before = run(after('full', 30), 10, {full: 30, fast: 90});
    assert.equal(before.paths.at(-1), 'full');
    // The page becomes a long list of plain buttons: the full tree now costs more than the walk did.
    const later = run(before.last, 10, {full: 120, fast: 25});
    assert.deepEqual(later.paths.slice(0, 3), ['full', 'fast', 'fast']);
  });

  it('starts over on a new document', () => {
    const known = run(after('full', 30), 5, {full: 30, fast: 90}).last;
    assert.equal(nextPath(known), 'full');
    const navigated = recordPath(known, {document: 'loader-2', path: 'full', ms: 200, nodes: 2_000, costlyWalk: false});
    assert.equal(navigated.ms.fast, undefined, 'the old document’s walk time is forgotten');
    assert.equal(nextPath(navigated), 'fast');
  });

  it('never walks a document again once its walk differed from the full tree', () => {
    const tried = run(after('full', 100), 1, {full: 100, fast: 10}).last;
    assert.equal(nextPath(tried), 'fast');
    const inexact = {...tried, walkInexact: true};
    assert.deepEqual(run(inexact, 30, {full: 100, fast: 10}).paths, Array(30).fill('full'));
    const navigated = recordPath(inexact, {
      document: 'loader-2',
      path: 'full',
      ms: 100,
      nodes: 2_000,
      costlyWalk: false,
    });
    assert.equal(nextPath(navigated), 'fast', 'a new document is measured afresh');
  });

  it('measures the full tree after a costly first walk of a big frame', () => {
    assert.equal(nextPath(after('fast', 400, 5_000, true)), 'full');
    assert.equal(nextPath(after('fast', 40, 5_000, false)), 'fast');
  });
});
