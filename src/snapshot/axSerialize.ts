import type {AxItem} from './axNode.js';
import type {SnapNode} from './types.js';

/** Where an AX node leads back to (uid key and DOM reference), decided by the caller. */
export type Shell = (item: AxItem) => Pick<SnapNode, 'key' | 'ref' | 'backendNodeId'>;

/** An AX node as a snapshot node (role, name, the reference's properties). */
export function snapNode(item: AxItem, children: SnapNode[], shell: Shell): SnapNode {
  return {
    role: item.role,
    name: item.name,
    props: item.serializeProps(),
    children,
    ...shell(item),
    axAncestors: () => axAncestors(item),
  };
}

function* axAncestors(item: AxItem): Iterable<number> {
  for (let up = item.parent; up; up = up.parent) {
    if (up.backendNodeId !== undefined) {
      yield up.backendNodeId;
    }
  }
}

/**
 * The reference's tree serialization (Puppeteer's collectInterestingNodes +
 * serializeTree): with `interestingOnly`, keep the interesting nodes and the
 * Iframe nodes that carry a frame, never look below leaves, and hoist the
 * children of everything dropped into the nearest kept ancestor. A kept
 * Iframe node gets its frame's root as last child. Returns the top-level
 * nodes (one when the root is kept).
 */
export function serializeAx(root: AxItem, interestingOnly: boolean, shell: Shell, insideControl = false): SnapNode[] {
  const kept = new Set<AxItem>();
  if (interestingOnly) {
    const collect = (item: AxItem, inside: boolean) => {
      if (item.isInteresting(inside) || item.frameRoot) {
        kept.add(item);
      }
      if (item.isLeaf) {
        return;
      }
      const below = inside || item.isControl;
      for (const child of item.children) {
        collect(child, below);
      }
    };
    collect(root, insideControl);
  }
  const serialize = (item: AxItem): SnapNode[] => {
    const children: SnapNode[] = [];
    for (const child of item.children) {
      children.push(...serialize(child));
    }
    if (interestingOnly && !kept.has(item)) {
      return children;
    }
    if (item.frameRoot) {
      children.push(item.frameRoot);
    }
    return [snapNode(item, children, shell)];
  };
  return serialize(root);
}

/** Every node of an AX subtree (pre-order). */
export function allItems(root: AxItem): AxItem[] {
  const out: AxItem[] = [];
  const visit = (item: AxItem) => {
    out.push(item);
    for (const child of item.children) {
      visit(child);
    }
  };
  visit(root);
  return out;
}
