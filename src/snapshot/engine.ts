import type {Page} from '../browser/Page.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {type FastContext, fastTreeSnapshot} from './fastTree.js';
import {type FramePlace, IsolatedWorlds, SnapshotFrames} from './frames.js';
import {fullTreeSnapshot} from './fullTree.js';
import {PrintedNodeIds} from './printedIds.js';
import type {SnapNode} from './types.js';

/**
 * The one place that decides how a snapshot is made. Both ways give
 * exactly what the reference prints (Chrome's accessibility tree through
 * Puppeteer's filter), with the same uids; they differ in cost only.
 *
 * - The full tree (fullTree.ts): Accessibility.getFullAXTree per frame, as
 *   the reference does. One call, but Chrome serializes every AX node
 *   (~0.04 ms each on an idle machine: 1.4 s at 5000 buttons, no faster warm).
 *   Verbose snapshots print every node, so they are always the full tree.
 * - The walk (fastTree.ts): the page walks itself and answers where its
 *   answer is provably Chrome's (rules.ts), Chrome answers the rest node by
 *   node or subtree by subtree (pipelined getPartialAXTree/getChildAXNodes).
 *   A few round trips and one Chrome call per placeholder, whatever the
 *   page's size: much faster on big documents, slower on small ones.
 *
 * Measured (docs in the README): asking Chrome about every printed node costs
 * 0.2-0.5 ms per node even pipelined, and Element.computedRole/computedName
 * rebuild the AX tree on every call (~0.8 s each at 5000 buttons), so
 * neither replaces the walk. The choice per frame is by size: documents of
 * more than FAST_MIN_NODES AX nodes (as the previous snapshot of the frame
 * counted them, or a DOM count for a frame seen for the first time) are
 * walked, smaller ones read whole, and so are frames whose last walk had to
 * ask Chrome about a large share of their nodes. A frame the walk fails in
 * falls back to the full tree.
 *
 * CDP_MCP_SNAPSHOT_ENGINE=ax forces the full tree, =fast the walk (for
 * troubleshooting and tests of each path).
 */
const FAST_MIN_NODES = 3_000;
/** Once walked, a frame goes back to the full tree only when clearly smaller (no flapping near the line). */
const FULL_BELOW_NODES = FAST_MIN_NODES / 2;
/**
 * A walk that had to ask Chrome about more than one node in eight (a page of
 * form controls, say) costs more than the full tree: such a frame is read
 * whole next time. (One pipelined question costs Chrome about as much as
 * serializing three AX nodes; the walk visits about two per AX node.)
 */
const ASKED_PER_NODE_LIMIT = 8;
/** Snapshots read whole after such a walk before the walk is tried again (the page may have changed). */
const RETRY_WALK_AFTER = 5;

type Path = 'full' | 'fast';

/** What the engine keeps per page between snapshots. */
export class SnapshotEnv {
  readonly worlds = new IsolatedWorlds();
  readonly printed = new PrintedNodeIds();
  /** Per frame: the size of its document at the last snapshot, and the path taken. */
  readonly sizes = new Map<string, {nodes: number; path: Path; fullSince?: number}>();
}

function forced(): Path | undefined {
  const value = process.env['CDP_MCP_SNAPSHOT_ENGINE'];
  return value === 'ax' ? 'full' : value === 'fast' ? 'fast' : undefined;
}

/** A DOM count for a frame never snapshotted before (one cheap evaluation in its main world). */
async function probeSize(page: Page, place: FramePlace): Promise<number> {
  const contextId =
    place.session === page.session && place.frameId === page.mainFrameId
      ? undefined
      : page.frames.contextOf(place.session, place.frameId);
  const response = await place.session.trySend('Runtime.evaluate', {
    expression: "document.getElementsByTagName('*').length",
    returnByValue: true,
    ...(contextId !== undefined ? {contextId} : {}),
  });
  const elements: unknown = response?.result.value;
  // About two AX nodes per element (its text and line boxes).
  return typeof elements === 'number' ? elements * 2 : 0;
}

async function choosePath(page: Page, env: SnapshotEnv, place: FramePlace): Promise<Path> {
  const force = forced();
  if (force) {
    return force;
  }
  const last = env.sizes.get(place.key);
  if (last) {
    if ((last.fullSince ?? RETRY_WALK_AFTER) < RETRY_WALK_AFTER) {
      return 'full';
    }
    return last.nodes >= (last.path === 'fast' ? FULL_BELOW_NODES : FAST_MIN_NODES) ? 'fast' : 'full';
  }
  return (await probeSize(page, place)) >= FAST_MIN_NODES ? 'fast' : 'full';
}

/** Takes the tree of a page's snapshot (main frame and every frame inside it). */
export async function captureTree(page: Page, verbose: boolean, env: SnapshotEnv): Promise<SnapNode> {
  const frames = new SnapshotFrames(page);
  const visited = new Set<string>();
  const full = (place: FramePlace, depth: number): Promise<SnapNode | undefined> =>
    fullTreeSnapshot(place, frames, !verbose, depth, full).then(r => r.root);
  const ctx: FastContext = {
    frames,
    worlds: env.worlds,
    printed: env.printed,
    frameSnapshot: (place, depth) => frameSnapshot(place, depth),
  };
  const frameSnapshot = async (place: FramePlace, depth: number): Promise<SnapNode | undefined> => {
    visited.add(place.key);
    const path = await choosePath(page, env, place);
    if (path === 'fast') {
      try {
        const walked = await fastTreeSnapshot(place, ctx, depth);
        if (walked !== 'full') {
          const costly = walked.asked * ASKED_PER_NODE_LIMIT > walked.nodes;
          env.sizes.set(place.key, {nodes: walked.nodes, path, ...(costly ? {fullSince: 0} : {})});
          return walked.root;
        }
      } catch (error) {
        if (!/context|Could not read the page content|gone/i.test(errorMessage(error))) {
          throw error;
        }
        debug('walk failed, using the full AX tree for the frame', errorMessage(error));
      }
    }
    const {root, nodes} = await fullTreeSnapshot(place, frames, true, depth, frameSnapshot);
    const since = env.sizes.get(place.key)?.fullSince;
    env.sizes.set(place.key, {nodes, path: 'full', ...(since !== undefined ? {fullSince: since + 1} : {})});
    return root;
  };
  const root = verbose ? await full(frames.mainPlace(), 0) : await frameSnapshot(frames.mainPlace(), 0);
  if (!verbose) {
    for (const key of env.sizes.keys()) {
      if (!visited.has(key)) {
        env.sizes.delete(key);
      }
    }
    env.worlds.retain(visited);
    env.printed.retain(visited);
  }
  if (!root) {
    throw new Error('Failed to create accessibility snapshot');
  }
  return root;
}
