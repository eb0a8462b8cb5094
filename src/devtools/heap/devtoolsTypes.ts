/**
 * The parts of DevTools' heap-snapshot model (chrome-devtools-frontend,
 * `entrypoints/heap_snapshot_worker` and `models/heap_snapshot`) that we call,
 * as narrow structural types. The implementation is the vendored bundle
 * (build/vendor/heap-snapshot.mjs); these declarations only describe it.
 */

export interface Statistics {
  total: number;
  native: {total: number; typedArrays: number};
  v8heap: {total: number; code: number; jsArrays: number; strings: number; system: number};
}

export interface StaticData {
  nodeCount: number;
  rootNodeIndex: number;
  totalSize: number;
  maxJSObjectId: number;
}

export interface NativeContextSize {
  nodeId: number;
  nodeIndex: number;
  nodeName: string;
  attributedSize: number;
  retainedSize: number;
  selfSize: number;
}

export interface NativeContextSizes {
  nativeContexts: NativeContextSize[];
  sharedSize: number;
  noAttributionSize: number;
}

export interface RetainedByContextSummary {
  contextCount: number;
  retainedByContextSize: number;
  retainedByContextCount: number;
  notRetainedByContextSize: number;
  notRetainedByContextCount: number;
  totalSize: number;
}

export interface AggregatedInfo {
  count: number;
  distance: number;
  self: number;
  maxRet: number;
  name: string;
  idxs: number[];
}

export interface AggregateForDiff {
  name: string;
  indexes: number[];
  ids: number[];
  selfSizes: number[];
}

export interface Diff {
  name: string;
  addedCount: number;
  removedCount: number;
  addedSize: number;
  removedSize: number;
  countDelta: number;
  sizeDelta: number;
  addedIds: number[];
  addedSelfSizes: number[];
  deletedIds: number[];
  deletedSelfSizes: number[];
}

/** A heap object as DevTools serialises it. */
export interface HeapNode {
  id: number;
  name: string;
  distance: number;
  nodeIndex: number;
  retainedSize: number;
  selfSize: number;
  type: string;
}

/** A reference between objects; `node` is the other end. */
export interface HeapEdge {
  name: string;
  node: HeapNode;
  type: string;
  edgeIndex: number;
}

export interface ItemsRange {
  startPosition: number;
  endPosition: number;
  totalLength: number;
  items: Array<HeapNode | HeapEdge>;
}

export interface ItemProvider {
  serializeItemsRange(begin: number, end: number): ItemsRange;
}

export interface RetainingEdge {
  edgeIndex: number;
  edgeName: string;
  edgeType: string;
  nodeId: number;
  nodeIndex: number;
  nodeName: string;
  distance: number;
  children: RetainingEdge[];
}

export interface RetainingPaths {
  paths: RetainingEdge[];
  limitsReached: {depth?: boolean; nodes?: boolean; siblings?: boolean};
}

export interface DominatorNode {
  nodeId: number;
  nodeIndex: number;
  nodeName: string;
  retainedSize: number;
  selfSize: number;
}

export interface DuplicateStringGroup {
  value: string;
  count: number;
  totalSelfSize: number;
  totalRetainedSize: number;
  nodes: Array<{id: number; selfSize: number; retainedSize: number; distance: number}>;
  truncated?: boolean;
}

/** DOMLinkState: 0 unknown, 1 attached, 2 detached. */
export interface ObjectInfo {
  id: number;
  name: string;
  type: string;
  nodeIndex: number;
  detachedness: number;
  selfSize: number;
  retainedSize: number;
  distance: number;
  edgeCount: number;
  retainerCount: number;
}

export interface ContextField {
  name: string;
  valueNodeId: number;
  valueName: string;
  retainedSize: number;
}

export interface ContextAnalysis {
  contextNodeId: number;
  deadFieldsRetainedSizeSum: number;
  deadFields: ContextField[];
}

export interface ScopeAnalysis {
  scopeInfoNodeId: number;
  scriptNodeId: number;
  scriptName: string;
  scopeName?: string;
  scopeStart: number;
  scopeEnd: number;
  contextFieldCount: number;
  contexts: ContextAnalysis[];
}

export interface ScriptWithoutScopes {
  scriptNodeId: number;
  scriptName: string;
  contextCount: number;
}

export interface ContextAnalysisResult {
  scopes: ScopeAnalysis[];
  scriptsWithoutScopes: ScriptWithoutScopes[];
}

export interface HeapQueryOptions {
  className?: string;
  propertyName?: string;
  nodeType?: string;
  minRetainedSize?: number;
  maxRetainedSize?: number;
  minSelfSize?: number;
  maxSelfSize?: number;
  isDetached?: boolean;
  sortBy?: 'retainedSize' | 'selfSize' | 'id';
}

export interface HeapEdgesQueryOptions {
  sortBy?: 'retainedSize' | 'selfSize' | 'name';
  minRetainedSize?: number;
  excludePrimitives?: boolean;
}

/** A NodeFilter as the worker reads it (a plain object, as after postMessage). */
export interface NodeFilter {
  filterName?: string;
}

/** DevTools' JSHeapSnapshot, worker side: every method is synchronous. */
export interface JSHeapSnapshot {
  updateStaticData(): StaticData;
  getStatistics(): Statistics;
  getNativeContextSizes(): NativeContextSizes;
  getRetainedByContextSummary(): RetainedByContextSummary;
  aggregatesWithFilter(filter: NodeFilter): Record<string, AggregatedInfo>;
  nodeIndexForId(nodeId: number): number | undefined;
  createNodesProviderForClass(classKey: string, filter: NodeFilter): ItemProvider;
  createRetainingEdgesProvider(nodeIndex: number): ItemProvider;
  createEdgesProvider(nodeIndex: number, options?: HeapEdgesQueryOptions): ItemProvider;
  queryObjects(options: HeapQueryOptions): ItemProvider;
  getDominatorsOf(nodeIndex: number): DominatorNode[];
  getRetainingPaths(nodeIndex: number, maxDepth?: number, maxNodes?: number, maxSiblings?: number): RetainingPaths;
  getObjectInfo(nodeIndex: number): ObjectInfo;
  getDuplicateStrings(): DuplicateStringGroup[];
  analyzeContexts(): ContextAnalysisResult;
  interfaceDefinitions(): string;
  aggregatesForDiff(interfaceDefinitions: string): Record<string, AggregateForDiff>;
  calculateSnapshotDiff(baseSnapshotId: number, baseAggregates: Record<string, AggregateForDiff>): Record<string, Diff>;
}

/** What the loader reports through its dispatcher (progress, broken snapshot). */
export interface LoaderDispatcher {
  sendEvent(name: string, data: unknown): void;
}

export interface HeapSnapshotLoader {
  write(chunk: string): void;
  close(): void;
  buildSnapshot(secondaryPort: unknown): Promise<JSHeapSnapshot>;
}

/** The vendored module's exports: DevTools' heap_snapshot_worker barrel (see scripts/vendor/heap.mjs). */
export interface HeapSnapshotModule {
  HeapSnapshotLoader: {HeapSnapshotLoader: new (dispatcher: LoaderDispatcher) => HeapSnapshotLoader};
  HeapSnapshot: {SecondaryInitManager: new (port: unknown) => unknown};
}
