import type {Page} from '../browser/core/Page.js';
import {secondsText} from '../browser/core/pageBounds.js';
import {CdpTimeoutError} from '../cdp/errors.js';
import {CancelledError, errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import type {FramePlace, IsolatedWorlds} from './frames.js';

/** Whether `place` is the page's own main frame (as opposed to an inner or out-of-process one). */
export const isMainFrame = (page: Page, place: FramePlace): boolean =>
  place.session === page.session && place.frameId === page.mainFrameId;

/** The count, in our isolated world: the page's scripts cannot replace what it calls there. */
const COUNT = "document.getElementsByTagName('*').length";

/**
 * A DOM count for a frame never snapshotted before: one cheap evaluation in
 * our isolated world (the walker's, made here for the frame's new document).
 * Not in the page's own world, where `document.getElementsByTagName` is the
 * page's to replace: with one that lies (the count picks the path) or never
 * returns (our evaluation would then hold the page's thread for good).
 *
 * Any failure only means no count (the full tree is read), but a count that
 * got no answer within the bound of the page's answers (page.bounds: 30 s,
 * or --pageCallTimeout, for an evaluation that takes microseconds) means the
 * page's main thread does not yield: the snapshot ends there, instead of
 * waiting out the frame tree's and the AX tree's bounds after it for the
 * same thread. `signal`: the snapshot's, carried by both requests.
 */
export async function probeSize(
  page: Page,
  place: FramePlace,
  worlds: IsolatedWorlds,
  signal: AbortSignal,
): Promise<number> {
  const options = {timeout: page.bounds.answerMs, signal};
  const count = async () => {
    // A world of its own for the new document (one the frame had went with its old document).
    const contextId = await worlds.context(place, true, options);
    return place.session.send('Runtime.evaluate', {expression: COUNT, returnByValue: true, contextId}, options);
  };
  const response = await count().catch((error: unknown) => {
    if (error instanceof CancelledError) {
      throw error;
    }
    if (error instanceof CdpTimeoutError) {
      throw new Error(`The page did not answer the snapshot within ${secondsText(page.bounds.answerMs)}.`, {
        cause: error,
      });
    }
    debug('the DOM count failed (ignored)', errorMessage(error));
    return undefined;
  });
  const elements: unknown = response?.exceptionDetails ? undefined : response?.result.value;
  // About two AX nodes per element (its text and line boxes).
  return typeof elements === 'number' ? elements * 2 : 0;
}
