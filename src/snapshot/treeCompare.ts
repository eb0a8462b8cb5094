/** Comparing two readings of a tree: the walk's check against the full tree (engine.ts), a kept tree against a fresh one (axCache.ts). */
import type {Protocol} from '../../protocol/index.js';
import {linkAxTree} from './axNode.js';
import {serializeAx} from './axSerialize.js';
import {backendKey} from './keys.js';
import type {FrameTarget, SnapNode} from './types.js';

/** What a snapshot tree prints (roles, names, properties, identities, shape), to compare two readings. */
export function signature(node: SnapNode | undefined): string {
  if (!node) {
    return '';
  }
  const props = Object.keys(node.props)
    .sort()
    .map(key => [key, node.props[key]]);
  return `${node.role}\u0000${node.name}\u0000${JSON.stringify(props)}\u0000${node.key ?? ''}[${node.children.map(signature).join(',')}]`;
}

/**
 * What a frame's tree prints, in both modes (the frames inside left out:
 * each is checked on its own), as one string: the snapshot cache's tests
 * compare a kept tree with a fresh read by it.
 */
export function printedTree(nodes: Protocol.Accessibility.AXNode[], frame: FrameTarget): string {
  const text = (interestingOnly: boolean) => {
    const {root} = linkAxTree(nodes);
    if (!root) {
      return '';
    }
    const shell = (item: {backendNodeId: number | undefined}) => ({
      key: item.backendNodeId === undefined ? undefined : backendKey(frame, item.backendNodeId),
      ref: undefined,
    });
    return serializeAx(root, interestingOnly, shell).map(signature).join(',');
  };
  return `${text(true)}\n${text(false)}`;
}
