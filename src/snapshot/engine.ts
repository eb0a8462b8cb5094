import type {Page} from '../browser/Page.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {type FastContext, fastTreeSnapshot, type PrintedNodeIds} from './fastTree.js';
import {type IsolatedWorlds, SnapshotFrames} from './frames.js';
import {fullTreeSnapshot} from './fullTree.js';
import type {FrameTarget, SnapNode} from './types.js';

/**
 * The one place that decides how a snapshot is made.
 *
 * Verbose snapshots print every node of Chrome's accessibility tree, so they
 * are Chrome's full tree (Accessibility.getFullAXTree per frame), exactly as
 * the reference gets it; nothing is faster for "everything".
 *
 * Non-verbose snapshots take the fast path (fastTree.ts): Chrome's full tree
 * costs about 0.3 ms per AX node and does not get faster when warm (1.4 s at
 * 5000 buttons), asking Chrome about each printed node costs 0.2-0.5 ms per
 * node even pipelined (1.5 s at 5000), and Element.computedRole/computedName
 * rebuild the AX tree per call (~0.8 s each at 5000 buttons). So the page
 * walks itself and answers only where its answer is provably Chrome's
 * (rules.ts), and asks Chrome (pipelined getPartialAXTree / queryAXTree) for
 * every other node and subtree. A frame the walk cannot run in (no isolated
 * world, e.g. a document that is being replaced) falls back to the full tree.
 *
 * CDP_MCP_SNAPSHOT_ENGINE=ax makes non-verbose snapshots use the full tree
 * too (the reference path, for troubleshooting).
 */
export type Engine = 'fast' | 'ax';

export function engineFor(verbose: boolean): Engine {
  return verbose || process.env['CDP_MCP_SNAPSHOT_ENGINE'] === 'ax' ? 'ax' : 'fast';
}

/** Takes the tree of a page's snapshot (main frame and every frame inside it). */
export async function captureTree(
  page: Page,
  verbose: boolean,
  worlds: IsolatedWorlds,
  printed: PrintedNodeIds,
): Promise<SnapNode> {
  const frames = new SnapshotFrames(page);
  const main = await frames.main();
  let root: SnapNode | undefined;
  if (engineFor(verbose) === 'ax') {
    root = await fullTreeSnapshot(main, frames, !verbose);
  } else {
    const ctx: FastContext = {
      frames,
      worlds,
      printed,
      visited: new Set(),
      frameSnapshot: (frame, depth) => fastFrame(frame, ctx, depth),
    };
    root = await fastFrame(main, ctx, 0);
    worlds.retain(ctx.visited);
    printed.retain(ctx.visited);
  }
  if (!root) {
    throw new Error('Failed to create accessibility snapshot');
  }
  return root;
}

async function fastFrame(frame: FrameTarget, ctx: FastContext, depth: number): Promise<SnapNode | undefined> {
  try {
    return await fastTreeSnapshot(frame, ctx, depth);
  } catch (error) {
    if (depth === 0 && !/context|Could not read the page content/i.test(errorMessage(error))) {
      throw error;
    }
    debug('walk failed, using the full AX tree for the frame', errorMessage(error));
    return fullTreeSnapshot(frame, ctx.frames, true, depth);
  }
}
