import type {Page} from './Page.js';

/** A full GC before the snapshot, as DevTools and the reference do. */
const COLLECT_GARBAGE_TIMEOUT_MS = 60_000;
/** Snapshotting a heavy page takes tens of seconds; a stuck renderer must not hang the call. */
export const HEAP_SNAPSHOT_TIMEOUT_MS = 300_000;

export type HeapSnapshotProgress = (done: number, total: number) => void;

/**
 * Takes a heap snapshot of the page's JS heap, handing every chunk Chrome
 * sends to `write` as it arrives (the snapshot is never held whole in memory).
 * The HeapProfiler domain stays enabled afterwards: disabling it clears V8's
 * object ids, and the next snapshot would show every surviving object as
 * deleted and re-created, which breaks compare_heapsnapshots.
 */
export async function captureHeapSnapshot(
  page: Page,
  write: (chunk: string) => void,
  onProgress?: HeapSnapshotProgress,
): Promise<void> {
  const session = page.session;
  const unsubscribe = [
    session.on('HeapProfiler.addHeapSnapshotChunk', ({chunk}) => write(chunk)),
    session.on('HeapProfiler.reportHeapSnapshotProgress', ({done, total}) => onProgress?.(done, total)),
  ];
  try {
    await session.send('HeapProfiler.enable');
    await session.send('HeapProfiler.collectGarbage', undefined, COLLECT_GARBAGE_TIMEOUT_MS);
    // Chrome sends every chunk before it answers, so the snapshot is complete here.
    await session.send(
      'HeapProfiler.takeHeapSnapshot',
      {reportProgress: Boolean(onProgress)},
      HEAP_SNAPSHOT_TIMEOUT_MS,
    );
  } finally {
    unsubscribe.forEach(off => off());
  }
}
