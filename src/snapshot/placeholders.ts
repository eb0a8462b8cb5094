import {errorMessage, mapLimited, throwIfCancelled} from '../util/async.js';
import {debug} from '../util/logger.js';
import {ownNode, queriedSubtree, subtree} from './axFetch.js';
import {type AxItem, isControlRole, LEAF_ROLES, TEXT_ROLES} from './axNode.js';
import {IN_FLIGHT, type NodeObjects, type PageWalk} from './pageWalk.js';
import type {FrameTarget} from './types.js';
import type {WalkNode} from './walker.js';

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

/** What Chrome answered for one placeholder of the walk. */
export interface Answer {
  /** The node itself (c, l, d) or the subtree's root (q, o, and c nodes that turned out to matter). */
  item: AxItem | undefined;
  subtree: boolean;
}

/**
 * Whether Chrome's own node for a container says something the walk's
 * answers below it depend on: a role that changes how children are filtered
 * (controls, leaves, headings), editing, nodes moved in or pointed at, an
 * ignored state its children inherit, or (custom elements, whose internals
 * can set anything) being disabled.
 */
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

/** A custom element whose closed shadow root the walk could not enter. */
async function hasClosedShadowRoot(frame: FrameTarget, objectId: string, signal: AbortSignal): Promise<boolean> {
  const {node} = await frame.session.send('DOM.describeNode', {objectId, pierce: true, depth: 0}, {signal});
  return (node.shadowRoots ?? []).some(root => root.shadowRootType === 'closed');
}

/** A question about a node that went away meanwhile: it is not on the page any more. */
const gone = (error: unknown) => {
  debug('AX query for a walked node failed', errorMessage(error));
  return undefined;
};

export function placeholderNodes(root: WalkNode): WalkNode[] {
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
 * Asks Chrome about every placeholder, all at once (pipelined). A container
 * whose own node turns out to matter for what is below it is asked for its
 * whole subtree instead, and an element Chrome keeps no node for (inline
 * wrappers) is replaced by its children, asked about one by one.
 */
export async function answerPlaceholders(
  frame: FrameTarget,
  walk: PageWalk,
  root: WalkNode,
  objects: NodeObjects,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  const objectIds = [...objects];
  const {signal} = walk;
  let todo = placeholderNodes(root);
  for (let round = 0; todo.length > 0; round++) {
    const upgrades: WalkNode[] = [];
    await mapLimited(todo, IN_FLIGHT, async node => {
      const x = node.x;
      const objectId = x === undefined ? undefined : objectIds[x];
      if (x === undefined || !objectId) {
        return;
      }
      if (node.k === 'q' || node.k === 'o') {
        const fetch = node.b ? queriedSubtree : subtree;
        answers[x] = {item: await fetch(frame, objectId, signal).catch(gone), subtree: true};
        return;
      }
      const [item, closed] = await Promise.all([
        ownNode(frame, objectId, signal).catch(gone),
        node.ce ? hasClosedShadowRoot(frame, objectId, signal).catch(() => false) : false,
      ]);
      answers[x] = {item, subtree: false};
      if (node.k === 'c' && item && (closed || needsSubtree(item, node.ce === 1))) {
        upgrades.push(node);
      }
    });
    await Promise.all(
      upgrades.map(async node => {
        const x = node.x!;
        // Containers worth a placeholder of their own hold more than a few nodes: one call.
        answers[x] = {item: await queriedSubtree(frame, objectIds[x]!, signal).catch(gone), subtree: true};
      }),
    );
    throwIfCancelled(signal);
    const empty = todo.filter(n => n.x !== undefined && answers[n.x]?.subtree === true && !answers[n.x]?.item);
    if (empty.length === 0 || round >= MAX_EXPAND_ROUNDS) {
      break;
    }
    const expanded = await walk.expand(empty.map(n => n.x!));
    if (!expanded) {
      break;
    }
    expanded.objects.forEach((id, i) => (objectIds[expanded.start + i] = id));
    todo = [];
    empty.forEach((node, i) => {
      node.k = 'x';
      node.c = expanded.lists[i] ?? [];
      todo.push(...node.c);
    });
  }
  return answers;
}
