import {CancelledError, errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {type AxTreeRead, readFullTree} from './axCache.js';
import {type AxItem, linkAxTree} from './axNode.js';
import {serializeAx, type Shell} from './axSerialize.js';
import {type FramePlace, MAX_FRAME_DEPTH, type SnapshotFrames} from './frames.js';
import {backendKey} from './keys.js';
import type {FrameTarget, SnapNode} from './types.js';

/** Keys and refs of AX nodes by their DOM node (the reference's loaderId + backendNodeId). */
export function backendShell(frame: FrameTarget): Shell {
  return item => {
    const backendNodeId = item.backendNodeId;
    if (backendNodeId === undefined) {
      return {key: undefined, ref: undefined};
    }
    return {key: backendKey(frame, backendNodeId), ref: {kind: 'backend', frame, backendNodeId}, backendNodeId};
  };
}

/**
 * Attaches the content frame's snapshot to every Iframe node of a tree, as
 * Puppeteer's populateIframes does (all Iframe nodes, in parallel; a frame
 * that cannot be read is left out).
 */
export async function attachFrames(
  items: AxItem[],
  parent: FrameTarget,
  frames: SnapshotFrames,
  depth: number,
  snapshot: (frame: FramePlace, depth: number) => Promise<SnapNode | undefined>,
): Promise<void> {
  if (depth >= MAX_FRAME_DEPTH) {
    return;
  }
  await Promise.all(
    items.map(async item => {
      const backendNodeId = item.backendNodeId;
      if (item.role !== 'Iframe' || backendNodeId === undefined) {
        return;
      }
      const child = await frames.contentFrame(parent, {backendNodeId});
      if (!child) {
        return;
      }
      try {
        item.frameRoot = await snapshot(child, depth + 1);
      } catch (error) {
        if (error instanceof CancelledError) {
          throw error;
        }
        debug('child frame snapshot failed', errorMessage(error));
      }
    }),
  );
}

/**
 * The exact path: one frame's snapshot straight from Chrome's full
 * accessibility tree (Accessibility.getFullAXTree through the frame's own
 * session), filtered as the reference filters it. It is what verbose
 * snapshots are made of, and the engine's answer for small documents.
 * `child` snapshots the frames inside it (the engine decides how); `read`
 * gives the tree (the snapshot cache's, axCache.ts, or a fresh one).
 */
export async function fullTreeSnapshot(
  place: FramePlace,
  frames: SnapshotFrames,
  interestingOnly: boolean,
  depth: number,
  child: (frame: FramePlace, depth: number) => Promise<SnapNode | undefined>,
  read: () => Promise<AxTreeRead> = () => readFullTree(place, frames),
): Promise<{root: SnapNode | undefined; nodes: number}> {
  const {frame, nodes} = await read();
  const {root, items} = linkAxTree(nodes);
  if (!root) {
    return {root: undefined, nodes: 0};
  }
  await attachFrames(items, frame, frames, depth, child);
  return {root: serializeAx(root, interestingOnly, backendShell(frame))[0], nodes: items.length};
}
