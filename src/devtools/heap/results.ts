/**
 * What a snapshot thread answers, already paginated and reduced: only what
 * the response prints crosses to the server process, never the snapshot's
 * node arrays.
 */
import type {ByteRange} from './byteSize.js';
import type {
  ContextAnalysis,
  DominatorNode,
  DuplicateStringGroup,
  HeapEdge,
  HeapEdgesQueryOptions,
  HeapNode,
  HeapQueryOptions,
  NativeContextSizes,
  ObjectInfo,
  RetainedByContextSummary,
  RetainingPaths,
  ScopeAnalysis,
  ScriptWithoutScopes,
  StaticData,
  Statistics,
} from './devtoolsTypes.js';
import type {Page, PageRequest} from './paginate.js';

/** The reference's aggregate filters (get_heapsnapshot_details and class_nodes). */
export const HEAP_SNAPSHOT_FILTERS = [
  'objectsRetainedByDetachedDomNodes',
  'objectsRetainedByConsole',
  'objectsRetainedByEventHandlers',
  'objectsRetainedByContexts',
  'sharedNativeContext',
  'noNativeContext',
  'attributedToSpecificNativeContext',
] as const;

export type HeapSnapshotFilter = (typeof HEAP_SNAPSHOT_FILTERS)[number];

export interface ClassFilter {
  filterName?: HeapSnapshotFilter;
  /** The native context's node id, for attributedToSpecificNativeContext. */
  objectId?: number;
}

export interface SummaryResult {
  stats: Statistics;
  staticData: StaticData;
  nativeContextSizes: NativeContextSizes;
  retainedByContextSummary: RetainedByContextSummary;
}

export interface AggregateRow {
  id: number;
  className: string;
  count: number;
  selfSize: number;
  retainedSize: number;
}

export interface AggregatesResult {
  objectCount: number;
  totalSelfSize: number;
  page: Page<AggregateRow>;
}

export type NodeListResult = {kind: 'nodes'; page: Page<HeapNode>} | {kind: 'edges'; page: Page<HeapEdge>};

export interface ClassDiffRow {
  index: number;
  className: string;
  addedCount: number;
  removedCount: number;
  countDelta: number;
  addedSize: number;
  removedSize: number;
  sizeDelta: number;
}

export type DiffTotals = Omit<ClassDiffRow, 'index' | 'className'>;

export interface DiffSummaryResult {
  totals: DiffTotals;
  page: Page<ClassDiffRow>;
}

export interface DetailedClassDiff extends ClassDiffRow {
  addedIds: number[];
  addedSelfSizes: number[];
  deletedIds: number[];
  deletedSelfSizes: number[];
}

/** One class that grew between two snapshots, with how a sample new object is kept alive. */
export interface GrownClass {
  className: string;
  countDelta: number;
  sizeDelta: number;
  sampleId: number;
  /** Retainers from the sample towards a GC root, nearest first. */
  path: Array<{nodeId: number; nodeName: string; edgeType: string; edgeName: string; distance: number}>;
}

export interface LeakVerdict {
  /** Classes whose object count and size both grew. */
  grownClassCount: number;
  classes: GrownClass[];
}

export interface RankedContext {
  scope: Omit<ScopeAnalysis, 'contexts'>;
  context: ContextAnalysis;
}

export interface ContextsResult {
  page: Page<RankedContext>;
  scriptsWithoutScopes: ScriptWithoutScopes[];
}

export interface ContextsRequest extends PageRequest {
  retainedSize?: ByteRange;
  scopeInfoNodeId?: number;
}

/** Every query a snapshot thread answers: name → [argument, result]. */
export interface SnapshotQueries {
  summary: [undefined, SummaryResult];
  aggregates: [ClassFilter & PageRequest, AggregatesResult];
  classNodes: [ClassFilter & PageRequest & {id: number}, NodeListResult];
  retainers: [PageRequest & {nodeId: number}, NodeListResult];
  edges: [PageRequest & {nodeId: number; options: HeapEdgesQueryOptions}, NodeListResult];
  query: [PageRequest & {options: HeapQueryOptions}, NodeListResult];
  dominators: [{nodeId: number}, DominatorNode[]];
  retainingPaths: [{nodeId: number; maxDepth?: number; maxNodes?: number; maxSiblings?: number}, RetainingPaths];
  objectInfo: [{nodeId: number}, ObjectInfo];
  duplicateStrings: [PageRequest, Page<DuplicateStringGroup>];
  contexts: [ContextsRequest, ContextsResult];
  interfaceDefinitions: [undefined, string];
  diffSummary: [PageRequest & {baseUid: number}, DiffSummaryResult];
  diffDetail: [{baseUid: number; classIndex: number}, DetailedClassDiff];
  /** `ignoreEdges`: classes whose sample is retained through an edge of these names are left out. */
  leakVerdict: [{baseUid: number; limit: number; ignoreEdges: string[]}, LeakVerdict];
}

export type QueryName = keyof SnapshotQueries;
export type QueryArgs<Q extends QueryName> = SnapshotQueries[Q][0];
export type QueryResult<Q extends QueryName> = SnapshotQueries[Q][1];
