import type {CdpSession} from '../../cdp/CdpConnection.js';
import type {Page} from './Page.js';

/** Bound of one capture: big full-page shots take a while. */
const CAPTURE_TIMEOUT_MS = 60_000;

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

/** Captures the viewport, the full page or one element; returns the image base64-encoded. */
export async function captureScreenshot(page: Page, request: ScreenshotRequest): Promise<string> {
  const session = page.session;
  let clip: Clip | undefined;
  if (request.uid) {
    const element = await page.getElements().resolve(request.uid);
    clip = await elementClip(element.session, element.objectId);
  } else if (request.fullPage) {
    const {cssContentSize: size} = await session.send('Page.getLayoutMetrics');
    clip = {x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1};
  }
  if (request.maxWidth !== undefined || request.maxHeight !== undefined) {
    clip = await fitted(session, clip, request.maxWidth ?? Infinity, request.maxHeight ?? Infinity);
  }
  const {data} = await session.send(
    'Page.captureScreenshot',
    {
      format: request.format,
      ...(request.quality !== undefined ? {quality: Math.round(request.quality)} : {}),
      optimizeForSpeed: true,
      // A clip outside the viewport (an element, the full page) needs the area beyond it.
      ...(clip ? {clip, captureBeyondViewport: true} : {}),
    },
    CAPTURE_TIMEOUT_MS,
  );
  return data;
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
): Promise<Clip | undefined> {
  // The window's inner size counts the scrollbar, as a capture without a clip does.
  const {result} = await session.send('Runtime.evaluate', {
    expression: '({x: scrollX, y: scrollY, width: innerWidth, height: innerHeight, ratio: devicePixelRatio})',
    returnByValue: true,
  });
  const view = result.value as {x: number; y: number; width: number; height: number; ratio: number};
  const ratio = view.ratio > 0 ? view.ratio : 1;
  const area = clip ?? {x: view.x, y: view.y, width: view.width, height: view.height, scale: 1};
  const scale = Math.min(1, maxWidth / (area.width * ratio), maxHeight / (area.height * ratio));
  return scale < 1 ? {...area, scale} : clip;
}

/** The element's box in page (document) coordinates, after scrolling it into view. */
async function elementClip(session: CdpSession, objectId: string): Promise<Clip> {
  await session.trySend('DOM.scrollIntoViewIfNeeded', {objectId});
  const {result} = await session.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration:
      'function() { const r = this.getBoundingClientRect(); return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }',
    returnByValue: true,
  });
  const box = result.value as {x: number; y: number; width: number; height: number} | undefined;
  if (!box || box.width === 0 || box.height === 0) {
    throw new Error('The element has no visible box to capture (it is hidden or empty).');
  }
  return {...box, scale: 1};
}
