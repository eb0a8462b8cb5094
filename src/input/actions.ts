import type {CdpParams} from '../../protocol/index.js';
import {type Page, type ResolvedElement, staleElementError} from '../browser/core/Page.js';
import {cpuMultiplier} from '../browser/core/settle.js';
import {exceptionMessage} from '../browser/script/exceptions.js';
import {errorMessage, sleep, TimeoutError, withTimeout} from '../util/async.js';
import {debug} from '../util/logger.js';
import {coveringElement, locate, type Located, type Point, scrollFramesToPoint} from './hitTarget.js';
import {type KeyDefinition, KEYS, MODIFIER_BITS} from './keys.js';

export type {Point} from './hitTarget.js';

/** How long an element may take to become actionable (scaled by CPU throttling, as the reference). */
export const ACTION_TIMEOUT_MS = 5_000;
/** Bound of one actionability check (it waits for an animation frame). */
const FRAME_WAIT_MS = 250;
/** Pause between actionability checks. */
const RETRY_MS = 50;
/** A disabled element is given this long to become enabled before we refuse it. */
const DISABLED_GRACE_MS = 500;

/** Why an element cannot be acted on yet. */
type Blocker = 'detached' | 'moved' | 'disabled' | 'hidden' | 'moving';

/**
 * Runs in the page on the element: scrolls it into view when it is outside
 * the viewport and reports whether it is ready (connected, enabled, with a
 * box that did not move across an animation frame). An element the in-page
 * snapshot walk found (`walked`) that is now inside a closed shadow root has
 * moved where no snapshot of ours could have seen it.
 */
