import * as v from 'valibot';

import {PROBE_HEAP_EDGE} from '../browser/core/probeNames.js';
import {
  formatContexts,
  formatDiffDetail,
  formatDiffSummary,
  formatDominators,
  formatNodeList,
  formatObjectInfo,
  formatRetainingPaths,
} from '../devtools/heap/format.js';
import {formatLeakVerdict, LEAK_VERDICT_CLASSES} from '../devtools/heap/leakVerdict.js';
import {defineTool} from './defineTool.js';
import {
  ANALYSIS,
  byteRangeEntry,
  filePathEntry,
  heapResponse,
  loadProgress,
  maxNameLengthEntry,
  nodeIdEntry,
  pageEntries,
} from './memoryParams.js';

export const getHeapSnapshotRetainers = defineTool({
  name: 'get_heapsnapshot_retainers',
  title: 'Heap snapshot retainers',
  description: 'List the references that keep an object alive (the objects pointing at it and the edge names).',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {...filePathEntry, ...nodeIdEntry('get the retainers of'), ...maxNameLengthEntry, ...pageEntries},
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'retainers', params, loadProgress(progress));
    heapResponse(response, notes, formatNodeList(result, params));
  },
});

export const getHeapSnapshotEdges = defineTool({
  name: 'get_heapsnapshot_edges',
  title: 'Heap snapshot edges',
  description: 'List the outgoing references of an object (its properties, elements and internal links).',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {
    ...filePathEntry,
    ...nodeIdEntry('list the references of'),
    sortBy: v.optional(
      v.pipe(v.picklist(['retainedSize', 'selfSize', 'name']), v.description('Order. Default retainedSize.')),
    ),
    retainedSize: byteRangeEntry(
      'Retained size of the referenced objects, e.g. "10KB" (at least); only the lower bound is applied.',
    ),
    excludePrimitives: v.optional(
      v.pipe(v.boolean(), v.description('Leave out strings, numbers and other primitives. Default true.')),
    ),
    ...maxNameLengthEntry,
    ...pageEntries,
  },
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const options = {
      sortBy: params.sortBy ?? 'retainedSize',
      // DevTools applies only a lower retained-size bound to edges.
      minRetainedSize: params.retainedSize?.min,
      excludePrimitives: params.excludePrimitives ?? true,
    };
    const args = {nodeId: params.nodeId, pageIdx: params.pageIdx, pageSize: params.pageSize, options};
    const {result, notes} = await heap.query(path, 'edges', args, loadProgress(progress));
    heapResponse(response, notes, formatNodeList(result, params));
  },
});

export const getHeapSnapshotDominators = defineTool({
  name: 'get_heapsnapshot_dominators',
  title: 'Heap snapshot dominators',
  description:
    'Show the dominator chain of an object up to the root: each object on it keeps the one below alive on its own.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {...filePathEntry, ...nodeIdEntry('get the dominators of'), ...maxNameLengthEntry},
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'dominators', params, loadProgress(progress));
    heapResponse(response, notes, formatDominators(result, params));
  },
});

export const getHeapSnapshotRetainingPaths = defineTool({
  name: 'get_heapsnapshot_retaining_paths',
  title: 'Heap snapshot retaining paths',
  description:
    'Show why an object is not garbage collected: the paths of references from the GC roots to it, as a tree, shortest first.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {
    ...filePathEntry,
    ...nodeIdEntry('explain'),
    maxDepth: v.optional(v.pipe(v.number(), v.description('Longest path to follow. Default 30.'))),
    maxNodes: v.optional(v.pipe(v.number(), v.description('Most nodes to visit. Default 5000.'))),
    maxSiblings: v.optional(v.pipe(v.number(), v.description('Most retainers shown per object. Default 100.'))),
    ...maxNameLengthEntry,
  },
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'retainingPaths', params, loadProgress(progress));
    heapResponse(response, notes, formatRetainingPaths(result, params));
  },
});

export const getHeapSnapshotObjectDetails = defineTool({
  name: 'get_heapsnapshot_object_details',
  title: 'Heap snapshot object details',
  description:
    'Describe one object: name, type, sizes, distance from the roots, DOM detachedness, edge and retainer counts.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {...filePathEntry, ...nodeIdEntry('describe'), ...maxNameLengthEntry},
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'objectInfo', params, loadProgress(progress));
    heapResponse(response, notes, formatObjectInfo(result, params));
  },
});

export const analyzeHeapSnapshotContexts = defineTool({
  name: 'analyze_heapsnapshot_contexts',
  title: 'Analyze heap snapshot contexts',
  description:
    'Find closure contexts that hold captured variables no live closure can read any more (dead fields), ranked by what those values retain: candidates for leaks through closures.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['filePath'],
  schema: {
    ...filePathEntry,
    retainedSize: byteRangeEntry('Range of a context\'s dead-field score, e.g. "10KB" (at least), "1MB-2MB".'),
    scopeInfoNodeId: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.description('Only contexts of the scope with this ScopeInfo node id (from a previous call).'),
      ),
    ),
    ...maxNameLengthEntry,
    ...pageEntries,
  },
  async handler({params}, response, {heap, progress}) {
    const path = heap.pathOrLatest(params.filePath);
    const {result, notes} = await heap.query(path, 'contexts', params, loadProgress(progress));
    heapResponse(response, notes, formatContexts(result, params));
  },
});

export const compareHeapSnapshots = defineTool({
  name: 'compare_heapsnapshots',
  title: 'Compare heap snapshots',
  description:
    'Compare two heap snapshots: the classes with new and deleted objects, largest growth first, and a leak verdict (the classes that grew, each with how a new object is retained). With classIndex, the objects of one class.',
  annotations: ANALYSIS,
  sections: ['heapSnapshot'],
  filePaths: ['baseFilePath', 'currentFilePath'],
  schema: {
    baseFilePath: v.optional(
      v.pipe(v.string(), v.description('The earlier snapshot. Default: the one taken before currentFilePath.')),
    ),
    currentFilePath: v.optional(
      v.pipe(v.string(), v.description('The later snapshot. Default: the snapshot taken last in this session.')),
    ),
    classIndex: v.optional(
      v.pipe(v.number(), v.description('Index (first column of the diff) of a class to list its objects.')),
    ),
    ...maxNameLengthEntry,
    ...pageEntries,
  },
  async handler({params}, response, {heap, progress}) {
    const {base, current} = heap.pairOrLatest(params.baseFilePath, params.currentFilePath);
    const onLoad = loadProgress(progress);
    if (params.classIndex !== undefined) {
      const args = {classIndex: params.classIndex};
      const {result, notes} = await heap.diff(base, current, 'diffDetail', args, onLoad);
      heapResponse(response, notes, formatDiffDetail(result, params));
      return;
    }
    const {result, notes} = await heap.diff(base, current, 'diffSummary', params, onLoad);
    // Objects our own in-page probe holds are not the page's leak.
    const verdictArgs = {limit: LEAK_VERDICT_CLASSES, ignoreEdges: [PROBE_HEAP_EDGE]};
    const verdict = await heap.diff(base, current, 'leakVerdict', verdictArgs);
    heapResponse(response, notes, [...formatDiffSummary(result, params), ...formatLeakVerdict(verdict.result, params)]);
  },
});
