import type {Protocol} from '../../protocol/index.js';
import {exceptionMessage} from '../browser/exceptions.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {asFullTreeNode, AxItem, isControlRole, LEAF_ROLES, linkAxTree, TEXT_ROLES} from './axNode.js';
import {allItems, serializeAx, type Shell, snapNode} from './axSerialize.js';
import type {IsolatedWorlds, SnapshotFrames} from './frames.js';
import {attachFrames, backendShell} from './fullTree.js';
import {walkerKey} from './keys.js';
import {walkerRules} from './rules.js';
import {installWalker, WALKER, type WalkNode, type WalkResult} from './walker.js';
import type {FrameTarget, SnapNode} from './types.js';

/** Bound of the in-page walk of one document. */
const WALK_TIMEOUT_MS = 30_000;
/** Bound of one AX query for a placeholder (subtrees of big widgets take a while). */
const AX_QUERY_TIMEOUT_MS = 60_000;
const OBJECT_GROUP = 'cdp-mcp-snapshot';
const WALKER_SOURCE = `(${installWalker.toString()})(${walkerRules.toString()})`;

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

export interface FastContext {
  frames: SnapshotFrames;
  worlds: IsolatedWorlds;
  /** Frames this snapshot walked (their isolated worlds are kept). */
  visited: Set<string>;
  /** Snapshots a child frame (the engine decides how). */
  frameSnapshot(frame: FrameTarget, depth: number): Promise<SnapNode | undefined>;
}

/** What Chrome answered for one placeholder of the walk. */
interface Answer {
  /** The node itself (c, l, d) or the subtree's root (q, o, upgraded c). */
  item: AxItem | undefined;
  subtree: boolean;
}

/** Runs the walker in the frame's isolated world (installing it first when the document has none). */
async function walk(frame: FrameTarget, ctx: FastContext): Promise<{result: WalkResult; contextId: number}> {
  const run = async (contextId: number) => {
    const send = (expression: string) =>
      frame.session.send('Runtime.evaluate', {expression, contextId, returnByValue: true}, WALK_TIMEOUT_MS);
    let response = await send(`${WALKER}?.walk() ?? null`);
    if (!response.exceptionDetails && typeof response.result.value !== 'string') {
      response = await send(`${WALKER_SOURCE}; ${WALKER}.walk()`);
    }
    if (response.exceptionDetails) {
      throw new Error(`Could not read the page content: ${exceptionMessage(response.exceptionDetails)}`);
    }
    return JSON.parse(response.result.value as string) as WalkResult;
  };
  let contextId = await ctx.worlds.context(frame);
  try {
    return {result: await run(contextId), contextId};
  } catch (error) {
    if (!/context/i.test(errorMessage(error))) {
      throw error;
    }
    // The document's world went away with a navigation we had not seen yet: make a new one.
    contextId = await ctx.worlds.context(frame, true);
    return {result: await run(contextId), contextId};
  }
}

/** Remote objects for the walk's placeholders, in order. */
async function placeholders(frame: FrameTarget, contextId: number): Promise<string[]> {
  const {result} = await frame.session.send('Runtime.evaluate', {
    expression: `${WALKER}.pending()`,
    contextId,
    objectGroup: OBJECT_GROUP,
  });
  if (!result.objectId) {
    throw new Error('Could not read the page content: the snapshot walker is gone');
  }
  const {result: props} = await frame.session.send('Runtime.getProperties', {
    objectId: result.objectId,
    ownProperties: true,
  });
  const ids: string[] = [];
  for (const prop of props) {
    const index = Number(prop.name);
    if (Number.isInteger(index) && index >= 0 && prop.value?.objectId) {
      ids[index] = prop.value.objectId;
    }
  }
  return ids;
}

function needsSubtree(item: AxItem, custom: boolean): boolean {
  const role = item.role;
  if (isControlRole(role) || LEAF_ROLES.has(role) || TEXT_ROLES.has(role) || role === 'heading') {
    return true;
  }
  if (item.editable || item.hasOwns || item.hasActiveDescendant) {
    return true;
  }
  const reasons = item.payload.ignoredReasons ?? [];
  if (reasons.some(r => INHERITED_IGNORE.has(r.name))) {
    return true;
  }
  return custom && item.payload.properties?.some(p => p.name === 'disabled' && p.value.value === true) === true;
}

