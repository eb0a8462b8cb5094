/**
 * The input tools' actions as a whole: find the element of the latest
 * snapshot by uid, act on it the way a user would, and wait for what that
 * caused (runAndSettle). Each returns what happened (navigation, dialog).
 */
import type {Page, ResolvedElement} from '../browser/core/Page.js';
import {runAndSettle, type SettleResult} from '../browser/core/settle.js';
import {type CallControl, NO_CALL_CONTROL} from '../util/progress.js';
import {actionPoint} from './actionPoint.js';
import {callOn, mouseClick, mouseMove, pressKeys, typeText} from './actions.js';
import {fillElement} from './fill.js';
import {parseKey} from './keys.js';
import {dragAndDrop, uploadFiles} from './transfer.js';

/** Clicking an option of a native single select picks it instead (a real click would open the popup). */
const SELECT_OPTION_ELEMENT = `function() {
  const select = this.closest('select');
  if (this.localName !== 'option' || !select || select.multiple || select.disabled || this.disabled) return false;
  if (this.parentElement && this.parentElement.localName === 'optgroup' && this.parentElement.disabled) return false;
  select.value = this.value;
  select.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  select.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}`;

/** What an input action did: what settling saw, and the node that got the event when not the element itself. */
export interface ActionResult extends SettleResult {
  /** A part of the element's own control drawn over it, which received the event (see actionPoint). */
  receivedBy?: string;
}

async function settled(
  page: Page,
  action: () => Promise<unknown>,
  {signal, progress}: CallControl,
  mark?: Promise<number | undefined>,
): Promise<SettleResult> {
  const {settle} = await runAndSettle(page, action, {signal, progress, mark});
  return settle;
}

/**
 * Resolves a uid while the page marks its mutations, and leaves the
 * element's closed-shadow-root check running: they go with the first
 * questions about the element (actionPoint's first look, which waits for
 * the check). The mark is the settle wait's (runAndSettle): the action waits
 * for it before its input, as runAndSettle did before the action; it is
 * unused when the uid does not resolve.
 */
async function resolveAndMark(
  page: Page,
  uid: string,
): Promise<{element: ResolvedElement; mark: Promise<number | undefined>}> {
  const mark = page.markMutations();
  const element = await page.getElements().resolve(uid, {checkAlongside: true});
  return {element, mark};
}

export async function clickElement(
  page: Page,
  uid: string,
  dblClick: boolean,
  control: CallControl = NO_CALL_CONTROL,
): Promise<ActionResult> {
  const {role} = page.getElements().describe(uid);
  const {element, mark} = await resolveAndMark(page, uid);
  let receivedBy: string | undefined;
  const settle = await settled(
    page,
    async () => {
      if (!dblClick && role === 'option') {
        await Promise.all([element.checking, mark]);
        if (await callOn<boolean>(element, SELECT_OPTION_ELEMENT)) {
          return;
        }
      }
      const point = await actionPoint(page, element, uid, true);
      receivedBy = point.receivedBy;
      await mark;
      await mouseClick(page, point, dblClick ? 2 : 1);
    },
    control,
    mark,
  );
  return receivedBy === undefined ? settle : {...settle, receivedBy};
}

export function clickPoint(
  page: Page,
  x: number,
  y: number,
  dblClick: boolean,
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult> {
  return settled(page, () => mouseClick(page, {x, y}, dblClick ? 2 : 1), control);
}

export async function hoverElement(
  page: Page,
  uid: string,
  control: CallControl = NO_CALL_CONTROL,
): Promise<ActionResult> {
  const {element, mark} = await resolveAndMark(page, uid);
  let receivedBy: string | undefined;
  const settle = await settled(
    page,
    async () => {
      const point = await actionPoint(page, element, uid, false, {gets: 'pointer'});
      receivedBy = point.receivedBy;
      await mark;
      await mouseMove(page, point);
    },
    control,
    mark,
  );
  return receivedBy === undefined ? settle : {...settle, receivedBy};
}

export function fillValue(
  page: Page,
  uid: string,
  value: string,
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult> {
  page.getElements();
  return settled(page, () => fillElement(page, uid, value), control);
}

export async function dragElement(
  page: Page,
  fromUid: string,
  toUid: string,
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult> {
  const elements = page.getElements();
  const from = await elements.resolve(fromUid);
  const to = await elements.resolve(toUid);
  return settled(page, () => dragAndDrop(page, from, fromUid, to, toUid), control);
}

/** Presses a key or a combination such as `Control+Shift+R` on the focused element. */
export function pressKeyCombination(
  page: Page,
  combination: string,
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult> {
  const {key, modifiers} = parseKey(combination);
  return settled(page, () => pressKeys(page, [...modifiers, key]), control);
}

/** Types into the focused element, then presses `submitKey` if given. */
export function typeIntoFocused(
  page: Page,
  text: string,
  submitKey: string | undefined,
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult> {
  return settled(
    page,
    async () => {
      await typeText(page, text);
      if (submitKey) {
        await pressKeys(page, [submitKey]);
      }
    },
    control,
  );
}

export async function uploadToElement(
  page: Page,
  uid: string,
  paths: string[],
  control: CallControl = NO_CALL_CONTROL,
): Promise<SettleResult> {
  const element = await page.getElements().resolve(uid);
  return settled(page, () => uploadFiles(page, element, uid, paths), control);
}
