/**
 * Where a pointer action may act on an element, and when: the element
 * checked in the page (connected, enabled, visible, not moving), located
 * across frames, scrolled into view in every frame on the way up, and
 * hit-tested at the point (see hitTarget.ts); the wait is bounded and ends
 * with the error that says why the element could not be used.
 */
import {ElementGoneError, type Page, type ResolvedElement, staleElementError} from '../browser/core/Page.js';
import {cpuMultiplier} from '../browser/core/settle.js';
import type {CdpSession} from '../cdp/CdpConnection.js';
import {errorMessage, sleep, TimeoutError, withTimeout} from '../util/async.js';
import {debug} from '../util/logger.js';
import {PageQuoteError} from '../util/pageQuote.js';
import {askHitAhead, type HitAhead, hitAheadAt, rememberPoint} from './hitAhead.js';
import {coveringElement, locate, type Located, type Point, scrollFramesToPoint} from './hitTarget.js';

export type {Point} from './hitTarget.js';

/** How long an element may take to become actionable (scaled by CPU throttling, as the reference). */
export const ACTION_TIMEOUT_MS = 5_000;
/** Bound of one actionability check (it waits for an animation frame). */
const FRAME_WAIT_MS = 250;
/** Pause between actionability checks. */
const RETRY_MS = 50;
/** A disabled element is given this long to become enabled before we refuse it. */
const DISABLED_GRACE_MS = 500;
/**
 * A covered element (after one scroll to the middle of its frame) is given
 * this long to be uncovered (an overlay closing) before we refuse it.
 */
const COVERED_GRACE_MS = 300;

/** Why an element cannot be acted on yet (the last one names the error at the deadline). */
type Blocker =
  'detached' | 'moved' | 'disabled' | 'hidden' | 'moving' | 'no box' | 'out of view' | 'covered' | 'closed root';

/** Where to act, in top-level page coordinates. */
export interface ActionPoint extends Point {
  /**
   * The node on top of the element at that point when it is part of the same
   * control (a select's placeholder, a floating label): it gets the event.
   */
  receivedBy?: string;
}

/**
 * Runs in the page on the element: scrolls it into view when it is outside
 * the viewport and reports whether it is ready (connected, enabled, with a
 * box that did not move across an animation frame). An element the in-page
 * snapshot walk found (`walked`) that is now inside a closed shadow root has
 * moved where no snapshot of ours could have seen it. While the server still
 * checks whether an element of Chrome's tree moved into a closed shadow root
 * (`unchecked`: ResolvedElement.checking), one inside such a root is left
 * as it is (no scroll) until the next look.
 */
const CHECK_ELEMENT = `function(checkEnabled, settle, centre, walked, unchecked) {
  const el = this;
  if (!el.isConnected) return 'detached';
  if (walked || unchecked) {
    for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
      if (root.mode === 'closed') return walked ? 'moved' : 'closed root';
    }
  }
  if (checkEnabled) {
    const native = ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP'].includes(el.nodeName);
    if ((native && el.matches(':disabled')) || el.closest('[aria-disabled="true"]')) return 'disabled';
  }
  const view = el.ownerDocument.defaultView;
  const style = view.getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  if (style.visibility !== 'visible' || (rect.width === 0 && rect.height === 0 && el.getClientRects().length === 0)) return 'hidden';
  let scrolled = settle;
  if (centre || rect.bottom <= 0 || rect.right <= 0 || rect.top >= view.innerHeight || rect.left >= view.innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    scrolled = true;
  }
  // Without animations or a scroll, nothing but script can move the box: skip the frame wait.
  // 'ready': nothing moved it before we answered, so a box read at the same time is current.
  if (!scrolled && el.ownerDocument.getAnimations().length === 0) return 'ready';
  const before = el.getBoundingClientRect();
  return new Promise(resolve => {
    let done = false;
    const check = () => {
      if (done) return;
      done = true;
      const after = el.getBoundingClientRect();
      resolve(after.x === before.x && after.y === before.y && after.width === before.width && after.height === before.height ? 'ok' : 'moving');
    };
    // No page timer here: the settle probe tracks page timers, so a fallback
    // timer would delay every action. The server bounds this wait instead.
    view.requestAnimationFrame(check);
  });
}`;

