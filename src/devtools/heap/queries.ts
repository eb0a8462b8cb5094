/**
 * The queries of one loaded snapshot, answered inside its thread with
 * DevTools' own model (aggregates, distances, dominators, diffs are theirs)
 * and reduced to what the response prints.
 */
import type {
  AggregateForDiff,
  Diff,
  HeapEdge,
  HeapNode,
  ItemProvider,
  JSHeapSnapshot,
  NodeFilter,
} from './devtoolsTypes.js';
import {isInternalClass} from './leakVerdict.js';
import {paginate} from './paginate.js';
import type {
  ClassDiffRow,
  ClassFilter,
  ContextsResult,
  DiffTotals,
  GrownClass,
  NodeListResult,
  QueryArgs,
  QueryName,
  QueryResult,
  RankedContext,
} from './results.js';

/** How far the leak verdict follows a sample object's retainers. */
const VERDICT_PATH_DEPTH = 40;
/** Grown classes examined per class the verdict shows (some are left out, see ignoreEdges). */
const VERDICT_CANDIDATES_PER_CLASS = 4;

export class SnapshotQueries {
  // Class ids are 1-based, in the order DevTools lists the unfiltered aggregates at load.
  readonly #classKeys: string[] = [''];
  readonly #classIds = new Map<string, number>();
  /** Base snapshots whose aggregates this snapshot has diffed against (DevTools caches the diff). */
  readonly #diffBases = new Set<number>();

