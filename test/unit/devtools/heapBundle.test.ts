import assert from 'node:assert/strict';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, it} from 'node:test';
import {writeHeapSnapshot} from 'node:v8';

import {HeapSnapshots} from '../../../src/devtools/heap/HeapSnapshots.js';

class BundleProbeItem {
  constructor(readonly index: number) {}
}

/**
 * The vendored heap-snapshot model (build/vendor/devtools-heap-snapshot.mjs)
 * in the heap host, on a snapshot of this very process: Node writes V8 heap
 * snapshots too, so no browser is needed. On Node 20 this also proves the
 * bundle's polyfills (the loader calls Promise.withResolvers).
 */
describe('DevTools heap-snapshot bundle in the heap host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-heap-bundle-'));
  const heap = new HeapSnapshots();
  const items = Array.from({length: 137}, (_, i) => new BundleProbeItem(i));
  const file = writeHeapSnapshot(join(dir, 'node.heapsnapshot'));

  after(async () => {
    await heap.dispose();
    rmSync(dir, {recursive: true, force: true});
  });

  it('loads a snapshot and answers statistics and classes', async () => {
    const {result: summary} = await heap.query(file, 'summary', undefined);
    assert.ok(summary.stats.total > 1_000_000, `total ${summary.stats.total}`);
    assert.ok(summary.staticData.nodeCount > 10_000);
    const {result: details} = await heap.query(file, 'aggregates', {});
    const probe = details.page.items.find(row => row.className === 'BundleProbeItem');
    assert.equal(probe?.count, items.length);
    const {result: nodes} = await heap.query(file, 'classNodes', {id: probe.id, pageSize: 2});
    assert.equal(nodes.kind, 'nodes');
    assert.equal(nodes.page.info.total, items.length);
    assert.equal(await heap.close(file), true);
    assert.equal(await heap.close(file), false);
  });
});