async function subtree(frame: FrameTarget, objectId: string): Promise<AxItem | undefined> {
  const {nodes} = await frame.session.send('Accessibility.queryAXTree', {objectId}, AX_QUERY_TIMEOUT_MS);
  return linkAxTree(nodes.map(asFullTreeNode)).root;
}

async function ownNode(frame: FrameTarget, objectId: string): Promise<AxItem | undefined> {
  const {nodes} = await frame.session.send(
    'Accessibility.getPartialAXTree',
    {objectId, fetchRelatives: false},
    AX_QUERY_TIMEOUT_MS,
  );
  const node: Protocol.Accessibility.AXNode | undefined = nodes[0];
  return node ? new AxItem(node) : undefined;
}

async function hasClosedShadowRoot(frame: FrameTarget, objectId: string): Promise<boolean> {
  const {node} = await frame.session.send('DOM.describeNode', {objectId, pierce: true, depth: 0});
  return (node.shadowRoots ?? []).some(root => root.shadowRootType === 'closed');
}

/**
 * Asks Chrome about placeholders at once (pipelined); a custom element or
 * container whose node turns out to matter for what is below it is asked for
 * its subtree instead.
 */
async function answer(frame: FrameTarget, nodes: WalkNode[], objectIds: string[], answers: Answer[]): Promise<void> {
  await Promise.all(
    nodes.map(async node => {
      const objectId = node.x === undefined ? undefined : objectIds[node.x];
      if (node.x === undefined || !objectId) {
        return;
      }
      try {
        if (node.k === 'q' || node.k === 'o') {
          answers[node.x] = {item: await subtree(frame, objectId), subtree: true};
          return;
        }
        const [item, closed] = await Promise.all([
          ownNode(frame, objectId),
          node.ce ? hasClosedShadowRoot(frame, objectId) : false,
        ]);
        if (node.k === 'c' && item && (closed || needsSubtree(item, node.ce === 1))) {
          answers[node.x] = {item: await subtree(frame, objectId), subtree: true};
          return;
        }
        answers[node.x] = {item, subtree: false};
      } catch (error) {
        // The node went away between the walk and the question: it is not on the page any more.
        debug('AX query for a walked node failed', errorMessage(error));
      }
    }),
  );
}

/** Rounds of "Chrome has no node for this element, ask about its children" (inline wrappers nest a few deep). */
const MAX_EXPAND_ROUNDS = 16;