  constructor(readonly snapshot: JSHeapSnapshot) {
    for (const key of Object.keys(snapshot.aggregatesWithFilter(this.#filter()))) {
      this.#classIds.set(key, this.#classKeys.length);
      this.#classKeys.push(key);
    }
  }

  get classCount(): number {
    return this.#classKeys.length - 1;
  }

  run<Q extends QueryName>(name: Q, args: QueryArgs<Q>): QueryResult<Q> {
    const handler = this.#handlers[name] as (args: QueryArgs<Q>) => QueryResult<Q>;
    return handler(args);
  }

  readonly #handlers: {[Q in QueryName]: (args: QueryArgs<Q>) => QueryResult<Q>} = {
    summary: () => ({
      stats: this.snapshot.getStatistics(),
      staticData: this.snapshot.updateStaticData(),
      nativeContextSizes: this.snapshot.getNativeContextSizes(),
      retainedByContextSummary: this.snapshot.getRetainedByContextSummary(),
    }),
    aggregates: args => {
      let objectCount = 0;
      let totalSelfSize = 0;
      const rows = Object.entries(this.snapshot.aggregatesWithFilter(this.#filter(args))).map(([key, a]) => {
        const id = this.#classIds.get(key);
        if (id === undefined) {
          throw new Error(`No class ID found for class key ${key}`);
        }
        objectCount += a.count;
        totalSelfSize += a.self;
        return {id, className: a.name, count: a.count, selfSize: a.self, retainedSize: a.maxRet};
      });
      rows.sort((a, b) => b.retainedSize - a.retainedSize);
      return {objectCount, totalSelfSize, page: paginate(rows, args)};
    },
    classNodes: args => {
      const key = this.#classKeys[args.id];
      if (!key || !Number.isInteger(args.id)) {
        throw new Error(
          `Class with ID ${args.id} not found in heap snapshot. Class ids are in the first column of get_heapsnapshot_details.`,
        );
      }
      const filter = this.#filter(args);
      if (filter.filterName && !(key in this.snapshot.aggregatesWithFilter(filter))) {
        throw new Error(`Class with ID ${args.id} has no objects that pass the filter ${args.filterName}.`);
      }
      return this.#nodeList(this.snapshot.createNodesProviderForClass(key, filter), args);
    },
    retainers: args => this.#nodeList(this.snapshot.createRetainingEdgesProvider(this.#nodeIndex(args.nodeId)), args),
    edges: args => this.#nodeList(this.snapshot.createEdgesProvider(this.#nodeIndex(args.nodeId), args.options), args),
    query: args => this.#nodeList(this.snapshot.queryObjects(args.options), args),
    dominators: args => this.snapshot.getDominatorsOf(this.#nodeIndex(args.nodeId)),
    retainingPaths: args =>
      this.snapshot.getRetainingPaths(this.#nodeIndex(args.nodeId), args.maxDepth, args.maxNodes, args.maxSiblings),
    objectInfo: args => this.snapshot.getObjectInfo(this.#nodeIndex(args.nodeId)),
    duplicateStrings: args => paginate(this.snapshot.getDuplicateStrings(), args),
    contexts: args => this.#contexts(args),
    interfaceDefinitions: () => this.snapshot.interfaceDefinitions(),
    diffSummary: args => {
      const diffs = this.#diffs(args.baseUid);
      const totals: DiffTotals = {
        addedCount: 0,
        removedCount: 0,
        countDelta: 0,
        addedSize: 0,
        removedSize: 0,
        sizeDelta: 0,
      };
      const rows = diffs.map((d, index) => {
        const row = diffRow(d, index);
        for (const key of Object.keys(totals) as Array<keyof DiffTotals>) {
          totals[key] += row[key];
        }
        return row;
      });
      return {totals, page: paginate(rows, args)};
    },
    diffDetail: args => {
      const diffs = this.#diffs(args.baseUid);
      const diff = Number.isInteger(args.classIndex) ? diffs[args.classIndex] : undefined;
      if (!diff) {
        throw new Error(`Invalid classIndex: ${args.classIndex}. Total classes with changes: ${diffs.length}`);
      }
      return {
        ...diffRow(diff, args.classIndex),
        addedIds: diff.addedIds,
        addedSelfSizes: diff.addedSelfSizes,
        deletedIds: diff.deletedIds,
        deletedSelfSizes: diff.deletedSelfSizes,
      };
    },
    leakVerdict: args => {
      const grown = this.#diffs(args.baseUid).filter(d => d.countDelta > 0 && d.sizeDelta > 0 && d.addedIds.length);
      // Classes an agent can act on first: DevTools' internal buckets ("(array)",
      // "system / …") grow along with any leak and say little on their own.
      const ranked = [...grown.filter(d => !isInternalClass(d.name)), ...grown.filter(d => isInternalClass(d.name))];
      const classes: GrownClass[] = [];
      // Each candidate costs a retaining-path search: look at a few more than are shown, no more.
      for (const diff of ranked.slice(0, args.limit * VERDICT_CANDIDATES_PER_CLASS)) {
        if (classes.length >= args.limit) {
          break;
        }
        const grownClass = this.#grownClass(diff);
        if (!grownClass.path.some(step => args.ignoreEdges.includes(step.edgeName))) {
          classes.push(grownClass);
        }
      }
      return {grownClassCount: grown.length, classes};
    },
  };

  /** Stores a base snapshot's aggregates by diffing against them once (DevTools keeps the result). */
  prepareDiff(baseUid: number, baseAggregates: Record<string, AggregateForDiff>): void {
    this.snapshot.calculateSnapshotDiff(baseUid, baseAggregates);
    this.#diffBases.add(baseUid);
  }

  hasDiff(baseUid: number): boolean {
    return this.#diffBases.has(baseUid);
  }

  #diffs(baseUid: number): Diff[] {
    if (!this.#diffBases.has(baseUid)) {
      throw new Error('The base snapshot was not prepared for this diff.');
    }
    // Same list and order as the reference: classes with changes, by size delta.
    return Object.values(this.snapshot.calculateSnapshotDiff(baseUid, {}))
      .filter(d => d.addedCount > 0 || d.removedCount > 0)
      .sort((a, b) => b.sizeDelta - a.sizeDelta);
  }

  #grownClass(diff: Diff): GrownClass {
    // The newest object of the class is the most likely to be part of the growth.
    const sampleId = diff.addedIds[diff.addedIds.length - 1] ?? 0;
    const path: GrownClass['path'] = [];
    const index = this.snapshot.nodeIndexForId(sampleId);
    if (index !== undefined) {
      // One retainer per level, nearest to the GC roots first: the shortest chain.
      let edges = this.snapshot.getRetainingPaths(index, VERDICT_PATH_DEPTH, VERDICT_PATH_DEPTH * 8, 1).paths;
      while (edges[0]) {
        const {nodeId, nodeName, edgeType, edgeName, distance, children} = edges[0];
        path.push({nodeId, nodeName, edgeType, edgeName, distance});
        edges = children;
      }
    }
    return {className: diff.name, countDelta: diff.countDelta, sizeDelta: diff.sizeDelta, sampleId, path};
  }

  #contexts(args: QueryArgs<'contexts'>): ContextsResult {
    const analysis = this.snapshot.analyzeContexts();
    const {min = 0, max} = args.retainedSize ?? {};
    const ranked: RankedContext[] = [];
    for (const {contexts, ...scope} of analysis.scopes) {
      if (args.scopeInfoNodeId !== undefined && scope.scopeInfoNodeId !== args.scopeInfoNodeId) {
        continue;
      }
      for (const context of contexts) {
        const score = context.deadFieldsRetainedSizeSum;
        if (score >= min && (max === undefined || score <= max)) {
          ranked.push({scope, context});
        }
      }
    }
    ranked.sort((a, b) => b.context.deadFieldsRetainedSizeSum - a.context.deadFieldsRetainedSizeSum);
    // The reference always paginates this list (page 0 when no index is given).
    return {
      page: paginate(ranked, {pageIdx: args.pageIdx ?? 0, pageSize: args.pageSize}),
      scriptsWithoutScopes: analysis.scriptsWithoutScopes,
    };
  }

  #filter(args: ClassFilter = {}): NodeFilter {
    // What DevTools' worker receives from its proxy: a plain object after postMessage.
    const filter: NodeFilter = {};
    if (args.filterName === 'attributedToSpecificNativeContext') {
      if (args.objectId === undefined) {
        throw new Error('objectId is required when filterName is attributedToSpecificNativeContext');
      }
      filter.filterName = `nativeContext_${this.#nodeIndex(args.objectId)}`;
    } else if (args.filterName) {
      filter.filterName = args.filterName;
    }
    return filter;
  }

