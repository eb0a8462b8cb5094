/**
 * Elements a third-party tool returned, placed in the snapshot taken for its
 * answer so that the agent gets a uid for each (as the reference does): an
 * element the tree already shows keeps its node; any other is inserted with
 * its tag name as role, under the nearest ancestor the tree shows (else the
 * root), taking over that ancestor's children that lie inside it, at the
 * place of the first of them (else last). Only that snapshot shows them.
 */
import type {FrameTarget, SnapNode} from './types.js';

/** An element to place: Chrome's id for it and what placing it needs. */
export interface ExtraElement {
  backendNodeId: number;
  localName: string;
  /** Its ancestor elements, nearest first. */
  ancestors: readonly number[];
  /** Every node inside it. */
  descendants: ReadonlySet<number>;
}

/** The key extra nodes are remembered by (their own, as in the reference, not the document's). */
function extraKey(backendNodeId: number): string {
  return `custom_${backendNodeId}`;
}

/** Inserts the elements the tree does not show yet; `frame` is the main frame's (they are its elements). */
export function insertExtraNodes(root: SnapNode, extras: readonly ExtraElement[], frame: FrameTarget): void {
  const shown = new Map<number, SnapNode>();
  const visit = (node: SnapNode) => {
    if (node.ref && node.ref.frame.key === frame.key && !shown.has(node.ref.backendNodeId)) {
      shown.set(node.ref.backendNodeId, node);
    }
    node.children.forEach(visit);
  };
  visit(root);
  for (const extra of extras) {
    if (shown.has(extra.backendNodeId)) {
      continue;
    }
    const parentId = extra.ancestors.find(id => shown.has(id));
    const parent = (parentId !== undefined ? shown.get(parentId) : undefined) ?? root;
    const inside = (child: SnapNode) => child.ref !== undefined && extra.descendants.has(child.ref.backendNodeId);
    const at = parent.children.findIndex(inside);
    const node: SnapNode = {
      role: extra.localName,
      name: '',
      props: {},
      children: parent.children.filter(inside),
      key: extraKey(extra.backendNodeId),
      ref: {kind: 'backend', frame, backendNodeId: extra.backendNodeId},
      backendNodeId: extra.backendNodeId,
    };
    const rest = parent.children.filter(child => !inside(child));
    rest.splice(at === -1 ? rest.length : at, 0, node);
    parent.children = rest;
    shown.set(extra.backendNodeId, node);
  }
}
