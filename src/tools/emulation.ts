import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

/** Larger windows make Chrome's compositor give up (and the browser crash). */
const MAX_SIZE = 16_384;

export const resizePage = definePageTool({
  name: 'resize_page',
  description: "Resize the page's content area (the viewport) to the given width and height in CSS pixels.",
  annotations: {category: 'emulation', readOnlyHint: false},
  blockedByDialog: false,
  schema: {
    width: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_SIZE), v.description('Page width in CSS pixels.')),
    height: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_SIZE), v.description('Page height in CSS pixels.')),
  },
  async handler({params, page}, response, {browser}) {
    const c = browser.connection;
    const {windowId} = await c.send('Browser.getWindowForTarget', {targetId: page.targetId});
    const {bounds} = await c.send('Browser.getWindowBounds', {windowId});
    if (bounds.windowState && bounds.windowState !== 'normal') {
      // Chrome refuses to size a maximized/fullscreen window's contents.
      await c.send('Browser.setWindowBounds', {windowId, bounds: {windowState: 'normal'}}).catch(() => undefined);
      if (bounds.windowState === 'fullscreen') {
        await c.send('Browser.setWindowBounds', {windowId, bounds: {windowState: 'normal'}}).catch(() => undefined);
      }
    }
    await c.send('Browser.setContentsSize', {windowId, width: params.width, height: params.height});
    response.setIncludePages();
  },
});
