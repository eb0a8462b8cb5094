/**
 * Chrome's hit test asked ahead: an element of the page's own process that
 * was acted on before is hit-tested at its last point in the same batch as
 * the first look at it, after the questions of where it is now (a session
 * handles commands in order, so the hit test is no older than the box). When
 * the look finds that nothing moved it (no animation, no scroll) and the box
 * and the page's scroll are where they were, that answer is the hit test of
 * the located point, one wait on the page sooner; else it is asked again.
 */
import type {ResolvedElement} from '../browser/core/Page.js';
import {type Located, nodeAt, type Point} from './hitTarget.js';

/** A hit test sent ahead, at `local` with the frame's document scrolled by `scroll`. */
export interface HitAhead {
  local: Point;
  scroll: Point;
  node: Promise<number | undefined>;
}

/** Elements remembered (their objects are kept per node and document: PageSnapshot.resolve). */
const MAX_REMEMBERED = 64;
const lastPoints = new Map<string, {local: Point; scroll: Point}>();

const keyOf = (element: ResolvedElement) => `${element.session.id}/${element.objectId}`;
const same = (a: Point, b: Point) => a.x === b.x && a.y === b.y;

/** Sends the hit test at the element's last point, if it has one. */
export function askHitAhead(element: ResolvedElement): HitAhead | undefined {
  const last = lastPoints.get(keyOf(element));
  if (!last) {
    return undefined;
  }
  const node = nodeAt(element.session, last.local, last.scroll).catch(() => undefined);
  return {...last, node};
}

/** Remembers where an element of the page's own process was hit-tested. */
export function rememberPoint(element: ResolvedElement, located: Located): void {
  if (located.chain.length > 0) {
    return;
  }
  const key = keyOf(element);
  lastPoints.delete(key);
  lastPoints.set(key, {local: located.local, scroll: located.scroll});
  if (lastPoints.size > MAX_REMEMBERED) {
    const oldest = lastPoints.keys().next().value;
    if (oldest !== undefined) {
      lastPoints.delete(oldest);
    }
  }
}

/** The hit test sent ahead when it was asked at the located point (else undefined: ask now). */
export function hitAheadAt(ahead: HitAhead | undefined, located: Located): Promise<number | undefined> | undefined {
  return ahead && located.chain.length === 0 && same(ahead.local, located.local) && same(ahead.scroll, located.scroll)
    ? ahead.node
    : undefined;
}