/** Asks about every placeholder, replacing those Chrome keeps no node for by their children (walker `expand`). */
async function answerAll(frame: FrameTarget, contextId: number, result: WalkResult): Promise<Answer[]> {
  const answers: Answer[] = [];
  let todo = placeholderNodes(result.root);
  for (let round = 0; todo.length > 0; round++) {
    const objectIds = await placeholders(frame, contextId);
    await answer(frame, todo, objectIds, answers);
    const empty = todo.filter(n => n.x !== undefined && answers[n.x]?.subtree === true && !answers[n.x]?.item);
    if (empty.length === 0 || round >= MAX_EXPAND_ROUNDS) {
      break;
    }
    const expanded = await frame.session.send(
      'Runtime.evaluate',
      {expression: `${WALKER}.expand(${JSON.stringify(empty.map(n => n.x))})`, contextId, returnByValue: true},
      WALK_TIMEOUT_MS,
    );
    if (expanded.exceptionDetails || typeof expanded.result.value !== 'string') {
      break;
    }
    const {lists} = JSON.parse(expanded.result.value) as {lists: WalkNode[][]};
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
export async function fastTreeSnapshot(frame: FrameTarget, ctx: FastContext, depth = 0): Promise<SnapNode | undefined> {
  ctx.visited.add(frame.key);
  const t0 = performance.now();
  const {result, contextId} = await walk(frame, ctx);
  const t1 = performance.now();
  let answers: Answer[] = [];
  try {
    answers = await answerAll(frame, contextId, result);
  } finally {
    void frame.session.trySend('Runtime.releaseObjectGroup', {objectGroup: OBJECT_GROUP});
  }
  if (process.env['CDP_MCP_SNAPSHOT_TIMING']) {
    process.stderr.write(`TIMING walk ${(t1 - t0).toFixed(1)} ms, ${result.count} placeholders, answers ${(performance.now() - t1).toFixed(1)} ms\n`);
  }
  // Chrome's subtrees may hold frames of their own.
  const subtreeItems = answers.flatMap(a => (a?.subtree && a.item ? allItems(a.item) : []));
  await attachFrames(subtreeItems, frame, ctx.frames, depth, (child, d) => ctx.frameSnapshot(child, d));
  /** For each DOM node in Chrome's subtrees: the placeholders whose subtree holds it. */
  const inSubtrees = new Map<number, number[]>();
  for (const [index, a] of answers.entries()) {
    for (const item of a?.subtree && a.item ? allItems(a.item) : []) {
      if (item.backendNodeId !== undefined) {
        inSubtrees.set(item.backendNodeId, [...(inSubtrees.get(item.backendNodeId) ?? []), index]);
      }
    }
  }
  return stitch(frame, result, answers, inSubtrees);
}

function stitch(
  frame: FrameTarget,
  result: WalkResult,
  answers: Answer[],
  inSubtrees: Map<number, number[]>,
): SnapNode | undefined {
  const chromeShell = backendShell(frame);
  const walkRef = (id: number) => ({
    key: walkerKey(frame, result.token, id),
    ref: {kind: 'walker' as const, frame, token: result.token, id},
  });
  /** Chrome's nodes keep backend keys, except the placeholder's own node: it is the walked DOM node. */
  const shellFor =
    (node: WalkNode, top: AxItem): Shell =>
    item =>
      item === top ? {...walkRef(node.i), backendNodeId: item.backendNodeId} : chromeShell(item);
  const convert = (node: WalkNode, out: SnapNode[]) => {
    const a = node.x === undefined ? undefined : answers[node.x];
    const kids = () => {
      const children: SnapNode[] = [];
      for (const child of node.c ?? []) {
        convert(child, children);
      }
      return children;
    };
    switch (node.k) {
      case 'x':
        out.push(...kids());
        return;
      case 'e':
        out.push({role: node.r ?? '', name: node.n ?? '', props: node.p ?? {}, children: kids(), ...walkRef(node.i)});
        return;
      case 't':
        out.push({role: 'StaticText', name: node.n ?? '', props: {}, children: [], ...walkRef(node.i)});
        return;
      case 'q':
      case 'o':
      case 'c':
      case 'l': {
        const item = a?.item;
        if (!item) {
          return;
        }
        if (a.subtree) {
          const holders = item.backendNodeId === undefined ? [] : (inSubtrees.get(item.backendNodeId) ?? []);
          if (node.k === 'o' && holders.some(h => h !== node.x)) {
            return; // Chrome shows it under its aria-owns owner, which is in another subtree.
          }
          out.push(...serializeAx(item, true, shellFor(node, item)));
          return;
        }
        // c: Chrome's node over the walk's children; a leaf only when Chrome gives it no children.
        pushOwn(item, kids(), node, out);
        return;
      }
      case 'd': {
        const children = kids();
        if (a?.item) {
          pushOwn(a.item, children, node, out, chromeShell);
        }
        return;
      }
    }
  };
  const pushOwn = (item: AxItem, children: SnapNode[], node: WalkNode, out: SnapNode[], shell?: Shell) => {
    if (item.isInteresting(false, () => item.isLeafAlone)) {
      out.push(snapNode(item, children, shell ?? shellFor(node, item)));
    } else {
      out.push(...children);
    }
  };
  const top: SnapNode[] = [];
  convert(result.root, top);
  return top[0];
}

