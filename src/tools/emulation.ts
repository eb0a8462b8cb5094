import * as v from 'valibot';

import {emulatePage, type EmulationState, NETWORK_CONDITION_NAMES, type ViewportState} from '../browser/emulation.js';
import {definePageTool} from './defineTool.js';

const VIEWPORT_FORMAT = "'<width>x<height>x<devicePixelRatio>[,mobile][,touch][,landscape]'";

/** Parses `<w>x<h>[x<dpr>][,mobile][,touch][,landscape]`; an omitted dpr is 1. */
export function parseViewport(text: string): ViewportState {
  const [dimensions = '', ...flags] = text.split(',').map(part => part.trim());
  const [width, height, dpr] = dimensions.split('x').map(part => (part === '' ? Number.NaN : Number(part)));
  if (width === undefined || !Number.isFinite(width) || width <= 0) {
    throw new Error(`Invalid viewport width "${width}". Expected format ${VIEWPORT_FORMAT} with a positive width.`);
  }
  if (height === undefined || !Number.isFinite(height) || height <= 0) {
    throw new Error(`Invalid viewport height "${height}". Expected format ${VIEWPORT_FORMAT} with a positive height.`);
  }
  if (dpr !== undefined && (!Number.isFinite(dpr) || dpr <= 0)) {
    throw new Error(`Invalid devicePixelRatio "${dpr}". Expected a positive number.`);
  }
  return {
    deviceScaleFactor: dpr ?? 1,
    isMobile: flags.includes('mobile'),
    hasTouch: flags.includes('touch'),
    isLandscape: flags.includes('landscape'),
    width,
    height,
  };
}

/** Parses `<latitude>,<longitude>`. */
export function parseGeolocation(text: string): {latitude: number; longitude: number} {
  const [latitude, longitude] = text.split(',').map(part => (part.trim() === '' ? Number.NaN : Number(part)));
  if (latitude === undefined || !Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    throw new Error(`Invalid latitude "${latitude}". Latitude must be a number between -90 and 90.`);
  }
  if (longitude === undefined || !Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw new Error(`Invalid longitude "${longitude}". Longitude must be a number between -180 and 180.`);
  }
  return {latitude, longitude};
}

/** Parses a JSON object of header names to values; "" means none. */
export function parseHeaders(text: string): Record<string, string> {
  if (text === '') {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`Invalid JSON for headers: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('Invalid JSON for headers: Headers must be a JSON object');
  }
  return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
}

function mediaValue<T extends string>(value: T | 'auto' | undefined): T | undefined {
  return value === undefined || value === 'auto' ? undefined : value;
}

export const emulate = definePageTool({
  name: 'emulate',
  description:
    'Emulate network conditions, CPU slowdown, geolocation, user agent, media features and a device viewport on the page. Each call sets the whole emulation state: omitted settings are reset (except extraHttpHeaders, kept until given again).',
  annotations: {category: 'emulation', readOnlyHint: false},
  blockedByDialog: true,
  schema: {
    networkConditions: v.optional(
      v.pipe(
        v.picklist(NETWORK_CONDITION_NAMES),
        v.description('Throttle the network to a preset, or go offline. Omit for no throttling.'),
      ),
    ),
    cpuThrottlingRate: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1),
        v.maxValue(20),
        v.description('CPU slowdown factor (1 = none). Omit for no slowdown.'),
      ),
    ),
    geolocation: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'Position to report as "<latitude>,<longitude>", e.g. "48.85,2.35". Omit to remove the override.',
        ),
      ),
    ),
    userAgent: v.optional(
      v.pipe(v.string(), v.description('User agent string to send and report. Omit or "" for the default.')),
    ),
    colorScheme: v.optional(
      v.pipe(
        v.picklist(['dark', 'light', 'auto']),
        v.description('prefers-color-scheme to emulate; auto (or omitted) for the default.'),
      ),
    ),
    forcedColors: v.optional(
      v.pipe(
        v.picklist(['active', 'none', 'auto']),
        v.description('forced-colors media feature; auto (or omitted) for the default.'),
      ),
    ),
    prefersContrast: v.optional(
      v.pipe(
        v.picklist(['more', 'less', 'custom', 'no-preference', 'auto']),
        v.description('prefers-contrast media feature; auto (or omitted) for the default.'),
      ),
    ),
    prefersReducedMotion: v.optional(
      v.pipe(
        v.picklist(['reduce', 'no-preference', 'auto']),
        v.description('prefers-reduced-motion media feature; auto (or omitted) for the default.'),
      ),
    ),
    viewport: v.optional(
      v.pipe(
        v.string(),
        v.description(
          `Device viewport as ${VIEWPORT_FORMAT}, e.g. "390x844x3,mobile,touch". The page reloads when mobile or touch changes. Omit to remove the override.`,
        ),
      ),
    ),
    extraHttpHeaders: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'Headers to add to every request of the page, as a JSON object string, e.g. {"X-Test":"1"}. "" removes them; omitted keeps the current ones.',
        ),
      ),
    ),
  },
  async handler({params, page}, response) {
    const next: EmulationState = {};
    if (params.networkConditions) {
      next.networkConditions = params.networkConditions;
    }
    if (params.cpuThrottlingRate && params.cpuThrottlingRate > 1) {
      next.cpuThrottlingRate = params.cpuThrottlingRate;
    }
    if (params.geolocation) {
      next.geolocation = parseGeolocation(params.geolocation);
    }
    if (params.userAgent) {
      next.userAgent = params.userAgent;
    }
    const colorScheme = mediaValue(params.colorScheme);
    if (colorScheme) {
      next.colorScheme = colorScheme;
    }
    const forcedColors = mediaValue(params.forcedColors);
    if (forcedColors) {
      next.forcedColors = forcedColors;
    }
    const prefersContrast = mediaValue(params.prefersContrast);
    if (prefersContrast) {
      next.prefersContrast = prefersContrast;
    }
    const prefersReducedMotion = mediaValue(params.prefersReducedMotion);
    if (prefersReducedMotion) {
      next.prefersReducedMotion = prefersReducedMotion;
    }
    if (params.viewport) {
      next.viewport = parseViewport(params.viewport);
    }
    const headers =
      params.extraHttpHeaders === undefined ? page.emulation.extraHttpHeaders : parseHeaders(params.extraHttpHeaders);
    if (headers && Object.keys(headers).length > 0) {
      next.extraHttpHeaders = headers;
    }
    await emulatePage(page, next);
    response.line('Emulation configured successfully');
  },
});

/** Larger windows make Chrome's compositor give up (and the browser crash). */
const MAX_SIZE = 16_384;

export const resizePage = definePageTool({
  name: 'resize_page',
  description: "Resize the page's content area (the viewport) to the given width and height in CSS pixels.",
  annotations: {category: 'emulation', readOnlyHint: false},
  blockedByDialog: false,
  schema: {
    width: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(MAX_SIZE),
      v.description('Page width in CSS pixels.'),
    ),
    height: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(MAX_SIZE),
      v.description('Page height in CSS pixels.'),
    ),
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
