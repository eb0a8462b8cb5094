import * as v from 'valibot';

import {formatAggregates, formatDuplicateStrings, formatNodeList, formatSummary} from '../devtools/heap/format.js';
import {NO_PROGRESS} from '../util/progress.js';
import {definePageTool, defineTool} from './defineTool.js';
import {
  ANALYSIS,
  byteRangeEntry,
  classFilterEntries,
  filePathEntry,
  heapResponse,
  loadProgress,
  maxNameLengthEntry,
  pageEntries,
  throttled,
} from './memoryParams.js';

export const takeHeapSnapshot = definePageTool({
  name: 'take_heapsnapshot',
  title: 'Take heap snapshot',
  description: 'Save a heap snapshot of the page (after GC) to a .heapsnapshot file.',
  annotations: {
    category: 'memory',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  blockedByDialog: true,
  filePaths: ['filePath'],
  schema: {
    filePath: v.pipe(v.string(), v.description('File to write.')),
  },
  async handler({params, page}, response, {files, heap, progress}) {
    const report = throttled(progress);
    // Chrome reports progress only when asked: ask only when the client listens.
    const onProgress =
      progress === NO_PROGRESS
        ? undefined
        : (done: number, total: number) =>
            report(`Taking heap snapshot: ${total ? Math.floor((done / total) * 100) : 0}%`);
    const path = await files.saveStreamed(params.filePath, '.heapsnapshot', write =>
      page.captureHeapSnapshot(write, onProgress),
    );
    heap.noteTaken(path);
    response.line(`Heap snapshot saved to ${path}`);
  },
});

export const closeHeapSnapshot = defineTool({
  name: 'close_heapsnapshot',
  title: 'Close heap snapshot',
  description: 'Unload a heap snapshot the analysis tools loaded, freeing its memory. The file stays on disk.',
  annotations: {
    category: 'memory',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    conditions: ['memoryDebugging'],
  },
  filePaths: ['filePath'],
  schema: {...filePathEntry},
  async handler({params}, response, {heap}) {
    const path = heap.pathOrLatest(params.filePath);
    if (!(await heap.close(path))) {
      throw new Error(`Failed to close heap snapshot: ${path} was not loaded.`);
    }
    response.line(`Closed heap snapshot: ${path}`);
  },
});

export const getHeapSnapshotSummary = defineTool({
  name: 'get_heapsnapshot_summary',
  title: 'Heap snapshot summary',
  description:
    'Load a heap snapshot (kept loaded for the other heap tools) and summarise it: statistics, native contexts with their sizes, and how much is retained by contexts.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {...filePathEntry, ...maxNameLengthEntry},
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'summary', undefined, loadProgress(progress));
    heapResponse(response, notes, formatSummary(result, params));
  },
});

export const getHeapSnapshotDetails = defineTool({
  name: 'get_heapsnapshot_details',
  title: 'Heap snapshot details',
  description:
    'List the classes of a heap snapshot (object count, shallow and retained size), largest retained size first. The id column is the class id for get_heapsnapshot_class_nodes.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {...filePathEntry, ...classFilterEntries, ...maxNameLengthEntry, ...pageEntries},
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'aggregates', params, loadProgress(progress));
    heapResponse(response, notes, formatAggregates(result, params));
  },
});

export const getHeapSnapshotClassNodes = defineTool({
  name: 'get_heapsnapshot_class_nodes',
  title: 'Heap snapshot class nodes',
  description:
    'List the objects of one class (id from get_heapsnapshot_details) with their node ids, largest retained size first.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {
    ...filePathEntry,
    id: v.pipe(v.number(), v.description('Class id: the first column of get_heapsnapshot_details.')),
    ...classFilterEntries,
    ...maxNameLengthEntry,
    ...pageEntries,
  },
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'classNodes', params, loadProgress(progress));
    heapResponse(response, notes, formatNodeList(result, params));
  },
});

export const getHeapSnapshotDuplicateStrings = defineTool({
  name: 'get_heapsnapshot_duplicate_strings',
  title: 'Heap snapshot duplicate strings',
  description:
    'List strings stored more than once in a heap snapshot, grouped by value, with the memory the copies take and their node ids.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {...filePathEntry, ...pageEntries, ...maxNameLengthEntry},
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'duplicateStrings', params, loadProgress(progress));
    heapResponse(response, notes, formatDuplicateStrings(result, params));
  },
});

export const queryHeapSnapshotObjects = defineTool({
  name: 'query_heapsnapshot_objects',
  title: 'Query heap snapshot objects',
  description:
    'Find objects in a heap snapshot by class name (regex or text), property name, node type, size ranges or DOM detachedness; returns node ids.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {
    ...filePathEntry,
    className: v.optional(v.pipe(v.string(), v.description('Regex or text the class name must match.'))),
    propertyName: v.optional(v.pipe(v.string(), v.description('Objects with an outgoing reference of this name.'))),
    nodeType: v.optional(
      v.pipe(v.string(), v.description('V8 node type, e.g. object, closure, string, array, code, native.')),
    ),
    retainedSize: byteRangeEntry('Retained size range, e.g. "1MB" (at least), "1MB-2MB", "-1MB", "1MB-".'),
    selfSize: byteRangeEntry('Shallow size range, same format as retainedSize.'),
    isDetached: v.optional(v.pipe(v.boolean(), v.description('Only detached (true) or attached (false) DOM nodes.'))),
    sortBy: v.optional(
      v.pipe(v.picklist(['retainedSize', 'selfSize', 'id']), v.description('Order. Default retainedSize.')),
    ),
    ...pageEntries,
    ...maxNameLengthEntry,
  },
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {retainedSize, selfSize, ...rest} = params;
    const options = {
      className: rest.className,
      propertyName: rest.propertyName,
      nodeType: rest.nodeType,
      minRetainedSize: retainedSize?.min,
      maxRetainedSize: retainedSize?.max,
      minSelfSize: selfSize?.min,
      maxSelfSize: selfSize?.max,
      isDetached: rest.isDetached,
      sortBy: rest.sortBy,
    };
    const {result, notes} = await heap.query(path, 'query', {...rest, options}, loadProgress(progress));
    heapResponse(response, notes, formatNodeList(result, params));
  },
});