  #nodeIndex(nodeId: number): number {
    const index = Number.isInteger(nodeId) ? this.snapshot.nodeIndexForId(nodeId) : undefined;
    if (index === undefined) {
      throw new Error(
        `Node with ID ${nodeId} not found. Node ids are the @ numbers (nodeId column) of get_heapsnapshot_class_nodes, query_heapsnapshot_objects or get_heapsnapshot_retainers.`,
      );
    }
    return index;
  }

  /** The reference's node lists: nodes re-sorted by retained size, edges in DevTools' order. */
  #nodeList(provider: ItemProvider, request: {pageIdx?: number; pageSize?: number}): NodeListResult {
    const items = provider.serializeItemsRange(0, Infinity).items;
    const first = items[0];
    if (first && isEdge(first)) {
      return {kind: 'edges', page: paginate(items.filter(isEdge).map(slimEdge), request)};
    }
    const nodes = items.filter((item): item is HeapNode => !isEdge(item)).map(slimNode);
    nodes.sort((a, b) => b.retainedSize - a.retainedSize);
    return {kind: 'nodes', page: paginate(nodes, request)};
  }
}

function isEdge(item: HeapNode | HeapEdge): item is HeapEdge {
  return 'node' in item && typeof item.node === 'object' && item.node !== null;
}

function slimNode(n: HeapNode): HeapNode {
  return {
    id: n.id,
    name: n.name,
    distance: n.distance,
    nodeIndex: n.nodeIndex,
    retainedSize: n.retainedSize,
    selfSize: n.selfSize,
    type: n.type,
  };
}

function slimEdge(e: HeapEdge): HeapEdge {
  return {name: e.name, type: e.type, edgeIndex: e.edgeIndex, node: slimNode(e.node)};
}

function diffRow(d: Diff, index: number): ClassDiffRow {
  return {
    index,
    className: d.name,
    addedCount: d.addedCount,
    removedCount: d.removedCount,
    countDelta: d.countDelta,
    addedSize: d.addedSize,
    removedSize: d.removedSize,
    sizeDelta: d.sizeDelta,
  };
}
