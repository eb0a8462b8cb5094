import * as v from 'valibot';

import type {Config} from '../config/options.js';
import {definePageTool} from './defineTool.js';

/** Larger images go to a temp file instead of inline base64 (as the reference does). */
const INLINE_IMAGE_LIMIT_BYTES = 2_000_000;

/** take_screenshot's parameters (the default format comes from --screenshotFormat). */
const screenshotSchema = (config: Config) => ({
  format: v.optional(
    v.pipe(
      v.picklist(['png', 'jpeg', 'webp']),
      v.description(`Image format. Default is "${config.screenshotFormat}".`),
    ),
    config.screenshotFormat,
  ),
  quality: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100), v.description('0-100, jpeg/webp only.'))),
  uid: v.optional(v.pipe(v.string(), v.description('Capture this element.'))),
  fullPage: v.optional(v.pipe(v.boolean(), v.description('Whole scrollable page; not with uid.'))),
  filePath: v.optional(v.pipe(v.string(), v.description('Save to this file.'))),
});

export const takeScreenshot = (config: Config) =>
  definePageTool({
    name: 'take_screenshot',
    title: 'Take screenshot',
    description: `Screenshot the viewport, full page or an element. Default format ${config.screenshotFormat}.`,
    annotations: {
      category: 'debugging',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    blockedByDialog: true,
    filePaths: ['filePath'],
    schema: screenshotSchema(config),
    async handler({params, page}, response, {files}) {
      if (params.uid && params.fullPage) {
        throw new Error('Providing both "uid" and "fullPage" is not allowed.');
      }
      const format = params.format;
      const data = await page.screenshot({
        format,
        quality: format === 'png' ? undefined : (params.quality ?? config.screenshotQuality),
        uid: params.uid,
        fullPage: params.fullPage ?? false,
        maxWidth: config.screenshotMaxWidth,
        maxHeight: config.screenshotMaxHeight,
      });
      response.line(screenshotLine(params));
      const bytes = Buffer.from(data, 'base64');
      if (params.filePath) {
        response.line(`Saved screenshot to ${await files.save(bytes, params.filePath, `.${format}`)}.`);
      } else if (bytes.length >= INLINE_IMAGE_LIMIT_BYTES) {
        response.line(`Saved screenshot to ${await files.saveTemporary(bytes, `screenshot.${format}`)}.`);
      } else {
        response.image(data, `image/${format}`);
      }
    },
  });

/** What the reference says it took. */
function screenshotLine(params: {uid?: string; fullPage?: boolean}): string {
  return params.uid
    ? `Took a screenshot of node with uid "${params.uid}".`
    : params.fullPage
      ? 'Took a screenshot of the full current page.'
      : "Took a screenshot of the current page's viewport.";
}
