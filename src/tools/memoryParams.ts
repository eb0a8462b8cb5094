/** Parameters and response helpers shared by the memory tools (memory.ts, memoryGraph.ts). */
import * as v from 'valibot';

import {type ByteRange, parseByteSizeRange} from '../devtools/heap/byteSize.js';
import {HEAP_SECTION_TITLE, MAX_NAME_LENGTH} from '../devtools/heap/format.js';
import type {ProgressCallback} from '../devtools/heap/HeapSnapshots.js';
import {HEAP_SNAPSHOT_FILTERS} from '../devtools/heap/results.js';
import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import type {ProgressReporter} from '../util/progress.js';
import type {ToolAnnotations} from './defineTool.js';

/** Annotations of every analysis tool (all but take_heapsnapshot): read-only, behind --memoryDebugging. */
export const ANALYSIS: ToolAnnotations = {
  category: 'memory',
  readOnlyHint: true,
  conditions: ['memoryDebugging'],
};

/** The reference requires it; here it defaults to the snapshot taken last, so both forms work. */
export const filePathEntry = {
  filePath: v.optional(
    v.pipe(
      v.string(),
      v.description('A .heapsnapshot file (from take_heapsnapshot). Default: the snapshot taken last in this session.'),
    ),
  ),
};

export const maxNameLengthEntry = {
  maxNameLength: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(`Names longer than this are cut, with "...". Default ${MAX_NAME_LENGTH}.`),
    ),
  ),
};

export const pageEntries = {
  pageIdx: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(0), v.description('0-based page to return. Default: the first.')),
  ),
  pageSize: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.gtValue(0),
      v.description('Items per page. Without pageIdx and pageSize, all items are returned.'),
    ),
  ),
};

export const nodeIdEntry = (what: string) => ({
  nodeId: v.pipe(v.number(), v.description(`Node id (the @ number in other heap tools' output) to ${what}.`)),
});

export const classFilterEntries = {
  filterName: v.optional(
    v.pipe(
      v.picklist(HEAP_SNAPSHOT_FILTERS),
      v.description(
        'Only objects retained by detached DOM nodes, the console, event handlers or contexts, or by native context (sharedNativeContext, noNativeContext, attributedToSpecificNativeContext with objectId).',
      ),
    ),
  ),
  objectId: v.optional(
    v.pipe(
      v.number(),
      v.description(
        'Node id of the native context (see get_heapsnapshot_summary) for filterName attributedToSpecificNativeContext.',
      ),
    ),
  ),
};

/** A byte size range parameter: "1MB" (minimum), "1MB-2MB", "-1MB", "1MB-". */
export function byteRangeEntry(description: string) {
  return v.optional(
    v.pipe(
      v.string(),
      v.description(description),
      v.rawTransform<string, ByteRange>(({dataset, addIssue, NEVER}) => {
        try {
          return parseByteSizeRange(dataset.value);
        } catch (error) {
          addIssue({message: (error as Error).message});
          return NEVER;
        }
      }),
    ),
  );
}

/** Progress messages at most every PROGRESS_INTERVAL_MS (Chrome reports far more often). */
const PROGRESS_INTERVAL_MS = 500;

export function throttled(progress: ProgressReporter): ProgressReporter {
  let last = 0;
  return message => {
    const now = Date.now();
    if (now - last >= PROGRESS_INTERVAL_MS) {
      last = now;
      progress(message);
    }
  };
}

/** Load progress as MCP progress messages (loading is the slow part of a first call). */
export function loadProgress(progress: ProgressReporter): ProgressCallback {
  const report = throttled(progress);
  return (loaded, total) => {
    if (loaded >= total) {
      // The slow part starts here on large snapshots: always say so.
      progress('Heap snapshot read; computing distances, dominators and retained sizes');
      return;
    }
    report(`Loading heap snapshot: ${Math.floor((loaded / total) * 100)}% of ${(total / 1e6).toFixed(1)} MB`);
  };
}

/** Notes first (as tool lines), then the reference's "## Heap Snapshot Data" section. */
export function heapResponse(response: ResponseBuilder<'heapSnapshot'>, notes: string[], lines: string[]): void {
  response.line(...notes).section('heapSnapshot', [HEAP_SECTION_TITLE, ...lines]);
}
