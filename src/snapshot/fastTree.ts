import {exceptionMessage} from '../browser/exceptions.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {ownNode, subtree} from './axFetch.js';
import {type AxItem, isControlRole, LEAF_ROLES, TEXT_ROLES} from './axNode.js';
import {allItems, serializeAx, snapNode} from './axSerialize.js';
import type {FramePlace, IsolatedWorlds, SnapshotFrames} from './frames.js';
import {attachFrames, backendShell} from './fullTree.js';
import {backendKey} from './keys.js';
import {walkerRules} from './rules.js';
import type {FrameTarget, SnapNode} from './types.js';
import {installWalker, WALKER, type WalkNode, type WalkResult} from './walker.js';
import {walkerStyles} from './walkerStyles.js';
import {walkerText} from './walkerText.js';

/** Bound of the in-page walk of one document. */
const WALK_TIMEOUT_MS = 30_000;
/**
 * Remote objects of one frame's walk live in their own object group: frames
 * in one process share a session, and releasing one frame's group must not
 * release the objects another frame's walk is still using.
 */
let nextObjectGroup = 1;
const WALKER_SOURCE = `(${installWalker.toString()})(${walkerRules.toString()}, ${walkerStyles.toString()}, ${walkerText.toString()})`;
/** Rounds of "Chrome has no node for this element, ask about its children" (inline wrappers nest a few deep). */
const MAX_EXPAND_ROUNDS = 16;

/**
 * Why Chrome says a node is ignored in a way that carries over to what is
 * below it: then the walk's answers for the children cannot be trusted.
 */
const INHERITED_IGNORE = new Set([
  'activeModalDialog',
  'ariaModalDialog',
  'ariaHiddenElement',
  'ariaHiddenSubtree',
  'inertElement',
  'inertSubtree',
  'inactiveCarouselTabContent',
]);

/**
 * The backendNodeId of every node the walk printed, per frame: uids are keyed
 * by it (as the reference keys them), and Chrome is asked once per node.
 */
export class PrintedNodeIds {
  readonly #frames = new Map<string, {token: string; ids: Map<number, number>; fresh: number[]}>();

  /** What to tell the frame's walker it need not send again. */
  confirm(frameKey: string): {token: string; ids: number[]} | undefined {
    const entry = this.#frames.get(frameKey);
    return entry ? {token: entry.token, ids: entry.fresh} : undefined;
  }

  /** Records a walk: the ids it printed (others are forgotten, as the walker forgets them) and those Chrome just named. */
  update(frameKey: string, token: string, printed: number[], learnt: Map<number, number>): Map<number, number> {
    const old = this.#frames.get(frameKey);
    const ids = new Map<number, number>();
    if (old && old.token === token) {
      for (const id of printed) {
        const backend = old.ids.get(id);
        if (backend !== undefined) {
          ids.set(id, backend);
        }
      }
    }
    for (const [id, backend] of learnt) {
      ids.set(id, backend);
    }
    this.#frames.set(frameKey, {token, ids, fresh: [...learnt.keys()]});
    return ids;
  }

  retain(visited: ReadonlySet<string>): void {
    for (const key of this.#frames.keys()) {
      if (!visited.has(key)) {
        this.#frames.delete(key);
      }
    }
  }
}

export interface FastContext {
  frames: SnapshotFrames;
  worlds: IsolatedWorlds;
  printed: PrintedNodeIds;
  /** Frames this snapshot walked (their isolated worlds are kept). */
  visited: Set<string>;
  /** Snapshots a child frame (the engine decides how). */
  frameSnapshot(frame: FramePlace, depth: number): Promise<SnapNode | undefined>;
}

/** What Chrome answered for one placeholder of the walk. */
interface Answer {
  /** The node itself (c, l, d) or the subtree's root (q, o, upgraded c). */
  item: AxItem | undefined;
  subtree: boolean;
}

