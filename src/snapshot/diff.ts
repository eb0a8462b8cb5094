/**
 * take_snapshot sinceLast: what changed between two snapshot texts of a page.
 * This works on the printed text only (one line per node, two spaces of
 * indent per level, each line starting with `uid=`), so it does not depend
 * on how the tree was computed. uids are the nodes' identities: the engine
 * keeps a node's uid across snapshots, so a node present in both keeps it
 * and old uids keep resolving.
 *
 * Output: added and changed nodes (text, parent or place among its siblings
 * changed) with their ancestors as context, removed uids listed once, and a
 * count of what did not change.
 */

export interface Line {
  uid: string;
  depth: number;
  /** The line without its indentation. */
  body: string;
  parent: string | undefined;
}

/** Parses a snapshot text into its lines, each with the uid of its parent. */
export function parseSnapshotText(text: string): Line[] {
  const lines: Line[] = [];
  const stack: Line[] = [];
  let anonymous = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') {
      continue;
    }
    const body = raw.trimStart();
    const depth = Math.floor((raw.length - body.length) / 2);
    const uid = /^uid=(\S+)/.exec(body)?.[1] ?? `?${anonymous++}`;
    while (stack.length > depth) {
      stack.pop();
    }
    const line: Line = {uid, depth, body, parent: stack[stack.length - 1]?.uid};
    stack.push(line);
    lines.push(line);
  }
  return lines;
}

/** Indices of a longest increasing subsequence (patience sorting), O(n log n). */
function longestIncreasing(values: number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((values[tails[mid] ?? 0] ?? 0) < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    previous[i] = lo > 0 ? (tails[lo - 1] ?? -1) : -1;
    tails[lo] = i;
  }
  const kept = new Set<number>();
  for (let i = tails[tails.length - 1] ?? -1; i >= 0; i = previous[i] ?? -1) {
    kept.add(i);
  }
  return kept;
}

/** uids of nodes that kept their parent but moved among their siblings. */
function movedNodes(before: readonly Line[], after: readonly Line[]): Set<string> {
  const position = new Map<string, number>();
  const siblings = new Map<string | undefined, string[]>();
  for (const line of before) {
    const list = siblings.get(line.parent) ?? [];
    position.set(line.uid, list.length);
    list.push(line.uid);
    siblings.set(line.parent, list);
  }
  const parentBefore = new Map(before.map(l => [l.uid, l.parent]));
  const groups = new Map<string | undefined, string[]>();
  for (const line of after) {
    if (position.has(line.uid) && parentBefore.get(line.uid) === line.parent) {
      const group = groups.get(line.parent);
      if (group) {
        group.push(line.uid);
      } else {
        groups.set(line.parent, [line.uid]);
      }
    }
  }
  const moved = new Set<string>();
  for (const uids of groups.values()) {
    const kept = longestIncreasing(uids.map(uid => position.get(uid) ?? 0));
    uids.forEach((uid, i) => {
      if (!kept.has(i)) {
        moved.add(uid);
      }
    });
  }
  return moved;
}

/** `1_3-1_7, 1_9, 2_4`: consecutive uids of one snapshot as ranges. */
export function compactUids(uids: string[]): string {
  const parsed = uids.map(uid => {
    const m = /^(.*_)(\d+)$/.exec(uid);
    return m ? {prefix: m[1] ?? '', n: Number(m[2])} : {prefix: uid, n: Number.NaN};
  });
  const parts: string[] = [];
  for (let i = 0; i < parsed.length; i++) {
    const start = parsed[i];
    if (!start) {
      continue;
    }
    let j = i;
    while (
      !Number.isNaN(start.n) &&
      parsed[j + 1]?.prefix === start.prefix &&
      parsed[j + 1]?.n === (parsed[j]?.n ?? 0) + 1
    ) {
      j++;
    }
    parts.push(j > i ? `${uids[i]}-${uids[j]}` : (uids[i] ?? ''));
    i = j;
  }
  return parts.join(', ');
}

export interface SnapshotDiff {
  /** The diff text (lines end with a newline, as snapshot text does). */
  text: string;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

/** The changes from `previous` to `current`, both snapshot texts of one page. */
export function diffSnapshotTexts(previous: string, current: string): SnapshotDiff {
  return diffSnapshotLines(parseSnapshotText(previous), parseSnapshotText(current));
}

/** The changes from `before` to `after`, the lines of two snapshots (or of one view of each) of a page. */
export function diffSnapshotLines(before: readonly Line[], after: readonly Line[]): SnapshotDiff {
  const old = new Map(before.map(l => [l.uid, l]));
  const now = new Set(after.map(l => l.uid));
  const moved = movedNodes(before, after);
  const marks = new Map<string, '+' | '~'>();
  for (const line of after) {
    const was = old.get(line.uid);
    if (!was) {
      marks.set(line.uid, '+');
    } else if (was.body !== line.body || was.parent !== line.parent || moved.has(line.uid)) {
      marks.set(line.uid, '~');
    }
  }
  // Every marked node brings its ancestors as context.
  const byUid = new Map(after.map(l => [l.uid, l]));
  const shown = new Set<string>();
  for (const uid of marks.keys()) {
    for (let line = byUid.get(uid); line && !shown.has(line.uid); line = byUid.get(line.parent ?? '')) {
      shown.add(line.uid);
    }
  }
  const out: string[] = [];
  for (const line of after) {
    if (shown.has(line.uid)) {
      out.push(`${marks.get(line.uid) ?? ' '} ${'  '.repeat(line.depth)}${line.body}\n`);
    }
  }
  const removed = before.filter(l => !now.has(l.uid)).map(l => l.uid);
  if (removed.length) {
    out.push(`Removed: ${compactUids(removed)}\n`);
  }
  const added = [...marks.values()].filter(m => m === '+').length;
  const changed = marks.size - added;
  const unchanged = after.length - marks.size;
  out.push(
    marks.size || removed.length
      ? `Unchanged: ${unchanged} of ${after.length} nodes, not shown; their uids stay valid.\n`
      : `No changes: all ${after.length} nodes and their uids are as in the previous snapshot.\n`,
  );
  return {text: out.join(''), added, changed, removed: removed.length, unchanged};
}
