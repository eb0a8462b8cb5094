import type {FrameTarget} from './types.js';

/**
 * The uid key of a DOM node: what makes a node "the same node" from one
 * snapshot to the next. As the reference: the frame's document (loaderId) and
 * Chrome's id for the node (backendNodeId), whichever way the node was read.
 */
export function backendKey(frame: FrameTarget, backendNodeId: number): string {
  return `${frame.loaderId}_${backendNodeId}`;
}