/** One evaluate in our world whose result is [json, ...nodes]: the JSON and the nodes' remote objects. */
async function evaluateWithNodes(
  frame: FramePlace,
  contextId: number,
  objectGroup: string,
  expression: string,
): Promise<{json: string; objectIds: Array<string | undefined>} | undefined> {
  const e0 = performance.now();
  const response = await frame.session.send('Runtime.evaluate', {expression, contextId, objectGroup}, WALK_TIMEOUT_MS);
  T.evaluate = performance.now() - e0;
  if (response.exceptionDetails) {
    throw new Error(`Could not read the page content: ${exceptionMessage(response.exceptionDetails)}`);
  }
  if (!response.result.objectId) {
    return undefined;
  }
  const {result} = await frame.session.send('Runtime.getProperties', {
    objectId: response.result.objectId,
    ownProperties: true,
  });
  let json: string | undefined;
  const objectIds: Array<string | undefined> = [];
  for (const prop of result) {
    const index = Number(prop.name);
    if (!Number.isInteger(index) || index < 0) {
      continue;
    }
    if (index === 0) {
      json = typeof prop.value?.value === 'string' ? prop.value.value : undefined;
    } else {
      objectIds[index - 1] = prop.value?.objectId;
    }
  }
  return json === undefined ? undefined : {json, objectIds};
}

/** Runs the walker in the frame's isolated world (installing it when the document has none yet). */
async function walk(
  frame: FramePlace,
  ctx: FastContext,
  objectGroup: string,
): Promise<{result: WalkResult; objectIds: Array<string | undefined>; contextId: number}> {
  const confirm = ctx.printed.confirm(frame.key);
  const args = confirm
    ? `${WALKER}.token === ${JSON.stringify(confirm.token)} ? ${JSON.stringify(confirm.ids)} : []`
    : '[]';
  const run = async (contextId: number) => {
    const w0 = performance.now();
    const done =
      (await evaluateWithNodes(frame, contextId, objectGroup, `${WALKER} ? ${WALKER}.walk(${args}) : null`)) ??
      (await evaluateWithNodes(frame, contextId, objectGroup, `${WALKER_SOURCE}; ${WALKER}.walk([])`));
    if (!done) {
      throw new Error('Could not read the page content: the snapshot walker did not answer');
    }
    T.evalProps = performance.now() - w0;
    return {result: JSON.parse(done.json) as WalkResult, objectIds: done.objectIds, contextId};
  };
  try {
    return await run(await ctx.worlds.context(frame));
  } catch (error) {
    if (!/context/i.test(errorMessage(error))) {
      throw error;
    }
    // The document's world went away with a navigation: make one for the new document.
    return run(await ctx.worlds.context(frame, true));
  }
}

/** Whether Chrome's own node for a container says something the walk's answers below it depend on. */
function needsSubtree(item: AxItem, custom: boolean): boolean {
  const role = item.role;
  if (isControlRole(role) || LEAF_ROLES.has(role) || TEXT_ROLES.has(role) || role === 'heading') {
    return true;
  }
  if (item.editable || item.hasOwns || item.hasActiveDescendant) {
    return true;
  }
  if ((item.payload.ignoredReasons ?? []).some(r => INHERITED_IGNORE.has(r.name))) {
    return true;
  }
  return custom && item.payload.properties?.some(p => p.name === 'disabled' && p.value.value === true) === true;
}

async function hasClosedShadowRoot(frame: FrameTarget, objectId: string): Promise<boolean> {
  const {node} = await frame.session.send('DOM.describeNode', {objectId, pierce: true, depth: 0});
  return (node.shadowRoots ?? []).some(root => root.shadowRootType === 'closed');
}

/** A query for a node that went away meanwhile: it is not on the page any more. */
const gone = (error: unknown) => {
  debug('AX query for a walked node failed', errorMessage(error));
  return undefined;
};

/**
 * Asks Chrome about placeholders, all at once (pipelined). A container whose
 * own node turns out to matter for what is below it is asked for its whole
 * subtree instead, and so is an element Chrome keeps no node for (inline
 * wrappers): then its children are asked about one by one (walker `expand`).
 */
