/** The input facet of a page handle: clicks, typing, drags and uploads through the input layer. */
import type {Page} from '../../browser/core/Page.js';
import {
  clickElement,
  clickPoint,
  dragElement,
  fillValue,
  hoverElement,
  pressKeyCombination,
  typeIntoFocused,
  uploadToElement,
} from '../../input/perform.js';
import {namingReplacement} from '../../snapshot/replacement.js';
import type {CallControl} from '../../util/progress.js';
import type {ToolInput} from '../context.js';

export function pageInput(page: Page, control: CallControl): ToolInput {
  // A uid whose element is gone: the error names the one that looks the same now.
  const on = <T>(uids: string[], action: () => Promise<T>) => namingReplacement(page, uids, action, control.signal);
  return {
    click: (uid, {dblClick}) => on([uid], () => clickElement(page, uid, dblClick, control)),
    clickAt: (x, y, {dblClick}) => clickPoint(page, x, y, dblClick, control),
    hover: uid => on([uid], () => hoverElement(page, uid, control)),
    fill: (uid, value) => on([uid], () => fillValue(page, uid, value, control)),
    drag: (fromUid, toUid) => on([fromUid, toUid], () => dragElement(page, fromUid, toUid, control)),
    pressKey: key => pressKeyCombination(page, key, control),
    typeText: (text, submitKey) => typeIntoFocused(page, text, submitKey, control),
    uploadFiles: (uid, paths) => on([uid], () => uploadToElement(page, uid, paths, control)),
  };
}
