import type {Page} from '../browser/core/Page.js';
import {errorMessage, following, throwIfCancelled} from '../util/async.js';
import {debug} from '../util/logger.js';
import {AxTreeCache} from './axCache.js';
import {type FastContext, fastTreeSnapshot} from './fastTree.js';
import {type FramePlace, IsolatedWorlds, SnapshotFrames} from './frames.js';
import {fullTreeSnapshot} from './fullTree.js';
import {PrintedNodeIds} from './printedIds.js';
import {isMainFrame, probeSize} from './sizeProbe.js';
import {signature} from './treeCompare.js';
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
 * Measured (docs/internals.md): asking Chrome about every printed node costs
 * 0.2-0.5 ms per node even pipelined, and Element.computedRole/computedName
 * rebuild the AX tree on every call (~0.8 s each at 5000 buttons), so
 * neither replaces the walk. Which one is cheaper depends on the page more
 * than on its size: on real apps (the corpus) the walk has to ask Chrome
 * about one node in two to four and loses at every size measured, on a long
 * list of plain controls it wins from a few hundred nodes. So the choice per
 * frame is measured:
 * - A frame seen for the first time is walked when a DOM count says it is
 *   big (FAST_MIN_NODES), else read whole.
 * - A frame read whole with TRY_WALK_NODES nodes or more is walked once, and
 *   one walked first is read whole once its walk proved costly: from then on
 *   both costs are known and the cheaper path is taken, each frame's own time
 *   (the frames inside it excluded).
 * - The slower path is measured again after RETRY_SLOWER_AFTER times the
 *   ratio it lost by, twice as late each time it loses again: the page may
 *   have changed.
 * - That first walk of a document read whole is checked against the full
 *   tree in the same snapshot (which prints the full tree): a document whose
 *   walk differs (a closed shadow root on a built-in element) is never walked.
 * A frame the walk fails in falls back to the full tree.
 *
 * CDP_MCP_SNAPSHOT_ENGINE=ax forces the full tree, =fast the walk (for
 * troubleshooting and tests of each path).
 */
const FAST_MIN_NODES = 3_000;
/**
 * A frame whose full tree has at least this many AX nodes may be cheaper to
 * walk (a long list of plain links or buttons): the walk is measured there
 * once, and from then on the faster of the two measured paths is taken.
 * Below it the full tree costs a few milliseconds and is always taken.
 */
const TRY_WALK_NODES = 400;
/**
 * A walk that had to ask Chrome about more than one node in eight (a page of
 * form controls, say) likely costs more than the full tree: such a frame is
 * read whole next time, to measure that. (One pipelined question costs Chrome about as much as
 * serializing three AX nodes; the walk visits about two per AX node.)
 */
const ASKED_PER_NODE_LIMIT = 8;
/**
 * Snapshots on the faster path before the slower one is measured again (the
 * page may have changed): this many times the ratio by which it lost, so a
 * trial never costs more than about a fifth of the time it could save, and
 * twice as many each time it loses again.
 */
const RETRY_SLOWER_AFTER = 5;
const RETRY_SLOWER_MAX = 200;

type Path = 'full' | 'fast';

/** What the engine knows about one frame's document from its earlier snapshots. */
interface FrameHistory {
  /** The document measured (a new one starts over); undefined where it is not known (inner frames). */
  document: string | undefined;
  /** AX nodes at the last snapshot, as the path taken counted them (the walk counts fewer). */
  nodes: number;
  /** Last measured time of each path on this frame, its own frames excluded (ms). */
  ms: Partial<Record<Path, number>>;
  /** The last walk had to ask Chrome about too many nodes. */
  costlyWalk: boolean;
  /** The walk printed something else than the full tree for this document (a closed shadow root on a built-in element): never walk it again. */
  walkInexact: boolean;
  /** Snapshots since the slower path was last measured, and how many to wait before measuring it again. */
  sinceTrial: number;
  retryAfter: number;
}

