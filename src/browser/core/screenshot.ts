import type {CdpSession} from '../../cdp/CdpConnection.js';
import {CdpTimeoutError} from '../../cdp/errors.js';
import {type CallControl, NO_CALL_CONTROL} from '../../util/progress.js';
import type {Page} from './Page.js';
import {secondsText} from './pageBounds.js';

/*
 * Bounds (page.bounds, --pageCallTimeout): the capture itself has the bound of
 * the page's work. Chrome answers Page.captureScreenshot only once the
 * renderer has produced a frame: never while the page's main thread spins
 * (`while (true)`), and only after many seconds for a huge full page (tens of
 * thousands of pixels high, a 100 MB image). Generous by default (60 s), as a
 * big full page on a loaded machine legitimately takes tens of seconds; the
 * call holds only its page's lane with --lanes page, and a client's
 * cancellation ends it at once whatever the bound. Each question asked before
 * the capture (layout size, window size, the element's box) has the bound of
 * the page's answers (30 s by default): the main thread answers them in
 * milliseconds, so it only ever runs out on a page whose scripts do not
 * yield, and the capture after them would wait for the same thread.
 */

export interface ScreenshotRequest {
  format: 'png' | 'jpeg' | 'webp';
  /** 0-100, for jpeg and webp. */
  quality: number | undefined;
  /** An element of the latest snapshot to capture instead of the viewport. */
  uid: string | undefined;
  /** The whole scrollable page instead of the viewport. */
  fullPage: boolean;
  /** Largest image size in pixels: bigger captures are scaled down, aspect ratio kept. */
  maxWidth?: number;
  maxHeight?: number;
}

interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
}

/**
 * Captures the viewport, the full page or one element; returns the image
 * base64-encoded. Every command carries the call's signal: a cancelled call
 * stops waiting for Chrome at once (and frees its lane or the lock).
 */
export async function captureScreenshot(
  page: Page,
  request: ScreenshotRequest,
  {signal}: CallControl = NO_CALL_CONTROL,
): Promise<string> {
  const session = page.session;
  const query = {timeout: page.bounds.answerMs, signal};
  let clip: Clip | undefined;
  if (request.uid) {
    const element = await page.getElements().resolve(request.uid);
    clip = await elementClip(element.session, element.objectId, query);
  } else if (request.fullPage) {
    const {cssContentSize: size} = await session.send('Page.getLayoutMetrics', {}, query);
    clip = {x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1};
  }
  if (request.maxWidth !== undefined || request.maxHeight !== undefined) {
    clip = await fitted(session, clip, request.maxWidth ?? Infinity, request.maxHeight ?? Infinity, query);
  }
  try {
    const {data} = await session.send(
      'Page.captureScreenshot',
      {
        format: request.format,
        ...(request.quality !== undefined ? {quality: Math.round(request.quality)} : {}),
        optimizeForSpeed: true,
        // A clip outside the viewport (an element, the full page) needs the area beyond it.
        ...(clip ? {clip, captureBeyondViewport: true} : {}),
      },
      {timeout: page.bounds.workMs, signal},
    );
    return data;
  } catch (error) {
    throw error instanceof CdpTimeoutError
      ? new Error(captureTimeoutMessage(request, clip, page.bounds.workMs), {cause: error})
      : error;
  }
}

/** What to do when Chrome did not deliver the image in time (the pipeline adds what the page is doing). */
function captureTimeoutMessage(request: ScreenshotRequest, clip: Clip | undefined, boundMs: number): string {
  const seconds = secondsText(boundMs);
  if (!clip || request.uid) {
    return `Chrome did not finish the screenshot within ${seconds}: the page did not produce a frame (its scripts may not yield).`;
  }
  const size = `${Math.round(clip.width * clip.scale)}x${Math.round(clip.height * clip.scale)} px`;
  return `Chrome did not finish the full-page screenshot (${size}) within ${seconds}. Capture less: the viewport (without fullPage), one element (uid), or a smaller image with --screenshotMaxWidth/--screenshotMaxHeight.`;
}

/**
 * The clip (the viewport when none) scaled so that the image, in device
 * pixels, fits the bounds; Chrome renders it at that scale, so nothing is
 * decoded or resampled here.
 */
async function fitted(
  session: CdpSession,
  clip: Clip | undefined,
  maxWidth: number,
  maxHeight: number,
  options: {timeout: number; signal: AbortSignal | undefined},
): Promise<Clip | undefined> {
  // The window's inner size counts the scrollbar, as a capture without a clip does.
  const {result} = await session.send(
    'Runtime.evaluate',
    {
      expression: '({x: scrollX, y: scrollY, width: innerWidth, height: innerHeight, ratio: devicePixelRatio})',
      returnByValue: true,
    },
    options,
  );
  const view = result.value as {x: number; y: number; width: number; height: number; ratio: number};
  const ratio = view.ratio > 0 ? view.ratio : 1;
  const area = clip ?? {x: view.x, y: view.y, width: view.width, height: view.height, scale: 1};
  const scale = Math.min(1, maxWidth / (area.width * ratio), maxHeight / (area.height * ratio));
  return scale < 1 ? {...area, scale} : clip;
}

/** The element's box in page (document) coordinates, after scrolling it into view. */
async function elementClip(
  session: CdpSession,
  objectId: string,
  options: {timeout: number; signal: AbortSignal | undefined},
): Promise<Clip> {
  await session.trySend('DOM.scrollIntoViewIfNeeded', {objectId}, options);
  const {result} = await session.send(
    'Runtime.callFunctionOn',
    {
      objectId,
      functionDeclaration:
        'function() { const r = this.getBoundingClientRect(); return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }',
      returnByValue: true,
    },
    options,
  );
  const box = result.value as {x: number; y: number; width: number; height: number} | undefined;
  if (!box || box.width === 0 || box.height === 0) {
    throw new Error('The element has no visible box to capture (it is hidden or empty).');
  }
  return {...box, scale: 1};
}
