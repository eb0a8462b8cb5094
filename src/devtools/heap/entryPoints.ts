/**
 * The files the heap host process and its snapshot threads start from.
 * Compiled, they are host.js and thread.js next to this module
 * (build/src/devtools/heap/). In the published package they are entry points
 * of their own, dist/heap-host.js and dist/heap-thread.js (scripts/bundle.mjs),
 * next to the chunk in dist/ this code is bundled into: a path that exists
 * only in one of the two layouts made the bundle fork a file that was not
 * there.
 */
import {entryPath} from '../../util/childEntry.js';

/** Each entry's file in build/, then in dist/ (the names scripts/bundle.mjs gives them). */
export const HEAP_ENTRY_FILES = {
  host: ['host.js', 'heap-host.js'],
  thread: ['thread.js', 'heap-thread.js'],
} as const;

export type HeapEntry = keyof typeof HEAP_ENTRY_FILES;

/** The absolute path of an entry; throws, saying what is missing where, when neither file exists. */
export function heapEntryPath(entry: HeapEntry): string {
  return entryPath(
    import.meta.url,
    HEAP_ENTRY_FILES[entry],
    `The heap analysis ${entry === 'host' ? 'process' : 'thread'}`,
  );
}
