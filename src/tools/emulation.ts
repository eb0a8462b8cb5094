import * as v from 'valibot';

import {NETWORK_CONDITION_NAMES} from '../browser/emulation/emulationState.js';
import {definePageTool} from './defineTool.js';
import {emulationFromParams, VIEWPORT_FORMAT} from './emulationParams.js';

export const emulate = definePageTool({
  name: 'emulate',
  title: 'Emulate device and network',
  description:
    'Emulate network conditions, CPU slowdown, geolocation, user agent, media features and a device viewport on the page. Each call sets the whole emulation state: omitted settings are reset (except extraHttpHeaders, kept until given again).',
  annotations: {
    category: 'emulation',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
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
    await page.emulate(emulationFromParams(params, page.emulation));
    response.line('Emulation configured successfully');
  },
});

/** Larger windows make Chrome's compositor give up (and the browser crash). */
const MAX_SIZE = 16_384;

export const resizePage = definePageTool({
  name: 'resize_page',
  title: 'Resize page',
  description: "Resize the page's content area (the viewport) to the given width and height in CSS pixels.",
  annotations: {
    category: 'emulation',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
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
  async handler({params, page}, response) {
    await page.resize(params.width, params.height);
    response.includePages();
  },
});
