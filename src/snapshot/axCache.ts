import type {Protocol} from '../../protocol/index.js';
import {CancelledError, errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {axWatch} from './axWatch.js';
import {afterCheck, afterRead, type FrameCosts, worthChecking} from './checkCosts.js';
import type {FramePlace, IsolatedWorlds, SnapshotFrames} from './frames.js';
import {printedTree} from './treeCompare.js';
import type {FrameTarget} from './types.js';

type AXNode = Protocol.Accessibility.AXNode;

/** Bound of one frame's full AX tree fetch; Chrome takes over a second on big pages. */
const AX_TREE_TIMEOUT_MS = 120_000;
const WATCH = `(${axWatch.toString()})()`;

/** One frame's full accessibility tree as Chrome gave it, and the frame's document. */
export interface AxTreeRead {
  frame: FrameTarget;
  nodes: AXNode[];
}

/** What the cache decided for one frame in one snapshot. */
export interface CacheCheck {
  /** The tree is the one kept from an earlier snapshot (nothing changed since). */
  kept: boolean;
  /** The frame's tree: the kept one, or a fresh read (then kept for the next snapshot when it can be). */
  read: () => Promise<AxTreeRead>;
}

interface Kept {
  loaderId: string;
  /** The frames inside it and their documents (frames.framesBelow). */
  framesBelow: string;
  /** The session's style and layout counts when the watch was armed, before the read. */
  counts: string;
  nodes: AXNode[];
}

/** Accessibility.getFullAXTree of one frame, with its current document. */
export function readFullTree(place: FramePlace, frames: SnapshotFrames): Promise<AxTreeRead> {
  return frames
    .target(
      place,
      place.session.send(
        'Accessibility.getFullAXTree',
        {frameId: place.frameId},
        {timeout: AX_TREE_TIMEOUT_MS, signal: frames.signal},
      ),
    )
    .then(({frame, result}) => ({frame, nodes: result.nodes}));
}

/**
 * CDP_MCP_SNAPSHOT_CACHE: `off`, every snapshot reads every frame whole;
 * `always`, frames of any size are kept; `verify`, as `always`, and every
 * kept tree is also read again and compared (tests).
 */
export function cacheMode(): 'on' | 'off' | 'always' | 'verify' {
  const value = process.env['CDP_MCP_SNAPSHOT_CACHE'];
  return value === 'off' || value === 'always' || value === 'verify' ? value : 'on';
}

/**
 * Keeps each frame's full accessibility tree between snapshots and gives it
 * again, with one cheap round trip instead of Chrome rebuilding and sending
 * the whole tree, when nothing that can change it changed. The signal, read
 * before the tree, in two round trips:
 * - the in-page watch (axWatch.ts): DOM mutations in the document and its
 *   open shadow roots, form state, focus, the URL; it first brings style and
 *   layout up to date;
 * - then the session's RecalcStyleCount and LayoutCount (Performance.getMetrics):
 *   unchanged means no style or layout work happened since, so nothing that
 *   reaches rendering changed (CSSOM edits, :hover and the like, media and
 *   container queries, animations, fonts, images, closed shadow roots). Any
 *   style or layout work anywhere in the session counts as a change, also
 *   Chrome's own (its first read of a document recomputes some styles, so a
 *   document is read whole twice before its tree is kept);
 * - the frame's document (loaderId) and the frames inside it with theirs.
 * By default only frames where a check likely costs less than it saves are
 * checked and kept (checkCosts.ts); others are read as before, in one round trip.
 * Anything the signal cannot vouch for is a change: a document with a
 * defined custom element (ElementInternals, see axWatch.ts), a watch that
 * failed, counts Chrome did not give. Such frames are read whole every time.
 *
 * Known limit (the in-page walk shares it, docs/internals.md): a closed shadow
 * root on a built-in element (div, span, ...) whose content changes only in
 * attributes no style depends on (say aria-label) changes neither the
 * observed DOM nor the counts.
 */
export class AxTreeCache {
  readonly #kept = new Map<string, Kept>();
  /** Per frame: what its reads and checks cost (whether checking it is worth it, checkCosts.ts). */
  readonly #costs = new Map<string, FrameCosts>();

  /**
   * The frame's tree for this snapshot: the kept one when nothing changed,
   * else a fresh read. `reading`: the snapshot reads the frame's full tree
   * when nothing is kept (not when it walks it): then it is checked only when
   * a tree is kept. Skipping checks loses nothing: the watch and the counts
   * hold every change since the check before the kept read.
   */
  async check(place: FramePlace, frames: SnapshotFrames, worlds: IsolatedWorlds, reading = true): Promise<CacheCheck> {
    const mode = cacheMode();
    const plain = {kept: false, read: () => this.#read(place, frames)};
    if (mode === 'off') {
      return plain;
    }
    if (mode === 'on' && !worthChecking(this.#costs.get(place.key))) {
      this.#kept.delete(place.key);
      return plain;
    }
    if (!reading && !this.#kept.has(place.key)) {
      return plain;
    }
    const {frame, reason, counts, framesBelow} = await this.#timedProbe(place, frames, worlds);
    const kept = this.#kept.get(place.key);
    const why =
      reason ||
      (counts === undefined
        ? 'no counts'
        : !kept || kept.loaderId !== frame.loaderId
          ? 'not kept'
          : kept.framesBelow !== framesBelow
            ? 'frames inside'
            : kept.counts !== counts
              ? 'style or layout'
              : '');
    if (!why && kept) {
      debug(`snapshot of frame ${place.frameId}: reused the kept tree (${kept.nodes.length} nodes)`);
      const nodes = kept.nodes;
      return {
        kept: true,
        read: () => (mode === 'verify' ? this.#verify(place, frames, worlds, nodes) : Promise.resolve({frame, nodes})),
      };
    }
    this.#kept.delete(place.key);
    debug(`snapshot of frame ${place.frameId}: reading the tree (${why})`);
    // A watch that did not arm (a custom element, a failure) says so every time: no use keeping the tree.
    const keep = counts !== undefined && !/^custom element|^unchecked/.test(reason);
    return {
      kept: false,
      read: async () => {
        const fresh = await this.#read(place, frames);
        if (keep && counts !== undefined) {
          this.#kept.set(place.key, {loaderId: fresh.frame.loaderId, framesBelow, counts, nodes: fresh.nodes});
        }
        return fresh;
      },
    };
  }

  /** The probe and the frames inside, its cost recorded. */
  async #timedProbe(
    place: FramePlace,
    frames: SnapshotFrames,
    worlds: IsolatedWorlds,
  ): Promise<{frame: FrameTarget; reason: string; counts: string | undefined; framesBelow: string}> {
    const started = performance.now();
    const [{frame, result}, framesBelow] = await Promise.all([
      frames.target(place, this.#probe(place, frames, worlds)),
      frames.framesBelow(place),
    ]);
    const {reason, counts} = result;
    const check = {
      loaderId: frame.loaderId,
      ms: performance.now() - started,
      refused: reason.startsWith('custom element'),
    };
    this.#costs.set(place.key, afterCheck(this.#costs.get(place.key), check));
    return {frame, reason, counts, framesBelow};
  }

  async #read(place: FramePlace, frames: SnapshotFrames): Promise<AxTreeRead> {
    const started = performance.now();
    const fresh = await readFullTree(place, frames);
    const read = {loaderId: fresh.frame.loaderId, nodes: fresh.nodes.length, ms: performance.now() - started};
    this.#costs.set(place.key, afterRead(this.#costs.get(place.key), read));
    return fresh;
  }

  /** The watch's answer, then the counts; a failure is a change. */
  async #probe(
    place: FramePlace,
    frames: SnapshotFrames,
    worlds: IsolatedWorlds,
  ): Promise<{reason: string; counts: string | undefined}> {
    const {session} = place;
    const options = {timeout: frames.page.bounds.answerMs, signal: frames.signal};
    const once = async (fresh: boolean) => {
      // Its counts are half of the signal.
      await session.enableOnce('Performance.enable', frames.signal);
      const contextId = await worlds.context(place, fresh, options);
      const evaluated = await session.send(
        'Runtime.evaluate',
        {expression: WATCH, returnByValue: true, contextId},
        options,
      );
      if (evaluated.exceptionDetails || typeof evaluated.result.value !== 'string') {
        return {reason: 'unchecked: the watch failed', counts: undefined};
      }
      // Asked only once the watch answered: sent back to back, Chrome may answer the counts before
      // it runs the watch's layout (measured: one time in two), and a change would go uncounted.
      const {metrics: values} = await session.send('Performance.getMetrics', {}, options);
      const count = (name: string) => values.find(m => m.name === name)?.value;
      const style = count('RecalcStyleCount');
      const layout = count('LayoutCount');
      return {
        reason: evaluated.result.value,
        counts: style === undefined || layout === undefined ? undefined : `${style}/${layout}`,
      };
    };
    try {
      return await once(false).catch((error: unknown) => {
        if (error instanceof CancelledError || !/context/i.test(errorMessage(error))) {
          throw error;
        }
        // The document's world went away with a navigation: make one for the new document.
        return once(true);
      });
    } catch (error) {
      if (error instanceof CancelledError) {
        throw error;
      }
      debug('the snapshot cache could not check the frame', errorMessage(error));
      return {reason: 'unchecked', counts: undefined};
    }
  }

  /**
   * Tests (CDP_MCP_SNAPSHOT_CACHE=verify): the frame read again; a fresh tree
   * that prints otherwise than the kept one while the watch still says
   * nothing changed is a cache error, and fails the snapshot.
   */
  async #verify(
    place: FramePlace,
    frames: SnapshotFrames,
    worlds: IsolatedWorlds,
    kept: AXNode[],
  ): Promise<AxTreeRead> {
    const fresh = await readFullTree(place, frames);
    const mismatch = printedTree(kept, fresh.frame) !== printedTree(fresh.nodes, fresh.frame);
    if (mismatch) {
      const again = await this.#probe(place, frames, worlds);
      const entry = this.#kept.get(place.key);
      this.#kept.delete(place.key);
      if (!again.reason && again.counts === entry?.counts) {
        throw new Error(
          `snapshot cache: the kept tree of frame ${place.frameId} differs from a fresh read, though nothing changed`,
        );
      }
      debug(`snapshot cache verify: frame ${place.frameId} changed after its check (${again.reason || 'counts'})`);
    }
    return fresh;
  }

  /** Forgets the frames the latest snapshot did not visit. */
  retain(visited: ReadonlySet<string>): void {
    for (const map of [this.#kept, this.#costs]) {
      for (const key of map.keys()) {
        if (!visited.has(key)) {
          map.delete(key);
        }
      }
    }
  }
}
