import type {Protocol} from '../../protocol/index.js';
import {asFullTreeNode, AxItem, linkAxTree} from './axNode.js';
import type {FrameTarget} from './types.js';

type AXNode = Protocol.Accessibility.AXNode;

/** Bound of one AX call about a node or its children. */
const AX_CALL_TIMEOUT_MS = 30_000;
/** Levels of a subtree fetched one after the other (deeper widgets are cut there). */
const MAX_SUBTREE_LEVELS = 64;

/** The node id Chrome answers with for a DOM node it has no AX node for. */
const NO_AX_NODE = '0';

/** Chrome's node for one DOM node (synchronous in Chrome: answered from its current tree). */
export async function ownNode(frame: FrameTarget, objectId: string, signal: AbortSignal): Promise<AxItem | undefined> {
  const {nodes} = await frame.session.send(
    'Accessibility.getPartialAXTree',
    {objectId, fetchRelatives: false},
    {timeout: AX_CALL_TIMEOUT_MS, signal},
  );
  return nodes[0] ? new AxItem(nodes[0]) : undefined;
}

/**
 * Chrome's AX subtree below a DOM node, as getFullAXTree would give it
 * (same node records, same order), fetched level by level: the node with
 * getPartialAXTree, then the children of every node that is not a leaf for
 * the reference's filter with getChildAXNodes (which also brings the
 * children of ignored ones), each level in one pipelined batch. Both calls
 * answer from Chrome's current tree at once, where queryAXTree waits for the
 * next accessibility update, which can take a frame or more.
 *
 * Returns undefined when Chrome keeps no node for the element at all.
 */
export async function subtree(frame: FrameTarget, objectId: string, signal: AbortSignal): Promise<AxItem | undefined> {
  const root = await ownNode(frame, objectId, signal);
  if (!root || root.payload.nodeId === NO_AX_NODE) {
    return undefined;
  }
  // getChildAXNodes needs the domain on; a failed enable leaves it to fail by itself.
  await frame.session.enableOnce('Accessibility.enable', signal).catch(() => undefined);
  const byId = new Map<string, AxItem>([[root.payload.nodeId, root]]);
  let frontier = expandable(root) ? [root] : [];
  for (let level = 0; frontier.length > 0 && level < MAX_SUBTREE_LEVELS; level++) {
    const answers = await Promise.all(
      frontier.map(item =>
        frame.session
          .send(
            'Accessibility.getChildAXNodes',
            {id: item.payload.nodeId, frameId: frame.frameId},
            {timeout: AX_CALL_TIMEOUT_MS, signal},
          )
          .then(r => r.nodes)
          .catch(() => [] as AXNode[]),
      ),
    );
    const next: AxItem[] = [];
    for (const nodes of answers) {
      const fresh: AxItem[] = [];
      for (const node of nodes) {
        if (!byId.has(node.nodeId)) {
          const item = new AxItem(node);
          byId.set(node.nodeId, item);
          fresh.push(item);
        }
      }
      // getChildAXNodes already followed ignored (and DOM-less) nodes: only the others need a call of their own.
      for (const item of fresh) {
        if (!item.ignored && item.backendNodeId !== undefined && expandable(item)) {
          next.push(item);
        }
      }
    }
    frontier = next;
  }
  for (const item of byId.values()) {
    for (const childId of item.payload.childIds ?? []) {
      const child = byId.get(childId);
      if (child) {
        item.children.push(child);
        child.parent = item;
      }
    }
  }
  return root;
}

/**
 * Chrome's AX subtree below a DOM node in one call (queryAXTree), brought to
 * getFullAXTree's form. Chrome answers it at its next accessibility update
 * (a frame or so), but all such calls of a batch share that wait: the better
 * choice for big or deep subtrees, where the level-by-level fetch would take
 * one round trip per level.
 */
export async function queriedSubtree(
  frame: FrameTarget,
  objectId: string,
  signal: AbortSignal,
): Promise<AxItem | undefined> {
  const {nodes} = await frame.session.send(
    'Accessibility.queryAXTree',
    {objectId},
    {timeout: AX_CALL_TIMEOUT_MS, signal},
  );
  // queryAXTree starts only from nodes included in the tree; for the others (ignored inline wrappers,
  // hosts Chrome leaves out) the level-by-level fetch starts from the node's own record.
  return nodes.length > 0 ? linkAxTree(nodes.map(asFullTreeNode)).root : subtree(frame, objectId, signal);
}

/**
 * Whether the filter may look below a node. Leaves (text, text fields, images,
 * sliders...) are never looked below, so their children are not fetched.
 */
function expandable(item: AxItem): boolean {
  return (item.payload.childIds ?? []).length > 0 && !(item.isLeafAlone && item.role !== 'heading');
}
