import * as v from 'valibot';

import type {CdpSession} from '../cdp/CdpConnection.js';
import type {Config} from '../cli/options.js';
import {definePageTool} from './defineTool.js';

/** Larger images go to a temp file instead of inline base64 (as the reference does). */
const INLINE_IMAGE_LIMIT_BYTES = 2_000_000;

export const takeScreenshot = (config: Config) =>
  definePageTool({
    name: 'take_screenshot',
    description: `Take a screenshot of the page's viewport, the full page, or one element (uid from take_snapshot). Default format is ${config.screenshotFormat}.`,
    annotations: {category: 'debugging', readOnlyHint: false},
    blockedByDialog: true,
    filePaths: ['filePath'],
    schema: {
      format: v.optional(
        v.pipe(
          v.picklist(['png', 'jpeg', 'webp']),
          v.description(`Image format. Default is "${config.screenshotFormat}".`),
        ),
        config.screenshotFormat,
      ),
      quality: v.optional(
        v.pipe(
          v.number(),
          v.minValue(0),
          v.maxValue(100),
          v.description('Compression quality for jpeg and webp, 0-100 (ignored for png).'),
        ),
      ),
      uid: v.optional(
        v.pipe(v.string(), v.description('uid of an element from take_snapshot to capture instead of the page.')),
      ),
      fullPage: v.optional(
        v.pipe(v.boolean(), v.description('Capture the whole scrollable page instead of the viewport. Not with uid.')),
      ),
      filePath: v.optional(
        v.pipe(v.string(), v.description('Save the image to this file instead of returning it inline.')),
      ),
    },
    async handler({params, page}, response, {files}) {
      if (params.uid && params.fullPage) {
        throw new Error('Providing both "uid" and "fullPage" is not allowed.');
      }
      const format = params.format;
      const quality = format === 'png' ? undefined : (params.quality ?? config.screenshotQuality);
      const s = page.session;
      let clip: {x: number; y: number; width: number; height: number; scale: number} | undefined;
      let captureBeyondViewport = false;
      if (params.uid) {
        const element = await page.getElements().resolve(params.uid);
        clip = await elementClip(element.session, element.objectId);
        captureBeyondViewport = true;
      } else if (params.fullPage) {
        const metrics = await s.send('Page.getLayoutMetrics');
        const size = metrics.cssContentSize;
        clip = {x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1};
        captureBeyondViewport = true;
      }
      const {data} = await s.send(
        'Page.captureScreenshot',
        {
          format,
          ...(quality !== undefined ? {quality: Math.round(quality)} : {}),
          optimizeForSpeed: true,
          ...(clip ? {clip, captureBeyondViewport} : {}),
        },
        60_000,
      );
      response.line(
        params.uid
          ? `Took a screenshot of node with uid "${params.uid}".`
          : params.fullPage
            ? 'Took a screenshot of the full current page.'
            : "Took a screenshot of the current page's viewport.",
      );
      const bytes = Buffer.from(data, 'base64');
      if (params.filePath) {
        const saved = await files.save(bytes, params.filePath, `.${format}`);
        response.line(`Saved screenshot to ${saved}.`);
      } else if (bytes.length >= INLINE_IMAGE_LIMIT_BYTES) {
        const saved = await files.saveTemporary(bytes, `screenshot.${format}`);
        response.line(`Saved screenshot to ${saved}.`);
      } else {
        response.image(data, `image/${format}`);
      }
    },
  });

/** The element's box in page (document) coordinates, after scrolling it into view. */
async function elementClip(
  session: CdpSession,
  objectId: string,
): Promise<{x: number; y: number; width: number; height: number; scale: number}> {
  await session.trySend('DOM.scrollIntoViewIfNeeded', {objectId});
  const {result} = await session.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration:
      'function() { const r = this.getBoundingClientRect(); return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }',
    returnByValue: true,
  });
  const box = result.value as {x: number; y: number; width: number; height: number};
  if (!box || box.width === 0 || box.height === 0) {
    throw new Error('The element has no visible box to capture (it is hidden or empty).');
  }
  return {...box, scale: 1};
}