/** What the engine keeps per page between snapshots. */
export class SnapshotEnv {
  readonly worlds = new IsolatedWorlds();
  readonly printed = new PrintedNodeIds();
  /** Per frame: what its earlier snapshots cost, by path. */
  readonly frames = new Map<string, FrameHistory>();
  /** Per frame: its last full tree, given again while nothing changed (axCache.ts). */
  readonly axCache = new AxTreeCache();
}

function forced(): Path | undefined {
  const value = process.env['CDP_MCP_SNAPSHOT_ENGINE'];
  return value === 'ax' ? 'full' : value === 'fast' ? 'fast' : undefined;
}

const other = (path: Path): Path => (path === 'full' ? 'fast' : 'full');

/** The path a frame with this history should take now. */
export function nextPath(last: FrameHistory): Path {
  if (last.walkInexact) {
    return 'full';
  }
  const {full, fast} = last.ms;
  if (full !== undefined && fast !== undefined) {
    const faster: Path = fast < full ? 'fast' : 'full';
    // The costs of a page change with it: measure the slower path again now and then.
    return last.sinceTrial >= last.retryAfter ? other(faster) : faster;
  }
  if (fast === undefined) {
    // Only read whole so far: worth a walk when the tree is big.
    return last.nodes >= TRY_WALK_NODES ? 'fast' : 'full';
  }
  // Only walked so far (a big frame the first time): measure the full tree once the walk proved costly or the frame shrank.
  return last.costlyWalk || last.nodes < FAST_MIN_NODES / 2 ? 'full' : 'fast';
}

/** The history after a snapshot of `document` on `path` that took `ms`. */
export function recordPath(
  last: FrameHistory | undefined,
  snapshot: {
    document: string | undefined;
    path: Path;
    ms: number;
    nodes: number;
    costlyWalk: boolean;
  },
): FrameHistory {
  const {document, path, ms, nodes, costlyWalk} = snapshot;
  const same = last !== undefined && last.document === document ? last : undefined;
  const previous = same?.ms ?? {};
  const before = previous[path];
  const otherMs = previous[other(path)];
  let sinceTrial = same?.sinceTrial ?? 0;
  let retryAfter = same?.retryAfter ?? RETRY_SLOWER_AFTER;
  if (otherMs === undefined) {
    sinceTrial = 0;
  } else if (before === undefined || before > otherMs) {
    // A trial: this path measured for the first time, or again after it lost. The loser waits
    // in proportion to how much it lost by, and twice as long as before when it lost again.
    const loss = Math.max(ms, otherMs) / Math.max(Math.min(ms, otherMs), 0.1);
    const lostAgain = before !== undefined && ms >= otherMs;
    retryAfter =
      before === undefined && ms >= otherMs
        ? // A first measurement carries one-time costs (the walk's script and world for a new
          // document): one more sample, on the next snapshot, before the loss counts.
          0
        : Math.min(RETRY_SLOWER_MAX, Math.max(Math.ceil(RETRY_SLOWER_AFTER * loss), lostAgain ? retryAfter * 2 : 0));
    sinceTrial = 0;
  } else {
    sinceTrial++;
  }
  return {
    document,
    nodes,
    ms: {...previous, [path]: ms},
    costlyWalk: path === 'fast' ? costlyWalk : (same?.costlyWalk ?? false),
    walkInexact: same?.walkInexact ?? false,
    sinceTrial,
    retryAfter,
  };
}

/** The main frame's current document (its loaderId); inner frames keep their history across documents. */
function documentOf(page: Page, place: FramePlace): string | undefined {
  return isMainFrame(page, place) ? page.loaderId : undefined;
}

async function choosePath(page: Page, env: SnapshotEnv, place: FramePlace, signal: AbortSignal): Promise<Path> {
  const force = forced();
  if (force) {
    return force;
  }
  const last = env.frames.get(place.key);
  if (last && last.document === documentOf(page, place)) {
    return nextPath(last);
  }
  return (await probeSize(page, place, env.worlds, signal)) >= FAST_MIN_NODES ? 'fast' : 'full';
}

