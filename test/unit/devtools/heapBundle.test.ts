import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {getHeapSnapshot} from 'node:v8';

import {heapWorkerUrl, loadHeapBundle} from '../../../src/devtools/vendor.js';

interface SnapshotProxy {
  getStatistics(): Promise<{total: number; v8heap: {total: number}}>;
  staticData: {nodeCount: number} | null;
}
interface LoaderProxy {
  write(chunk: string): Promise<void>;
  close(): Promise<void>;
}
interface WorkerProxy {
  createLoader(uid: number, received: (snapshot: SnapshotProxy) => void): LoaderProxy;
  dispose(): void;
}
type WorkerProxyClass = new (handler: () => void, console: object, workerUrl: string) => WorkerProxy;

/**
 * The memory tools build on this: the main-thread proxy of the heap-snapshot
 * model and its worker_threads worker, both from the vendored bundles, with the
 * polyfills (the loader calls Promise.withResolvers, which Node 20 lacks).
 */
describe('DevTools heap-snapshot bundles', () => {
  it('stream a snapshot into the worker and answer statistics', async () => {
    const {HeapSnapshotModel} = await loadHeapBundle();
    const proxies = HeapSnapshotModel['HeapSnapshotProxy'] as {HeapSnapshotWorkerProxy: WorkerProxyClass};
    const quiet = {log() {}, warn() {}, error() {}};
    const worker = new proxies.HeapSnapshotWorkerProxy(() => {}, quiet, heapWorkerUrl().href);
    try {
      let received: SnapshotProxy | undefined;
      const loader = worker.createLoader(1, snapshot => (received = snapshot));
      for await (const chunk of getHeapSnapshot()) {
        await loader.write(String(chunk));
      }
      // close() parses the snapshot (in the worker) and hands it over before resolving.
      await loader.close();
      const snapshot = received;
      assert.ok(snapshot, 'the loader handed over the parsed snapshot');
      const statistics = await snapshot.getStatistics();
      assert.ok(statistics.total > 1_000_000, `total ${statistics.total}`);
      assert.ok(statistics.v8heap.total > 0 && statistics.v8heap.total <= statistics.total);
      assert.ok((snapshot.staticData?.nodeCount ?? 0) > 10_000);
    } finally {
      worker.dispose();
    }
  });
});
