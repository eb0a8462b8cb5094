/**
 * Whether the snapshot cache (axCache.ts) checks a frame, which it must do
 * before a read for the tree to be kept: a matter of cost only, as a frame
 * not checked is read whole, which is always exact. The check costs two
 * round trips to the page (about 1 ms on an idle 2-core machine) and is
 * wasted whenever the page changed since, as it has after most actions; a
 * hit saves the whole read (0.02-0.05 ms a node, and a round trip). So a
 * frame is checked when its reads cost at least CHECK_PAYS_AT times its
 * checks (a hit every other snapshot pays for it), or, before a check was
 * measured, when a read took FIRST_CHECK_MS or more. Frames of
 * MIN_KEPT_NODES nodes or more are always checked, frames under
 * MIN_CHECKED_NODES never (Chrome reads them in about the time of a check;
 * a slow read there says the machine is busy, not that the frame is
 * costly, and each check would add two round trips). The first read and the
 * first check of a document are not measured: Chrome builds the document's
 * accessibility objects on its first read, and our first check makes its
 * isolated world and installs the watch. A check keeps the cheapest time
 * measured in the document: a check costs about the same every time, and
 * one slow one (a busy machine) would otherwise stop the checks for good.
 */
export const MIN_KEPT_NODES = 300;
export const MIN_CHECKED_NODES = 100;
export const FIRST_CHECK_MS = 3;
export const CHECK_PAYS_AT = 2;

/** What the cache knows about one frame's costs in its current document. */
export interface FrameCosts {
  /** The document these figures are of (the latest read's or check's). */
  loaderId: string;
  /** Nodes of the latest read. */
  nodes: number;
  /** Wall time of the latest read, from the document's second read on. */
  readMs?: number;
  /** The cheapest check in the document, its first left out. */
  checkMs?: number;
  /** Reads and checks made in the document. */
  reads: number;
  checks: number;
  /** The watch cannot vouch for the document (a defined custom element stays defined): never checked. */
  refused: boolean;
}

/** Whether checking the frame likely costs less than it saves. */
export function worthChecking(costs: FrameCosts | undefined): boolean {
  if (!costs || costs.refused) {
    return false;
  }
  if (costs.nodes >= MIN_KEPT_NODES) {
    return true;
  }
  if (costs.nodes < MIN_CHECKED_NODES || costs.readMs === undefined) {
    return false;
  }
  return costs.checkMs === undefined ? costs.readMs >= FIRST_CHECK_MS : costs.readMs >= CHECK_PAYS_AT * costs.checkMs;
}

const fresh = (loaderId: string, nodes = 0): FrameCosts => ({loaderId, nodes, reads: 0, checks: 0, refused: false});

/** The costs after a full read of `nodes` nodes that took `ms`. */
export function afterRead(
  costs: FrameCosts | undefined,
  read: {loaderId: string; nodes: number; ms: number},
): FrameCosts {
  const same = costs?.loaderId === read.loaderId ? costs : fresh(read.loaderId);
  return {...same, nodes: read.nodes, readMs: same.reads > 0 ? read.ms : undefined, reads: same.reads + 1};
}

/** The costs after a check that took `ms`; `refused`: the watch cannot vouch for the document. */
export function afterCheck(
  costs: FrameCosts | undefined,
  check: {loaderId: string; ms: number; refused: boolean},
): FrameCosts {
  const same = costs?.loaderId === check.loaderId ? costs : fresh(check.loaderId, costs?.nodes);
  return {
    ...same,
    checkMs: same.checks > 0 ? Math.min(same.checkMs ?? Infinity, check.ms) : undefined,
    checks: same.checks + 1,
    refused: same.refused || check.refused,
  };
}
