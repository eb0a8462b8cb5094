/**
 * Text of the heap tools, line for line as chrome-devtools-mcp 1.11 prints it
 * (sizes in DevTools' kB format, CSV tables, the same section headings).
 */
import type {DominatorNode, DuplicateStringGroup, ObjectInfo, RetainingEdge, RetainingPaths} from './devtoolsTypes.js';
import {type PageInfo, paginationLines} from './paginate.js';
import type {
  AggregatesResult,
  ContextsResult,
  DetailedClassDiff,
  DiffSummaryResult,
  DiffTotals,
  NodeListResult,
  SummaryResult,
} from './results.js';

export const HEAP_SECTION_TITLE = '## Heap Snapshot Data';
/** Names longer than this are cut (with "...") unless maxNameLength says otherwise. */
export const MAX_NAME_LENGTH = 100;

export interface FormatOptions {
  maxNameLength?: number;
}

// DevTools formats sizes with Intl in en-US and a no-break space before the unit. The formats
// are made on first use: this module loads at start (memoryParams), and an Intl object there
// pages ICU's data into the server's memory for every session that never reads a heap snapshot.
let kbFormats: {decimal: Intl.NumberFormat; integer: Intl.NumberFormat} | undefined;
const UNIT = '\u00a0kB';

/** DevTools' formatBytesToKb: bytes/1000, one decimal below 100 kB, grouped integers above. */
export function formatBytesToKb(bytes: number): string {
  const kilobytes = bytes / 1000;
  kbFormats ??= {
    decimal: new Intl.NumberFormat('en-US', {maximumFractionDigits: 1, minimumFractionDigits: 1}),
    integer: new Intl.NumberFormat('en-US', {maximumFractionDigits: 0, minimumFractionDigits: 0}),
  };
  return (kilobytes < 100 ? kbFormats.decimal : kbFormats.integer).format(kilobytes) + UNIT;
}

function truncate(value: string, maxLength = MAX_NAME_LENGTH): string {
  return value.length <= maxLength ? value : value.slice(0, maxLength) + '...';
}

/** A name on one line: cut to maxNameLength, line breaks escaped. */
export function formatName(name: string, options: FormatOptions): string {
  return truncate(name, options.maxNameLength).replaceAll('\r', '\\r').replaceAll('\n', '\\n');
}

export function formatSummary(summary: SummaryResult, options: FormatOptions): string[] {
  const {nativeContextSizes: sizes, retainedByContextSummary: retained} = summary;
  const contexts = [...sizes.nativeContexts].sort((a, b) => b.attributedSize - a.attributedSize);
  return [
    `Statistics: ${JSON.stringify(summary.stats, null, 2)}`,
    `Static Data: ${JSON.stringify(summary.staticData, null, 2)}`,
    '### Native Contexts',
    'nodeId,nodeName,selfSize,retainedSize,attributedSize',
    ...contexts.map(
      c =>
        `${c.nodeId},${formatName(c.nodeName, options)},${formatBytesToKb(c.selfSize)},${formatBytesToKb(c.retainedSize)},${formatBytesToKb(c.attributedSize)}`,
    ),
    `Shared Size: ${formatBytesToKb(sizes.sharedSize)}`,
    `Unattributed Size: ${formatBytesToKb(sizes.noAttributionSize)}`,
    '### Retained by Context Summary',
    `Context count: ${retained.contextCount}`,
    `Retained by context size: ${formatBytesToKb(retained.retainedByContextSize)} (${retained.retainedByContextCount} objects)`,
    `Not retained by context size: ${formatBytesToKb(retained.notRetainedByContextSize)} (${retained.notRetainedByContextCount} objects)`,
    `Total size: ${formatBytesToKb(retained.totalSize)}`,
  ];
}

