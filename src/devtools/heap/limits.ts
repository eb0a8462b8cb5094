/** How much the heap analysis may hold, and the file checks made before loading anything. */
import {totalmem} from 'node:os';

import {openForRead} from '../../util/safeOpen.js';
import type {FileRef} from './hostProtocol.js';

/** Snapshots kept loaded at once (a compare needs two). */
export const MAX_LOADED_SNAPSHOTS = 4;
/** Default memory for all loaded snapshots: half the machine, at most 8 GiB. */
export const DEFAULT_MEMORY_LIMIT_BYTES = Math.min(totalmem() / 2, 8 * 1024 ** 3);
/**
 * Memory a loaded snapshot needs: a thread with DevTools' model (about 20 MB)
 * plus 2.5 bytes per byte of file (measured: 26 MB for 3 MB, 505 MB for 200 MB).
 */
export function estimatedSnapshotBytes(fileBytes: number): number {
  return 24 * 1024 * 1024 + fileBytes * 2.5;
}

/**
 * Bounds of loading a snapshot and of one query on it: generous (a busy
 * machine loads a 170 MB snapshot in one to two minutes, and a diff or the
 * duplicate strings of a large one take tens of seconds), but finite.
 */
export function loadTimeoutMs(fileBytes: number): number {
  return 120_000 + (fileBytes / 1e6) * 1_000;
}

export function queryTimeoutMs(fileBytes: number): number {
  return 120_000 + (fileBytes / 1e6) * 500;
}

const MB = 1024 * 1024;
const SNAPSHOT_EXTENSIONS = ['.heapsnapshot', '.heaptimeline'];
/** V8 writes `{"snapshot":{` first; anything else is not a heap snapshot. */
const HEADER = /^\s*\{\s*"snapshot"\s*:/;
const HEADER_BYTES = 64;

/**
 * Checks a snapshot file (canonical path, inside the roots) before it is
 * loaded: opened without following links, a regular file with one link;
 * returns what identifies this version of it.
 */
export async function checkSnapshotFile(path: string, memoryLimitBytes: number): Promise<FileRef> {
  if (!SNAPSHOT_EXTENSIONS.some(ext => path.endsWith(ext))) {
    throw new Error(`File ${path} must have a .heapsnapshot or .heaptimeline extension.`);
  }
  const {handle} = await openForRead(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      throw new Error(
        `Heap snapshot ${path} does not exist. Take one with take_heapsnapshot, or pass the path of an existing .heapsnapshot file.`,
      );
    }
    throw new Error(`Cannot read heap snapshot ${path}: ${error.message}`);
  });
  try {
    const info = await handle.stat({bigint: true});
    const size = Number(info.size);
    if (size === 0) {
      throw new Error(`Heap snapshot ${path} is empty. Take the snapshot again with take_heapsnapshot.`);
    }
    const needed = estimatedSnapshotBytes(size);
    if (needed > memoryLimitBytes) {
      throw new Error(
        `Heap snapshot ${path} is ${Math.round(size / MB)} MB; analyzing it needs about ${Math.round(needed / MB)} MB, more than the heap analysis limit of ${Math.round(memoryLimitBytes / MB)} MB. Start the server with a larger --heapSnapshotMemoryLimit (in MB), or take a snapshot of a smaller page.`,
      );
    }
    const {buffer, bytesRead} = await handle.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
    if (!HEADER.test(buffer.subarray(0, bytesRead).toString('utf8'))) {
      throw new Error(
        `${path} is not a V8 heap snapshot (it does not start with a "snapshot" header). Use a file written by take_heapsnapshot or saved from DevTools' Memory panel.`,
      );
    }
    return {path, size, mtimeMs: Number(info.mtimeMs), dev: String(info.dev), ino: String(info.ino)};
  } finally {
    await handle.close();
  }
}