/** Where the element is (undefined without a box); a lost frame or document is an error. */
function locateOrLose(page: Page, element: ResolvedElement): Promise<Located | undefined> {
  return locate(page, element).catch((error: unknown) => {
    if (isContextLoss(error)) {
      throw error;
    }
    return undefined;
  });
}

/** CDP errors that mean the element's document or frame went away (navigated, reloaded, detached). */
export function isContextLoss(error: unknown): boolean {
  return /Cannot find context|context was destroyed|Execution context|No node|Could not find node|Target closed|target has closed|session.*(closed|detached)|No session|Inspected target navigated|Node is detached|frame.*gone/i.test(
    errorMessage(error),
  );
}

/** The generic failure text of the reference, with our reason appended. */
export function notInteractive(uid: string, reason?: string): Error {
  return new Error(
    `Failed to interact with the element with uid ${uid}. The element did not become interactive within the configured timeout.${reason ? ` (${reason})` : ''}`,
  );
}

/**
 * Waits (bounded) until the element can be acted on and returns the point to
 * act at, in top-level page coordinates: scrolled into view in its own frame
 * and in every frame up to the page (out-of-process iframes included), stable
 * for an animation frame, and (when `checkEnabled`) not disabled. With
 * `hitTest` (pointer actions; fill focuses by script and skips it), Chrome's
 * hit test at the point must find the element at every level before we
 * dispatch, or a part of the element's own control drawn over it (named in
 * `receivedBy`); else we scroll it to the centre once and then report the
 * element on top. Disabled and covered elements are refused quickly; the
 * error says what the element on top would get instead (`gets`).
 */
export async function actionPoint(
  page: Page,
  element: ResolvedElement,
  uid: string,
  checkEnabled: boolean,
  {hitTest = true, gets = 'click'}: {hitTest?: boolean; gets?: string} = {},
): Promise<ActionPoint> {
  try {
    return await waitForActionPoint(page, element, uid, checkEnabled, hitTest, gets);
  } catch (error) {
    // The frame navigated or was removed while we waited: the element is gone, never act at its old place.
    throw isContextLoss(error) ? staleElementError(uid, error) : error;
  }
}

/** What one look at the element found: act at `point`, or look again (at once when `now`). */
type Attempt = {point: ActionPoint} | {blocker: Blocker; now?: boolean};

/** What one action's looks at the element carry from one to the next. */
interface WaitState {
  /** What the element on top would get instead (the click, the pointer, the drop): for the error. */
  readonly gets: string;
  readonly started: number;
  readonly deadline: number;
  /** The next check waits a frame for the box to settle (we just scrolled). */
  settle: boolean;
  /** The next check scrolls the element to the middle of its frame. */
  centre: boolean;
  /** The element's closed-shadow-root check still runs (ResolvedElement.checking): the first look waits for it. */
  checking: Promise<void> | undefined;
  scrolls: number;
  centredForCover: boolean;
  /** The element on top, and since when one was. */
  coveredBy?: string;
  coveredSince?: number;
}

async function waitForActionPoint(
  page: Page,
  element: ResolvedElement,
  uid: string,
  checkEnabled: boolean,
  hitTest: boolean,
  gets: string,
): Promise<ActionPoint> {
  const started = Date.now();
  const state: WaitState = {
    gets,
    started,
    deadline: started + ACTION_TIMEOUT_MS * cpuMultiplier(page),
    settle: false,
    centre: false,
    checking: element.checking,
    scrolls: 0,
    centredForCover: false,
  };
  for (;;) {
    const attempt = await lookOnce(page, element, checkEnabled, hitTest, state);
    if ('point' in attempt) {
      return attempt.point;
    }
    refuseIfHopeless(uid, attempt.blocker, state);
    if (!attempt.now) {
      await sleep(RETRY_MS);
    }
  }
}

