/** The input primitives: mouse and keyboard events in the page, and calls on an element. */
import type {CdpParams} from '../../protocol/index.js';
import type {Page, ResolvedElement} from '../browser/core/Page.js';
import {exceptionMessage} from '../browser/script/exceptions.js';
import {errorMessage} from '../util/async.js';
import {PageQuoteError} from '../util/pageQuote.js';
import type {Point} from './hitTarget.js';
import {type KeyDefinition, KEYS, MODIFIER_BITS} from './keys.js';

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
  let failed = false;
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
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    for (const def of down.reverse()) {
      const up = keyEvent(def, modifiers, 'up');
      // After a failure (a page that does not answer) the keys are still released, without a second wait.
      if (failed) {
        void s.trySend('Input.dispatchKeyEvent', up);
      } else {
        await s.send('Input.dispatchKeyEvent', up);
      }
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
    throw new PageQuoteError(exceptionMessage(exceptionDetails));
  }
  return result.value as T;
}

export function describeError(error: unknown): string {
  return errorMessage(error);
}