async function answerAll(
  frame: FrameTarget,
  contextId: number,
  objectGroup: string,
  first: WalkNode[],
  firstIds: Array<string | undefined>,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  const objectIds = [...firstIds];
  let todo = first;
  for (let round = 0; todo.length > 0; round++) {
    T['round' + round] = todo.length;
    const upgrades: WalkNode[] = [];
    await Promise.all(
      todo.map(async node => {
        const x = node.x;
        const objectId = x === undefined ? undefined : objectIds[x];
        if (x === undefined || !objectId) {
          return;
        }
        if (node.k === 'q' || node.k === 'o') {
          answers[x] = {item: await subtree(frame, objectId).catch(gone), subtree: true};
          return;
        }
        const [item, closed] = await Promise.all([
          ownNode(frame, objectId).catch(gone),
          node.ce ? hasClosedShadowRoot(frame, objectId).catch(() => false) : false,
        ]);
        answers[x] = {item, subtree: false};
        if (node.k === 'c' && item && (closed || needsSubtree(item, node.ce === 1))) {
          upgrades.push(node);
        }
      }),
    );
    await Promise.all(
      upgrades.map(async node => {
        const x = node.x!;
        answers[x] = {item: await subtree(frame, objectIds[x]!).catch(gone), subtree: true};
      }),
    );
    const empty = todo.filter(n => n.x !== undefined && answers[n.x]?.subtree === true && !answers[n.x]?.item);
    if (empty.length === 0 || round >= MAX_EXPAND_ROUNDS) {
      break;
    }
    const expanded = await evaluateWithNodes(
      frame,
      contextId,
      objectGroup,
      `${WALKER}.expand(${JSON.stringify(empty.map(n => n.x))})`,
    );
    if (!expanded) {
      break;
    }
    const {lists, start} = JSON.parse(expanded.json) as {lists: WalkNode[][]; start: number};
    expanded.objectIds.forEach((id, i) => (objectIds[start + i] = id));
    todo = [];
    empty.forEach((node, i) => {
      node.k = 'x';
      node.c = lists[i] ?? [];
      todo.push(...node.c);
    });
  }
  return answers;
}

function placeholderNodes(root: WalkNode): WalkNode[] {
  const out: WalkNode[] = [];
  const visit = (node: WalkNode) => {
    if (node.x !== undefined) {
      out.push(node);
    }
    for (const child of node.c ?? []) {
      visit(child);
    }
  };
  visit(root);
  return out;
}

/**
 * The fast path for one frame: the in-page walk (walker.ts) answers where
 * its answer is provably Chrome's, Chrome's own AX tree answers for each
 * placeholder (one pipelined batch of getPartialAXTree / queryAXTree), and
 * the pieces are put together in the walk's document order with the
 * reference's filter. Returns the frame's snapshot root (the first kept node
 * when the document node itself is not kept, as the reference does).
 */
const T: Record<string, number> = {};
export async function fastTreeSnapshot(
  place: FramePlace,
  ctx: FastContext,
  depth: number,
): Promise<{root: SnapNode | undefined; nodes: number}> {
  ctx.visited.add(place.key);
  const t0 = performance.now();
  let answers: Answer[];
  let result: WalkResult;
  let backendIds: Map<number, number>;
  let frame: FrameTarget;
  const objectGroup = `cdp-mcp-snapshot-${nextObjectGroup++}`;
  try {
    const placed = await ctx.frames.target(place, walk(place, ctx, objectGroup));
    frame = placed.frame;
    const walked = placed.result;
    result = walked.result;
    T.walk = performance.now() - t0;
    const [answered, learnt] = await Promise.all([
      answerAll(frame, walked.contextId, objectGroup, placeholderNodes(result.root), walked.objectIds),
      printedBackendIds(frame, result, walked.objectIds),
    ]);
    answers = answered;
    backendIds = ctx.printed.update(frame.key, result.token, printedIds(result.root), learnt);
    T.answers = performance.now() - t0 - T.walk;
  } finally {
    void place.session.trySend('Runtime.releaseObjectGroup', {objectGroup});
  }
  // Chrome's subtrees may hold frames of their own.
  const subtreeItems = answers.flatMap(a => (a?.subtree && a.item ? allItems(a.item) : []));
  await attachFrames(subtreeItems, frame, ctx.frames, depth, (child, d) => ctx.frameSnapshot(child, d));
  if (process.env['CDP_MCP_SNAPSHOT_TIMING']) {
    const kinds: Record<string, number> = {};
    for (const n of placeholderNodes(result.root)) {
      const a = n.x === undefined ? undefined : answers[n.x];
      const key = `${n.k}:${a?.item?.role ?? '-'}${a?.subtree ? '+' : ''}`;
      kinds[key] = (kinds[key] ?? 0) + 1;
    }
    process.stderr.write(
      `TIMING frame ${(performance.now() - t0).toFixed(1)} ms, ${result.count} placeholders ${JSON.stringify(T)} ${JSON.stringify(kinds)}\n`,
    );
  }
  return {root: stitch(frame, result, answers, backendIds), nodes: result.n};
}