/** One look at the element: check it in the page, locate it, scroll it into view, hit-test its point. */
async function lookOnce(
  page: Page,
  element: ResolvedElement,
  checkEnabled: boolean,
  hitTest: boolean,
  state: WaitState,
): Promise<Attempt> {
  const {verdict, located, ahead} = await checkElement(page, element, checkEnabled, hitTest, state);
  if (verdict !== 'ok') {
    // In a closed shadow root it was in at its snapshot (the check waited for says so): look again at once.
    return {blocker: verdict, now: verdict === 'closed root'};
  }
  const where = await located();
  if (!where) {
    return {blocker: 'no box'};
  }
  if (!where.inView) {
    return scrollIntoView(element, where, state);
  }
  return hitTestAt(page, element, where, hitTest, state, ahead);
}

/**
 * Check: runs CHECK_ELEMENT (bounded: a page that does not paint never runs
 * its frame callback) and, at the same time, asks where the element is, and
 * (with `hitTest`, in the page's own process) what is on top at its last
 * point (hitAhead.ts): those answers are current when the check finds that
 * nothing moved the element (`ahead` is given then only).
 */
async function checkElement(
  page: Page,
  element: ResolvedElement,
  checkEnabled: boolean,
  hitTest: boolean,
  state: WaitState,
): Promise<{verdict: Blocker | 'ok'; located: () => Promise<Located | undefined>; ahead?: HitAhead}> {
  const check = element.session.send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: CHECK_ELEMENT,
    // Elements of the in-page walk come without a backend node id (AX-tree ones have one).
    arguments: [
      {value: checkEnabled},
      {value: state.settle},
      {value: state.centre},
      {value: element.backendNodeId === undefined},
      {value: state.checking !== undefined},
    ],
    awaitPromise: true,
    returnByValue: true,
  });
  const checking = state.checking;
  state.checking = undefined;
  const speculative = state.settle || state.centre ? undefined : locateOrLose(page, element);
  speculative?.catch(() => undefined);
  const ahead = speculative && hitTest && element.session === page.session ? askHitAhead(element) : undefined;
  state.settle = false;
  state.centre = false;
  const answer = await withTimeout(check, FRAME_WAIT_MS, 'no frame').catch(error => {
    if (error instanceof TimeoutError) {
      check.catch(() => undefined);
      return undefined;
    }
    throw error;
  });
  // Asked alongside: the element did not move into a closed shadow root (else this throws why).
  await checking;
  const value = !answer
    ? 'moving'
    : answer.exceptionDetails
      ? 'detached'
      : (answer.result.value as Blocker | 'ok' | 'ready');
  return {
    verdict: value === 'ready' ? 'ok' : value,
    located: () => (value === 'ready' && speculative ? speculative : locateOrLose(page, element)),
    ...(value === 'ready' && ahead ? {ahead} : {}),
  };
}

/**
 * Scroll: the point is outside the viewport of its frame or of a frame above
 * it (an iframe below the fold). Chrome scrolls every scroller on the way up,
 * across processes; our own frame walk is the fallback, every other time.
 */
async function scrollIntoView(element: ResolvedElement, located: Located, state: WaitState): Promise<Attempt> {
  if (state.scrolls++ % 2 === 0) {
    await element.session.trySend('DOM.scrollIntoViewIfNeeded', {objectId: element.objectId});
  } else {
    await scrollFramesToPoint(located);
  }
  state.settle = true;
  return {blocker: 'out of view', now: state.scrolls <= 2};
}

/**
 * Hit test: what Chrome finds at the point must be the element, or a part of
 * its own control. A sticky header or a banner may cover it where it is, so
 * a covered element is tried once in the middle of its frame. Across
 * processes, the frames must have drawn the layout we located it in.
 */
