import {debug} from '../util/logger.js';
import type {AxItem} from './axNode.js';
import {allItems, serializeAx, snapNode} from './axSerialize.js';
import type {FramePlace, IsolatedWorlds, SnapshotFrames} from './frames.js';
import {attachFrames, backendShell} from './fullTree.js';
import {backendKey} from './keys.js';
import {PageWalk} from './pageWalk.js';
import {type Answer, answerPlaceholders, placeholderNodes} from './placeholders.js';
import type {PrintedNodeIds} from './printedIds.js';
import type {FrameTarget, SnapNode} from './types.js';
import type {WalkNode, WalkResult} from './walker.js';

export interface FastContext {
  frames: SnapshotFrames;
  worlds: IsolatedWorlds;
  printed: PrintedNodeIds;
  /** Snapshots a child frame (the engine decides how). */
  frameSnapshot(frame: FramePlace, depth: number): Promise<SnapNode | undefined>;
}

/**
 * The walk for one frame: the in-page walker (walker.ts) answers where its
 * answer is provably Chrome's, Chrome's own AX tree answers for each
 * placeholder (pipelined: placeholders.ts), and the pieces are put together
 * in the walk's document order with the reference's filter. Returns the
 * frame's snapshot root (the first kept node when the document node itself
 * is not kept, as the reference does) and the document's size.
 */
export async function fastTreeSnapshot(
  place: FramePlace,
  ctx: FastContext,
  depth: number,
): Promise<{root: SnapNode | undefined; nodes: number; asked: number} | 'full'> {
  const started = performance.now();
  const walk = new PageWalk(place, ctx.worlds, ctx.frames.signal);
  let frame: FrameTarget;
  let result: WalkResult;
  let answers: Answer[];
  let backendIds: Map<number, number>;
  try {
    const placed = await ctx.frames.target(place, walk.walk(ctx.printed));
    frame = placed.frame;
    result = placed.result.result;
    if (result.full) {
      return 'full';
    }
    const objects = placed.result.objects;
    const [answered, learnt] = await Promise.all([
      answerPlaceholders(frame, walk, result.root, objects),
      walk.printedBackendIds(frame, result, objects),
    ]);
    answers = answered;
    backendIds = ctx.printed.update(frame.key, result.token, printedIds(result.root), learnt);
  } finally {
    walk.release();
  }
  // Chrome's subtrees may hold frames of their own.
  const subtreeItems = answers.flatMap(a => (a?.subtree && a.item ? allItems(a.item) : []));
  await attachFrames(subtreeItems, frame, ctx.frames, depth, (child, d) => ctx.frameSnapshot(child, d));
  debug(
    `snapshot walk of ${place.key}: ${result.n} nodes, ${placeholderNodes(result.root).length} asked of Chrome, ` +
      `${result.mi.length} newly printed, ${(performance.now() - started).toFixed(1)} ms`,
  );
  return {
    root: stitch(frame, result, answers, backendIds),
    nodes: result.n,
    asked: placeholderNodes(result.root).length,
  };
}

function printedIds(root: WalkNode): number[] {
  const out: number[] = [];
  const visit = (node: WalkNode) => {
    if (node.k === 'e' || node.k === 't') {
      out.push(node.i);
    }
    for (const child of node.c ?? []) {
      visit(child);
    }
  };
  visit(root);
  return out;
}

/** Puts the walk's nodes and Chrome's answers together, in the walk's order. */
function stitch(
  frame: FrameTarget,
  result: WalkResult,
  answers: Answer[],
  backendIds: Map<number, number>,
): SnapNode | undefined {
  const top: SnapNode[] = [];
  new Stitch(frame, answers, backendIds).convert(result.root, top);
  return top[0];
}

/** For each DOM node in Chrome's subtrees: the placeholders whose subtree holds it. */
function subtreeHolders(answers: Answer[]): Map<number, number[]> {
  const holders = new Map<number, number[]>();
  for (const [index, a] of answers.entries()) {
    for (const item of a?.subtree && a.item ? allItems(a.item) : []) {
      if (item.backendNodeId !== undefined) {
        holders.set(item.backendNodeId, [...(holders.get(item.backendNodeId) ?? []), index]);
      }
    }
  }
  return holders;
}

/** The walk's nodes turned into snapshot nodes, Chrome's answer put in for each placeholder. */
class Stitch {
  readonly #inSubtrees: Map<number, number[]>;
  readonly #shell: ReturnType<typeof backendShell>;

  constructor(
    readonly frame: FrameTarget,
    readonly answers: Answer[],
    readonly backendIds: Map<number, number>,
  ) {
    this.#inSubtrees = subtreeHolders(answers);
    this.#shell = backendShell(frame);
  }

  /** Appends what `node` becomes to `out` (nothing, one node, or its children). */
  convert(node: WalkNode, out: SnapNode[]): void {
    switch (node.k) {
      case 'x':
        out.push(...this.#kids(node));
        return;
      case 'e':
        out.push({
          role: node.r ?? '',
          name: node.n ?? '',
          props: node.p ?? {},
          children: this.#kids(node),
          ...this.#walked(node.i),
        });
        return;
      case 't':
        out.push({role: 'StaticText', name: node.n ?? '', props: {}, children: [], ...this.#walked(node.i)});
        return;
      default:
        this.#answered(node, out);
    }
  }

  /** A placeholder: Chrome's answer for it (a node over the walk's children, or its whole subtree). */
  #answered(node: WalkNode, out: SnapNode[]): void {
    const a = node.x === undefined ? undefined : this.answers[node.x];
    const item = a?.item;
    if (!item) {
      return;
    }
    if (node.k === 'd' || !a.subtree) {
      this.#own(item, this.#kids(node), out);
      return;
    }
    const holders = item.backendNodeId === undefined ? [] : (this.#inSubtrees.get(item.backendNodeId) ?? []);
    if (node.k === 'o' && holders.some(h => h !== node.x)) {
      return; // Chrome shows it under its aria-owns owner, which is in another subtree.
    }
    out.push(...serializeAx(item, true, this.#shell));
  }

  #kids(node: WalkNode): SnapNode[] {
    const children: SnapNode[] = [];
    for (const child of node.c ?? []) {
      this.convert(child, children);
    }
    return children;
  }

  /** A node the walk printed: keyed by its DOM node like Chrome's (a node Chrome could not name is gone). */
  #walked(id: number): Pick<SnapNode, 'key' | 'ref' | 'backendNodeId'> {
    const backendNodeId = this.backendIds.get(id);
    const {frame} = this;
    return backendNodeId === undefined
      ? {key: undefined, ref: undefined}
      : {key: backendKey(frame, backendNodeId), ref: {kind: 'backend', frame, backendNodeId}, backendNodeId};
  }

  /** Chrome's node over the walk's children; a leaf only when Chrome gives it no children. */
  #own(item: AxItem, children: SnapNode[], out: SnapNode[]): void {
    if (item.isInteresting(false, () => item.isLeafAlone)) {
      out.push(snapNode(item, children, this.#shell));
    } else {
      out.push(...children);
    }
  }
}
