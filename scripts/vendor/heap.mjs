// The heap-snapshot bundle: the worker side of DevTools' heap-snapshot model
// (the loader, JSHeapSnapshot with its aggregates, distances, dominators,
// retaining paths and diffs, and the secondary-init manager that computes
// dominators on a second thread). The memory tools run it in worker threads
// of the heap host process (src/devtools/heap/thread.ts) and call it
// directly, so no main-thread proxy is built: nothing of a snapshot crosses
// into the server process.
//
// The entry is the worker barrel, not heap_snapshot_worker-entrypoint.ts: the
// entrypoint would take over the thread's messages for DevTools' own
// dispatcher. The polyfills are prepended to it (the loader needs
// Promise.withResolvers on Node 20). Paths are relative to the
// chrome-devtools-frontend package.
export const workers = [
  {
    name: 'devtools-heap-snapshot',
    entry: 'front_end/entrypoints/heap_snapshot_worker/heap_snapshot_worker.ts',
  },
];
