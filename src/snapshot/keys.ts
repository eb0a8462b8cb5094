import type {FrameTarget} from './types.js';

/**
 * Uid keys: what makes a node "the same node" from one snapshot to the next.
 * Nodes from Chrome's tree are keyed as the reference keys them (the frame's
 * loaderId and the DOM node's backendNodeId); nodes the in-page walk answers
 * for by the walker's own id for the DOM node (the walker lives as long as
 * the document, `token` tells walker instances apart).
 */
export function backendKey(frame: FrameTarget, backendNodeId: number): string {
  return `b:${frame.loaderId}:${backendNodeId}`;
}

export function walkerKey(frame: FrameTarget, token: string, id: number): string {
  return `w:${frame.loaderId}:${token}:${id}`;
}

/** Keys of walker nodes (kept through verbose snapshots, which only see Chrome's nodes). */
export const isWalkerKey = (key: string): boolean => key.startsWith('w:');