async function hitTestAt(
  page: Page,
  element: ResolvedElement,
  located: Located,
  hitTest: boolean,
  state: WaitState,
  ahead: HitAhead | undefined,
): Promise<Attempt> {
  if (hitTest) {
    rememberPoint(element, located);
  }
  const cover = !hitTest
    ? undefined
    : await coveringElement(element, located, hitAheadAt(ahead, located)).catch((error: unknown) => {
        debug('hit test failed', errorMessage(error));
        return undefined;
      });
  if (cover && !cover.sameControl) {
    state.coveredBy = cover.description;
    state.coveredSince ??= Date.now();
    const centre = !state.centredForCover;
    state.centredForCover = true;
    state.centre = centre;
    return {blocker: 'covered', now: centre};
  }
  if (located.chain.length > 0 && !(await framesCaughtUp(page, element, located))) {
    // It moved while the frames drew: look again.
    return {blocker: 'moving', now: true};
  }
  return {point: cover ? {...located.point, receivedBy: cover.description} : located.point};
}

/** Throws when the element cannot become actionable: gone, disabled or covered past their grace, or the deadline. */
function refuseIfHopeless(uid: string, blocker: Blocker, state: WaitState): void {
  if (blocker === 'detached') {
    throw staleElementError(uid);
  }
  if (blocker === 'moved') {
    throw new ElementGoneError(uid, 'moved');
  }
  const now = Date.now();
  if (blocker === 'disabled' && now - state.started >= DISABLED_GRACE_MS) {
    throw new Error(
      `Element with uid ${uid} is disabled, so it cannot be used. Wait until the page enables it, or pick another element.`,
    );
  }
  const coveredTooLong = blocker === 'covered' && now - (state.coveredSince ?? now) >= COVERED_GRACE_MS;
  if (coveredTooLong || (blocker === 'covered' && now + RETRY_MS > state.deadline)) {
    throw new PageQuoteError(
      `Element with uid ${uid} is covered by another element, ${state.coveredBy ?? 'another element'}, which would get the ${state.gets} instead. Close or dismiss what is on top (a dialog, menu, overlay or banner), or scroll, then take a new snapshot.`,
    );
  }
  if (now + RETRY_MS > state.deadline) {
    throw notInteractive(uid, NOT_INTERACTIVE_REASON[blocker] ?? 'it is not visible');
  }
}

/** The reason the generic timeout error gives, by the last blocker. */
const NOT_INTERACTIVE_REASON: Partial<Record<Blocker, string>> = {
  moving: 'it kept moving',
  'out of view': 'it stays outside the visible area even after scrolling',
};

/** Resolves after one or two animation frames of the document it runs in: it has drawn since the call. */
const FRAMES = {
  1: 'new Promise(r => requestAnimationFrame(() => r(true)))',
  2: 'new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))',
} as const;

/**
 * Waits (bounded) until the session's document has drawn `frames` times: it
 * has handled the input sent before. A page that does not paint (a hidden
 * tab) never runs the callback: the bound lets the action go on.
 */
export async function framesDrawn(session: CdpSession, frames: 1 | 2): Promise<void> {
  await withTimeout(
    session.send('Runtime.evaluate', {expression: FRAMES[frames], awaitPromise: true, returnByValue: true}),
    FRAME_WAIT_MS,
    'no frame',
  ).catch(() => undefined);
}

/** Waits (bounded) until the element's document has drawn twice. */
export const pageDrew = (element: ResolvedElement): Promise<void> => framesDrawn(element.session, 2);

/**
 * For an element inside out-of-process frames: the browser routes input by
 * the frames' last drawn layout, not by what the DOM says now, so after a
 * scroll (ours, or the page's just before the call) the event could go to
 * the frame's parent. Waits (bounded) until every process on the way has drawn
 * a frame, then checks that the element is still at the point.
 */
async function framesCaughtUp(page: Page, element: ResolvedElement, located: Located): Promise<boolean> {
  const sessions = new Set([page.session, element.session, ...located.chain.map(level => level.parent)]);
  await Promise.all([...sessions].map(session => framesDrawn(session, 2)));
  const now = await locateOrLose(page, element);
  return now !== undefined && now.inView && now.point.x === located.point.x && now.point.y === located.point.y;
}