/**
 * Takes the tree of a page's snapshot (main frame and every frame inside it).
 * Every CDP request of it carries one signal, which aborts when `signal` (the
 * call's: cancelled, or its caller gave up on it) does, or when the snapshot
 * fails (a request ran out of time on a page that does not answer): from then
 * on none of its requests is sent, those in flight are dropped (their late
 * answers ignored), and its remote objects are released.
 */
export async function captureTree(
  page: Page,
  verbose: boolean,
  env: SnapshotEnv,
  signal?: AbortSignal,
): Promise<SnapNode> {
  const {stop, unfollow} = following(signal);
  try {
    const capture = new Capture(page, env, stop.signal);
    const main = capture.frames.mainPlace();
    const root = verbose ? await capture.verbose(main, 0) : await capture.frame(main, 0);
    throwIfCancelled(stop.signal);
    if (!verbose) {
      capture.forgetUnvisited();
    }
    if (!root) {
      throw new Error('Failed to create accessibility snapshot');
    }
    return root;
  } catch (error) {
    // Its other frames and pipelined questions may still be waiting for the page: drop them.
    stop.abort();
    debug(`snapshot of page ${page.id} stopped: ${errorMessage(error)}`);
    throw error;
  } finally {
    unfollow();
  }
}

/**
 * One snapshot of a page: each frame read by the path its history picks
 * (walked, checked once against the full tree, or read whole), its cost
 * recorded; what it did not visit is forgotten after.
 */
class Capture {
  readonly frames: SnapshotFrames;
  readonly #visited = new Set<string>();

  constructor(
    readonly page: Page,
    readonly env: SnapshotEnv,
    readonly signal: AbortSignal,
  ) {
    this.frames = new SnapshotFrames(page, signal);
  }

  /** A verbose snapshot: every frame's full tree (kept or read again), every node in it. */
  readonly verbose = async (place: FramePlace, depth: number): Promise<SnapNode | undefined> => {
    const cached = await this.env.axCache.check(place, this.frames, this.env.worlds);
    return (await fullTreeSnapshot(place, this.frames, false, depth, this.verbose, cached.read)).root;
  };

  /** A frame's tree (its frames' inside), walked or read whole as its history says. */
  readonly frame = async (place: FramePlace, depth: number): Promise<SnapNode | undefined> => {
    const {page, env} = this;
    this.#visited.add(place.key);
    const path = await choosePath(page, env, place, this.signal);
    // Checked before any read: a change after the check is seen by the next snapshot's.
    const cached = await env.axCache.check(place, this.frames, env.worlds, path === 'full');
    if (cached.kept) {
      // Nothing changed since the tree was read: no path is measured.
      return (await fullTreeSnapshot(place, this.frames, true, depth, this.frame, cached.read)).root;
    }
    const history = env.frames.get(place.key);
    // The first walk of a document so far read whole is checked against the full tree once:
    // the walk cannot see into a closed shadow root on a built-in element, Chrome can.
    const check =
      path === 'fast' &&
      !forced() &&
      history?.document === documentOf(page, place) &&
      history?.ms.full !== undefined &&
      history.ms.fast === undefined;
    const timing = new FrameTiming(this.frame);
    if (path === 'fast') {
      const walked = await this.#walk(place, depth, timing, check);
      if (walked) {
        return walked.root;
      }
    }
    const {root, nodes} = await fullTreeSnapshot(place, this.frames, true, depth, timing.inner, cached.read);
    debug(
      `snapshot of frame ${place.frameId}: full tree of ${nodes} nodes, ${this.#record(place, timing, 'full', nodes, false)} ms`,
    );
    return root;
  };