const CHECK_ELEMENT = `function(checkEnabled, settle, centre, walked) {
  const el = this;
  if (!el.isConnected) return 'detached';
  if (walked) {
    for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
      if (root.mode === 'closed') return 'moved';
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
 * `hitTest` (pointer actions; fill focuses by script and skips it), Chrome's hit test at the point must find the element at every
 * level before we dispatch; else we scroll it to the centre once and then
 * report the element on top. Disabled elements are refused quickly.
 */
export async function actionPoint(
  page: Page,
  element: ResolvedElement,
  uid: string,
  checkEnabled: boolean,
  options: {hitTest?: boolean} = {},
): Promise<Point> {
  try {
    return await waitForActionPoint(page, element, uid, checkEnabled, options);
  } catch (error) {
    // The frame navigated or was removed while we waited: the element is gone, never act at its old place.
    throw isContextLoss(error) ? staleElementError(uid, error) : error;
  }
}

async function waitForActionPoint(
  page: Page,
  element: ResolvedElement,
  uid: string,
  checkEnabled: boolean,
  {hitTest = true}: {hitTest?: boolean},
): Promise<Point> {
  const started = Date.now();
  const deadline = started + ACTION_TIMEOUT_MS * cpuMultiplier(page);
  let blocker: Blocker | 'no box' | 'out of view' | 'covered' | 'ok';
  let coveredBy = '';
  /** After we scrolled, the next check waits a frame for the box to settle. */
  let settle = false;
  let centre = false;
  let scrolls = 0;
  let centredForCover = false;
  for (;;) {
    const check = element.session.send('Runtime.callFunctionOn', {
      objectId: element.objectId,
      functionDeclaration: CHECK_ELEMENT,
      // Elements of the in-page walk come without a backend node id (AX-tree ones have one).
      arguments: [
        {value: checkEnabled},
        {value: settle},
        {value: centre},
        {value: element.backendNodeId === undefined},
      ],
      awaitPromise: true,
      returnByValue: true,
    });
    // Where it is, asked at the same time: valid when the check finds that nothing moved it.
    const speculative = settle || centre ? undefined : locateOrLose(page, element);
    speculative?.catch(() => undefined);
    settle = false;
    centre = false;
    // A page that does not paint (hidden tab) never runs the frame callback.
    const answer = await withTimeout(check, FRAME_WAIT_MS, 'no frame').catch(error => {
      if (error instanceof TimeoutError) {
        check.catch(() => undefined);
        return undefined;
      }
      throw error;
    });
    const verdict = !answer
      ? 'moving'
      : answer.exceptionDetails
        ? 'detached'
        : (answer.result.value as Blocker | 'ok' | 'ready');
    blocker = verdict === 'ready' ? 'ok' : verdict;
    let retryNow = false;
    if (blocker === 'ok') {
      const located = await (verdict === 'ready' && speculative ? speculative : locateOrLose(page, element));
      if (!located) {
        blocker = 'no box';
      } else if (!located.inView) {
        // Outside the viewport of its frame or of a frame above it (an iframe below the fold):
        // Chrome scrolls every scroller on the way up, across processes; our own frame walk is the fallback.
        blocker = 'out of view';
        if (scrolls++ % 2 === 0) {
          await element.session.trySend('DOM.scrollIntoViewIfNeeded', {objectId: element.objectId});
        } else {
          await scrollFramesToPoint(located);
        }
        settle = true;
        retryNow = scrolls <= 2;
      } else {
        const covered = !hitTest
          ? undefined
          : await coveringElement(element, located).catch((error: unknown) => {
              debug('hit test failed', errorMessage(error));
              return undefined;
            });
        if (covered === undefined) {
          if (located.chain.length === 0 || (await framesCaughtUp(page, element, located))) {
            return located.point;
          }
          // It moved while the frames drew: look again.
          blocker = 'moving';
          retryNow = true;
        } else {
          blocker = 'covered';
          coveredBy = covered;
        }
        if (blocker === 'covered' && !centredForCover) {
          // A sticky header or a banner may cover it where it is: try it in the middle of its frame once.
          centredForCover = true;
          centre = true;
          retryNow = true;
        }
      }
    }
    if (blocker === 'detached') {
      throw staleElementError(uid);
    }
    if (blocker === 'moved') {
      throw new Error(
        `Element with uid ${uid} moved into a closed shadow root after the snapshot, so it is not the element the snapshot showed. Take a new snapshot to get current uids.`,
      );
    }
    if (blocker === 'disabled' && Date.now() - started >= DISABLED_GRACE_MS) {
      throw new Error(
        `Element with uid ${uid} is disabled, so it cannot be used. Wait until the page enables it, or pick another element.`,
      );
    }
    if (Date.now() + RETRY_MS > deadline) {
      if (blocker === 'covered') {
        throw new Error(
          `Element with uid ${uid} is covered by another element, ${coveredBy}, which would get the click instead. Close or dismiss what is on top (a dialog, menu, overlay or banner), or scroll, then take a new snapshot.`,
        );
      }
      throw notInteractive(
        uid,
        blocker === 'moving'
          ? 'it kept moving'
          : blocker === 'out of view'
            ? 'it stays outside the visible area even after scrolling'
            : 'it is not visible',
      );
    }
    if (!retryNow) {
      await sleep(RETRY_MS);
    }
  }
}

/** Resolves after two animation frames of the document it runs in: it has drawn since the call. */
const TWO_FRAMES = 'new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))';

/**
 * For an element inside out-of-process frames: the browser routes input by
 * the frames' last drawn layout, not by what the DOM says now, so after a
 * scroll (ours, or the page's just before the call) the event could go to
 * the frame's parent. Waits (bounded) until every process on the way has drawn
 * a frame, then checks that the element is still at the point.
 */
async function framesCaughtUp(page: Page, element: ResolvedElement, located: Located): Promise<boolean> {
  const sessions = new Set([page.session, element.session, ...located.chain.map(level => level.parent)]);
  await Promise.all(
    [...sessions].map(session =>
      // A page that does not paint (hidden tab) never runs the callback: the bound lets the action go on.
      withTimeout(
        session.send('Runtime.evaluate', {expression: TWO_FRAMES, awaitPromise: true, returnByValue: true}),
        FRAME_WAIT_MS,
        'no frame',
      ).catch(() => undefined),
    ),
  );
  const now = await locateOrLose(page, element);
  return now !== undefined && now.inView && now.point.x === located.point.x && now.point.y === located.point.y;
}

// ---------------------------------------------------------------- mouse

export async function mouseClick(page: Page, point: Point, clickCount: number): Promise<void> {
  const s = page.session;
  const sends: Array<Promise<unknown>> = [
    s.send('Input.dispatchMouseEvent', {type: 'mouseMoved', x: point.x, y: point.y}),
  ];
  for (let i = 1; i <= clickCount; i++) {
    sends.push(
      s.send('Input.dispatchMouseEvent', {
        type: 'mousePressed',
        x: point.x,
        y: point.y,
        button: 'left',
        buttons: 1,
        clickCount: i,
      }),
      s.send('Input.dispatchMouseEvent', {
        type: 'mouseReleased',
        x: point.x,
        y: point.y,
        button: 'left',
        buttons: 0,
        clickCount: i,
      }),
    );
  }
  await Promise.all(sends);
}

export async function mouseMove(page: Page, point: Point, buttons = 0): Promise<void> {
  await page.session.send('Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x: point.x,
    y: point.y,
    buttons,
    ...(buttons ? {button: 'left' as const} : {}),
  });
}

// ---------------------------------------------------------------- keyboard

/** Input.dispatchKeyEvent parameters for pressing (`down`) or releasing (`up`) a key with `modifiers` held. */
function keyEvent(def: KeyDefinition, modifiers: number, phase: 'down' | 'up'): CdpParams<'Input.dispatchKeyEvent'> {
  const shift = (modifiers & (MODIFIER_BITS['Shift'] ?? 8)) !== 0;
  const key = shift && def.shiftKey ? def.shiftKey : def.key;
  let text =
    def.text !== undefined ? (shift && def.shiftKey && def.shiftKey.length === 1 ? def.shiftKey : def.text) : undefined;
  // Text is not typed while a modifier other than Shift is held.
  if (modifiers & ~(MODIFIER_BITS['Shift'] ?? 8)) {
    text = undefined;
  }
  const base = {
    modifiers,
    key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    location: def.location ?? 0,
    isKeypad: def.location === 3,
  };
  if (phase === 'up') {
    return {type: 'keyUp', ...base};
  }
  return {type: text ? 'keyDown' : 'rawKeyDown', ...base, ...(text ? {text, unmodifiedText: text} : {})};
}

/** Presses keys down in order, then releases them in reverse order (also when a press fails). */
export async function pressKeys(page: Page, names: string[]): Promise<void> {
  const s = page.session;
  let modifiers = 0;
  const down: KeyDefinition[] = [];
  try {
    for (const name of names) {
      const def = KEYS.get(name);
      if (!def) {
        throw new Error(`Unknown key: "${name}"`);
      }
      modifiers |= MODIFIER_BITS[def.key] ?? 0;
      down.push(def);
      await s.send('Input.dispatchKeyEvent', keyEvent(def, modifiers, 'down'));
    }
  } finally {
    for (const def of down.reverse()) {
      await s.send('Input.dispatchKeyEvent', keyEvent(def, modifiers, 'up'));
      modifiers &= ~(MODIFIER_BITS[def.key] ?? 0);
    }
  }
}

/**
 * Types text into the focused element: characters of the US layout as key
 * presses (keydown, keypress/input, keyup), anything else (accents, emoji,
 * CJK) inserted as text. Events are pipelined: Chrome handles them in order.
 */
export async function typeText(page: Page, text: string): Promise<void> {
  const s = page.session;
  const sends: Array<Promise<unknown>> = [];
  for (const char of text) {
    const def = KEYS.get(char);
    if (!def) {
      sends.push(s.send('Input.insertText', {text: char}));
      continue;
    }
    sends.push(
      s.send('Input.dispatchKeyEvent', keyEvent(def, 0, 'down')),
      s.send('Input.dispatchKeyEvent', keyEvent(def, 0, 'up')),
    );
  }
  await Promise.all(sends);
}

// ---------------------------------------------------------------- element helpers

/** Calls a function on the element and returns its JSON result; page exceptions become errors. */
export async function callOn<T>(
  element: ResolvedElement,
  functionDeclaration: string,
  args: unknown[] = [],
): Promise<T> {
  const {result, exceptionDetails} = await element.session.send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration,
    arguments: args.map(value => ({value})),
    returnByValue: true,
    awaitPromise: true,
  });
  if (exceptionDetails) {
    throw new Error(exceptionMessage(exceptionDetails));
  }
  return result.value as T;
}

export function describeError(error: unknown): string {
  return errorMessage(error);
}
