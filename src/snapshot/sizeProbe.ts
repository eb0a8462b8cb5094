import type {Page} from '../browser/core/Page.js';
import {secondsText} from '../browser/core/pageBounds.js';
import {CdpTimeoutError} from '../cdp/errors.js';
import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import type {FramePlace} from './frames.js';

/** Whether `place` is the page's own main frame (as opposed to an inner or out-of-process one). */
export const isMainFrame = (page: Page, place: FramePlace): boolean =>
  place.session === page.session && place.frameId === page.mainFrameId;

/**
 * A DOM count for a frame never snapshotted before (one cheap evaluation in
 * its main world). Any failure only means no count (the full tree is read),
 * but a count that got no answer within the bound of the page's answers
 * (page.bounds: 30 s, or --pageCallTimeout, for an evaluation that takes
 * microseconds) means the page's main thread does
 * not yield: the snapshot ends there, instead of waiting out the frame tree's
 * and the AX tree's bounds after it for the same thread.
 */
export async function probeSize(page: Page, place: FramePlace): Promise<number> {
  const contextId = isMainFrame(page, place) ? undefined : page.frames.contextOf(place.session, place.frameId);
  const response = await place.session
    .send(
      'Runtime.evaluate',
      {
        expression: "document.getElementsByTagName('*').length",
        returnByValue: true,
        ...(contextId !== undefined ? {contextId} : {}),
      },
      page.bounds.answerMs,
    )
    .catch((error: unknown) => {
      if (error instanceof CdpTimeoutError) {
        throw new Error(`The page did not answer the snapshot within ${secondsText(page.bounds.answerMs)}.`, {
          cause: error,
        });
      }
      debug('Runtime.evaluate failed (ignored)', errorMessage(error));
      return undefined;
    });
  const elements: unknown = response?.result.value;
  // About two AX nodes per element (its text and line boxes).
  return typeof elements === 'number' ? elements * 2 : 0;
}