  /** The walk of a frame (checked when asked); undefined when the frame is to be read whole after all. */
  async #walk(
    place: FramePlace,
    depth: number,
    timing: FrameTiming,
    check: boolean,
  ): Promise<{root: SnapNode | undefined} | undefined> {
    const ctx: FastContext = {
      frames: this.frames,
      worlds: this.env.worlds,
      printed: this.env.printed,
      frameSnapshot: timing.inner,
    };
    try {
      const walked = await fastTreeSnapshot(place, ctx, depth);
      if (walked === 'full') {
        return undefined;
      }
      const costly = walked.asked * ASKED_PER_NODE_LIMIT > walked.nodes;
      const own = this.#record(place, timing, 'fast', walked.nodes, costly);
      debug(
        `snapshot of frame ${place.frameId}: walked ${walked.nodes} nodes, asked Chrome about ${walked.asked}, ${own} ms`,
      );
      return {root: check ? await this.#checked(place, depth, walked.root, timing) : walked.root};
    } catch (error) {
      if (!/context|Could not read the page content|gone/i.test(errorMessage(error))) {
        throw error;
      }
      debug('walk failed, using the full AX tree for the frame', errorMessage(error));
      return undefined;
    }
  }

  /** The full tree of a frame just walked (its frames as taken): a walk that differs is never taken again. */
  async #checked(
    place: FramePlace,
    depth: number,
    walked: SnapNode | undefined,
    timing: FrameTiming,
  ): Promise<SnapNode | undefined> {
    const whole = await fullTreeSnapshot(
      place,
      this.frames,
      true,
      depth,
      (child, childDepth) => timing.taken.get(child.key) ?? this.frame(child, childDepth),
    );
    if (signature(whole.root) !== signature(walked)) {
      debug(`snapshot of frame ${place.frameId}: the walk differs from the full tree; reading it whole from now on`);
      const entry = this.env.frames.get(place.key);
      if (entry) {
        entry.walkInexact = true;
      }
    }
    return whole.root;
  }

  /** Records the frame's own cost on `path` in its history; the milliseconds, for the log. */
  #record(place: FramePlace, timing: FrameTiming, path: Path, nodes: number, costlyWalk: boolean): string {
    const own = timing.own();
    const snapshot = {document: documentOf(this.page, place), path, ms: own, nodes, costlyWalk};
    this.env.frames.set(place.key, recordPath(this.env.frames.get(place.key), snapshot));
    return own.toFixed(1);
  }

  /** Forgets the frames this snapshot did not visit (gone, or no longer inside the page). */
  forgetUnvisited(): void {
    const {env} = this;
    for (const key of env.frames.keys()) {
      if (!this.#visited.has(key)) {
        env.frames.delete(key);
      }
    }
    env.worlds.retain(this.#visited);
    env.printed.retain(this.#visited);
    env.axCache.retain(this.#visited);
  }
}

/**
 * The cost of one frame's own tree. The frames inside are taken in parallel
 * once the frame's own tree is read: the span from the first start to the
 * last end is theirs, the rest is this frame's. Keeps the inner frames as
 * taken: a check's full tree reuses them instead of taking them again.
 */
class FrameTiming {
  readonly #started = performance.now();
  #innerStart = Infinity;
  #innerEnd = -Infinity;
  readonly taken = new Map<string, Promise<SnapNode | undefined>>();

  constructor(readonly take: (place: FramePlace, depth: number) => Promise<SnapNode | undefined>) {}

  /** Takes a frame inside, timed. */
  readonly inner = async (child: FramePlace, depth: number): Promise<SnapNode | undefined> => {
    this.#innerStart = Math.min(this.#innerStart, performance.now());
    const result = this.take(child, depth);
    this.taken.set(child.key, result);
    try {
      return await result;
    } finally {
      this.#innerEnd = Math.max(this.#innerEnd, performance.now());
    }
  };

  /** Milliseconds since the frame began, less its inner frames' span. */
  own(): number {
    return performance.now() - this.#started - Math.max(0, this.#innerEnd - this.#innerStart);
  }
}
