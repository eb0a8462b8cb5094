// The heap-snapshot bundles: DevTools' HeapSnapshotModel (the proxy that talks
// to the worker) for the main thread, and the worker itself, which parses and
// analyses the snapshot in a worker_threads thread.
export const bundle = {
  name: 'devtools-heap',
  source: `
export {setUpDevTools} from 'vendor-entry:setup';
export * as HeapSnapshotModel from './front_end/models/heap_snapshot/heap_snapshot.js';
export * as Common from './front_end/core/common/common.js';
`,
};

/**
 * The worker is built from DevTools' own entrypoint file: it uses top-level
 * await (HostRuntime), which a re-exporting wrapper module would break.
 * Paths are relative to the chrome-devtools-frontend package.
 */
export const workers = [
  {
    name: 'devtools-heap-worker',
    entry: 'front_end/entrypoints/heap_snapshot_worker/heap_snapshot_worker-entrypoint.ts',
  },
];