export function formatAggregates(result: AggregatesResult, options: FormatOptions): string[] {
  return [
    `Objects: ${result.objectCount}`,
    `Total shallow size: ${formatBytesToKb(result.totalSelfSize)}`,
    ...paginationLines(result.page.info),
    'id,className,count,selfSize,retainedSize',
    ...result.page.items.map(
      a =>
        `${a.id},${formatName(a.className, options)},${a.count},${formatBytesToKb(a.selfSize)},${formatBytesToKb(a.retainedSize)}`,
    ),
  ];
}

/** Node or edge CSV; an empty list prints an empty line, as the reference does. */
export function formatNodeList(result: NodeListResult, options: FormatOptions): string[] {
  const rows: string[] = [];
  if (result.kind === 'nodes') {
    for (const n of result.page.items) {
      rows.push(
        `${n.id},${formatName(n.name, options)},${n.type},${n.distance},${formatBytesToKb(n.selfSize)},${formatBytesToKb(n.retainedSize)}`,
      );
    }
    if (rows.length) {
      rows.unshift('nodeId,nodeName,type,distance,selfSize,retainedSize');
    }
  } else {
    for (const e of result.page.items) {
      rows.push(
        `${formatName(e.name, options)},${e.type},${e.node.id},${formatName(e.node.name, options)},${formatBytesToKb(e.node.selfSize)},${formatBytesToKb(e.node.retainedSize)}`,
      );
    }
    if (rows.length) {
      rows.unshift('name,type,nodeId,nodeName,selfSize,retainedSize');
    }
  }
  return [rows.join('\n'), ...paginationLines(result.page.info)];
}

export function formatRetainingPaths(result: RetainingPaths, options: FormatOptions): string[] {
  const lines = ['### Retaining Paths'];
  const walk = (edge: RetainingEdge, depth: number) => {
    lines.push(
      `${'  '.repeat(depth)}<- @${edge.nodeId} ${formatName(edge.nodeName, options)} via ${edge.edgeType} ${formatName(edge.edgeName, options)} (distance: ${edge.distance})`,
    );
    edge.children.forEach(child => walk(child, depth + 1));
  };
  if (result.paths.length === 0) {
    lines.push('No retaining paths found.');
  }
  result.paths.forEach(path => walk(path, 0));
  const reached = Object.entries(result.limitsReached)
    .filter(([, hit]) => hit)
    .map(([limit]) => limit);
  if (reached.length) {
    lines.push(`Note: results are truncated, the following limits were reached: ${reached.join(', ')}.`);
  }
  return lines;
}

export function formatDominators(chain: DominatorNode[], options: FormatOptions): string[] {
  if (chain.length === 0) {
    return ['### Dominator Chain', 'No dominators found.'];
  }
  return [
    '### Dominator Chain',
    'nodeId,nodeName,selfSize,retainedSize',
    ...chain.map(
      n =>
        `${n.nodeId},${formatName(n.nodeName, options)},${formatBytesToKb(n.selfSize)},${formatBytesToKb(n.retainedSize)}`,
    ),
  ];
}

const DETACHEDNESS = ['unknown', 'attached', 'detached'];

export function formatObjectInfo(info: ObjectInfo, options: FormatOptions): string[] {
  return [
    '### Object Details',
    `id: @${info.id}`,
    `name: ${formatName(info.name, options)}`,
    `type: ${info.type}`,
    `detachedness: ${DETACHEDNESS[info.detachedness] ?? 'unknown'}`,
    `selfSize: ${formatBytesToKb(info.selfSize)}`,
    `retainedSize: ${formatBytesToKb(info.retainedSize)}`,
    `distance: ${info.distance}`,
    `edgeCount: ${info.edgeCount}`,
    `retainerCount: ${info.retainerCount}`,
  ];
}