/** Asks Chrome for the backendNodeId of every printed node the walk has not been told about. */
async function printedBackendIds(
  frame: FrameTarget,
  result: WalkResult,
  objectIds: Array<string | undefined>,
): Promise<Map<number, number>> {
  const learnt = new Map<number, number>();
  await Promise.all(
    result.mi.map(async (id, i) => {
      const objectId = objectIds[result.m + i];
      if (!objectId) {
        return;
      }
      const described = await frame.session.trySend('DOM.describeNode', {objectId});
      if (described) {
        learnt.set(id, described.node.backendNodeId);
      }
    }),
  );
  return learnt;
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
  /** For each DOM node in Chrome's subtrees: the placeholders whose subtree holds it. */
  const inSubtrees = new Map<number, number[]>();
  for (const [index, a] of answers.entries()) {
    for (const item of a?.subtree && a.item ? allItems(a.item) : []) {
      if (item.backendNodeId !== undefined) {
        inSubtrees.set(item.backendNodeId, [...(inSubtrees.get(item.backendNodeId) ?? []), index]);
      }
    }
  }
  const shell = backendShell(frame);
  /** A node the walk printed: keyed by its DOM node like Chrome's (a node Chrome could not name is gone). */
  const walked = (id: number): Pick<SnapNode, 'key' | 'ref' | 'backendNodeId'> => {
    const backendNodeId = backendIds.get(id);
    return backendNodeId === undefined
      ? {key: undefined, ref: undefined}
      : {key: backendKey(frame, backendNodeId), ref: {kind: 'backend', frame, backendNodeId}, backendNodeId};
  };
  /** Chrome's node over the walk's children; a leaf only when Chrome gives it no children. */
  const own = (item: AxItem, children: SnapNode[], out: SnapNode[]) => {
    if (item.isInteresting(false, () => item.isLeafAlone)) {
      out.push(snapNode(item, children, shell));
    } else {
      out.push(...children);
    }
  };
  const convert = (node: WalkNode, out: SnapNode[]) => {
    const kids = () => {
      const children: SnapNode[] = [];
      for (const child of node.c ?? []) {
        convert(child, children);
      }
      return children;
    };
    const a = node.x === undefined ? undefined : answers[node.x];
    switch (node.k) {
      case 'x':
        out.push(...kids());
        return;
      case 'e':
        out.push({role: node.r ?? '', name: node.n ?? '', props: node.p ?? {}, children: kids(), ...walked(node.i)});
        return;
      case 't':
        out.push({role: 'StaticText', name: node.n ?? '', props: {}, children: [], ...walked(node.i)});
        return;
      case 'd':
        if (a?.item) {
          own(a.item, kids(), out);
        }
        return;
      default: {
        const item = a?.item;
        if (!item) {
          return;
        }
        if (!a.subtree) {
          own(item, kids(), out);
          return;
        }
        const holders = item.backendNodeId === undefined ? [] : (inSubtrees.get(item.backendNodeId) ?? []);
        if (node.k === 'o' && holders.some(h => h !== node.x)) {
          return; // Chrome shows it under its aria-owns owner, which is in another subtree.
        }
        out.push(...serializeAx(item, true, shell));
      }
    }
  };
  const top: SnapNode[] = [];
  convert(result.root, top);
  return top[0];
}
