import type {FileHandle} from 'node:fs/promises';

import type {CdpSession} from '../cdp/CdpConnection.js';

/** A full GC before the snapshot, as DevTools and the reference do. */
const COLLECT_GARBAGE_TIMEOUT_MS = 60_000;
/** Snapshotting a heavy page takes tens of seconds; a stuck renderer must not hang the call. */
export const HEAP_SNAPSHOT_TIMEOUT_MS = 300_000;

export interface HeapSnapshotProgress {
  (done: number, total: number): void;
}

/**
 * Takes a heap snapshot of the page's main JS heap and streams every chunk
 * Chrome sends straight to `file` (the snapshot is never held whole in
 * memory). Returns the bytes written.
 */
export async function captureHeapSnapshot(
  session: CdpSession,
  file: FileHandle,
  onProgress?: HeapSnapshotProgress,
): Promise<number> {
  const stream = file.createWriteStream({encoding: 'utf8', autoClose: false});
  let written = 0;
  let writeError: Error | undefined;
  stream.on('error', error => (writeError ??= error));
  const unsubscribe = [
    session.on('HeapProfiler.addHeapSnapshotChunk', ({chunk}) => {
      written += Buffer.byteLength(chunk);
      stream.write(chunk);
    }),
    session.on('HeapProfiler.reportHeapSnapshotProgress', ({done, total}) => onProgress?.(done, total)),
  ];
  try {
    await session.send('HeapProfiler.enable');
    await session.send('HeapProfiler.collectGarbage', undefined, COLLECT_GARBAGE_TIMEOUT_MS);
    // Chrome sends every chunk before it answers, so the file is complete here.
    await session.send(
      'HeapProfiler.takeHeapSnapshot',
      {reportProgress: Boolean(onProgress)},
      HEAP_SNAPSHOT_TIMEOUT_MS,
    );
  } finally {
    unsubscribe.forEach(off => off());
    await new Promise<void>(resolve => stream.end(resolve));
    await session.trySend('HeapProfiler.disable');
  }
  if (writeError) {
    throw writeError;
  }
  return written;
}