export function formatDuplicateStrings(
  page: {items: DuplicateStringGroup[]; info: PageInfo},
  options: FormatOptions,
): string[] {
  return [
    '### Duplicate Strings',
    ...paginationLines(page.info),
    'value,count,totalSelfSize,totalRetainedSize,truncated,nodeIds',
    ...page.items.map(
      g =>
        `${JSON.stringify(truncate(g.value, options.maxNameLength))},${g.count},${formatBytesToKb(g.totalSelfSize)},${formatBytesToKb(g.totalRetainedSize)},${g.truncated ?? false},${g.nodes.map(n => `@${n.id}`).join(' ')}`,
    ),
  ];
}

const signedCount = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const signedSize = (bytes: number) => (bytes > 0 ? '+' : '') + formatBytesToKb(bytes);

function diffCounts(d: DiffTotals): string {
  return `# new: ${d.addedCount}, # deleted: ${d.removedCount}, # delta: ${signedCount(d.countDelta)}, alloc size: ${signedSize(d.addedSize)}, freed size: ${signedSize(d.removedSize)}, size delta: ${signedSize(d.sizeDelta)}`;
}

export function formatDiffSummary(result: DiffSummaryResult, options: FormatOptions): string[] {
  return [
    '### Heap Snapshot Diff',
    `Total: ${diffCounts(result.totals)}`,
    ...paginationLines(result.page.info),
    'index,className,addedCount,removedCount,countDelta,addedSize,removedSize,sizeDelta',
    ...result.page.items.map(
      d =>
        `${d.index},${formatName(d.className, options)},${d.addedCount},${d.removedCount},${d.countDelta},${formatBytesToKb(d.addedSize)},${formatBytesToKb(d.removedSize)},${formatBytesToKb(d.sizeDelta)}`,
    ),
  ];
}

export function formatDiffDetail(diff: DetailedClassDiff, options: FormatOptions): string[] {
  return [
    '### Heap Snapshot Detailed Diff',
    `${formatName(diff.className, options)}: ${diffCounts(diff)}`,
    'Objects:',
    ...diff.addedIds.map((id, i) => `  + @${id} (self_size: ${formatBytesToKb(diff.addedSelfSizes[i] ?? 0)})`),
    ...diff.deletedIds.map((id, i) => `  - @${id} (self_size: ${formatBytesToKb(diff.deletedSelfSizes[i] ?? 0)})`),
  ];
}

const plural = (count: number, singular: string) => `${count} ${singular}${count === 1 ? '' : 's'}`;

export function formatContexts(result: ContextsResult, options: FormatOptions): string[] {
  const lines: string[] = [];
  if (result.page.items.length === 0) {
    lines.push('No live contexts with dead fields were found.');
  }
  for (const {scope, context} of result.page.items) {
    if (lines.length) {
      lines.push('');
    }
    const script = scope.scriptName ? formatName(scope.scriptName, options) : `script @${scope.scriptNodeId}`;
    const where = scope.scopeName ? `${formatName(scope.scopeName, options)} (${script})` : script;
    lines.push(
      `#### Context @${context.contextNodeId} in \`${where}\` — ${formatBytesToKb(context.deadFieldsRetainedSizeSum)}`,
      `Script @${scope.scriptNodeId}, ScopeInfo @${scope.scopeInfoNodeId}, offsets ${scope.scopeStart}-${scope.scopeEnd}, ${plural(scope.contextFieldCount, 'context field')}`,
    );
    for (const field of context.deadFields) {
      lines.push(
        `- \`${formatName(field.name, options)}\` (${formatName(field.valueName, options)} @${field.valueNodeId}) — ${formatBytesToKb(field.retainedSize)}`,
      );
    }
  }
  if (result.scriptsWithoutScopes.length) {
    lines.push('', 'Scripts without scope metadata could not be analyzed:');
    for (const s of result.scriptsWithoutScopes) {
      const name = s.scriptName ? formatName(s.scriptName, options) : `script @${s.scriptNodeId}`;
      lines.push(`- \`${name}\` (@${s.scriptNodeId}) — ${plural(s.contextCount, 'context')}`);
    }
  }
  return ['### Context Analysis', ...paginationLines(result.page.info), ...lines];
}
