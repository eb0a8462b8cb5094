import type {CdpParams} from '../../protocol/index.js';
import {exceptionMessage} from '../browser/exceptions.js';
import {type Page, type ResolvedElement, staleElementError} from '../browser/Page.js';
import {cpuMultiplier} from '../browser/settle.js';
import type {CdpSession} from '../cdp/CdpConnection.js';
import {errorMessage, sleep, TimeoutError, withTimeout} from '../util/async.js';
import {type KeyDefinition, KEYS, MODIFIER_BITS} from './keys.js';

/** How long an element may take to become actionable (scaled by CPU throttling, as the reference). */
export const ACTION_TIMEOUT_MS = 5_000;
/** Bound of one actionability check (it waits for an animation frame). */
const FRAME_WAIT_MS = 250;
/** Pause between actionability checks. */
const RETRY_MS = 50;
/** A disabled element is given this long to become enabled before we refuse it. */
const DISABLED_GRACE_MS = 500;

export interface Point {
  x: number;
  y: number;
}

/** Why an element cannot be acted on yet. */
type Blocker = 'detached' | 'disabled' | 'hidden' | 'moving';

/**
 * Runs in the page on the element: scrolls it into view when it is outside
 * the viewport and reports whether it is ready (connected, enabled, with a
 * box that did not move across an animation frame).
 */
const CHECK_ELEMENT = `function(checkEnabled) {
  const el = this;
  if (!el.isConnected) return 'detached';
  if (checkEnabled) {
    const native = ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP'].includes(el.nodeName);
    if ((native && el.matches(':disabled')) || el.closest('[aria-disabled="true"]')) return 'disabled';
  }
  const view = el.ownerDocument.defaultView;
  const style = view.getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  if (style.visibility !== 'visible' || (rect.width === 0 && rect.height === 0 && el.getClientRects().length === 0)) return 'hidden';
  let scrolled = false;
  if (rect.bottom <= 0 || rect.right <= 0 || rect.top >= view.innerHeight || rect.left >= view.innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    scrolled = true;
  }
  // Without animations or a scroll, nothing but script can move the box: skip the frame wait.
  if (!scrolled && el.ownerDocument.getAnimations().length === 0) return 'ok';
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

/** The generic failure text of the reference, with our reason appended. */
export function notInteractive(uid: string, reason?: string): Error {
  return new Error(
    `Failed to interact with the element with uid ${uid}. The element did not become interactive within the configured timeout.${reason ? ` (${reason})` : ''}`,
  );
}

/** Offset of a frame session's viewport inside the top-level page (0,0 for the page itself). */
export async function frameOffset(page: Page, session: CdpSession): Promise<Point> {
  let x = 0;
  let y = 0;
  let current = session;
  for (let depth = 0; current !== page.session && depth < 10; depth++) {
    const entry = page.frames.bySession(current);
    if (!entry) {
      break;
    }
    const {backendNodeId} = await entry.parent.send('DOM.getFrameOwner', {frameId: current.targetId});
    const {model} = await entry.parent.send('DOM.getBoxModel', {backendNodeId});
    x += model.content[0] ?? 0;
    y += model.content[1] ?? 0;
    current = entry.parent;
  }
  return {x, y};
}

/** Centre of the element's first visible content quad, in top-level page coordinates. */
async function clickablePoint(page: Page, element: ResolvedElement): Promise<Point | undefined> {
  const [{quads}, offset] = await Promise.all([
    element.session.send('DOM.getContentQuads', {objectId: element.objectId}),
    element.session === page.session ? Promise.resolve({x: 0, y: 0}) : frameOffset(page, element.session),
  ]);
  for (const quad of quads) {
    const xs = [quad[0], quad[2], quad[4], quad[6]] as number[];
    const ys = [quad[1], quad[3], quad[5], quad[7]] as number[];
    // Shoelace area: skip degenerate quads.
    let area = 0;
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4;
      area += (xs[i] as number) * (ys[j] as number) - (xs[j] as number) * (ys[i] as number);
    }
    if (Math.abs(area) / 2 > 1) {
      return {
        x: xs.reduce((a, b) => a + b, 0) / 4 + offset.x,
        y: ys.reduce((a, b) => a + b, 0) / 4 + offset.y,
      };
    }
  }
  return undefined;
}

/**
 * Waits (bounded) until the element can be acted on and returns the point to
 * act at: scrolled into view, stable for an animation frame, and (when
 * `checkEnabled`) not disabled. Disabled elements are refused quickly with a
 * message that says so.
 */
export async function actionPoint(
  page: Page,
  element: ResolvedElement,
  uid: string,
  checkEnabled: boolean,
): Promise<Point> {
  const started = Date.now();
  const deadline = started + ACTION_TIMEOUT_MS * cpuMultiplier(page);
  let blocker: Blocker | 'no box' | 'ok';
  for (;;) {
    const check = element.session.send('Runtime.callFunctionOn', {
      objectId: element.objectId,
      functionDeclaration: CHECK_ELEMENT,
      arguments: [{value: checkEnabled}],
      awaitPromise: true,
      returnByValue: true,
    });
    // A page that does not paint (hidden tab) never runs the frame callback.
    const answer = await withTimeout(check, FRAME_WAIT_MS, 'no frame').catch(error => {
      if (error instanceof TimeoutError) {
        check.catch(() => undefined);
        return undefined;
      }
      throw error;
    });
    blocker = !answer ? 'moving' : answer.exceptionDetails ? 'detached' : (answer.result.value as Blocker | 'ok');
    if (blocker === 'ok') {
      const point = await clickablePoint(page, element).catch(() => undefined);
      if (point) {
        return point;
      }
      blocker = 'no box';
    }
    if (blocker === 'detached') {
      throw staleElementError(uid);
    }
    if (blocker === 'disabled' && Date.now() - started >= DISABLED_GRACE_MS) {
      throw new Error(
        `Element with uid ${uid} is disabled, so it cannot be used. Wait until the page enables it, or pick another element.`,
      );
    }
    if (Date.now() + RETRY_MS > deadline) {
      throw notInteractive(uid, blocker === 'moving' ? 'it kept moving' : 'it is not visible');
    }
    await sleep(RETRY_MS);
  }
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
