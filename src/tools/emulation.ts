import * as v from 'valibot';

import {NETWORK_CONDITION_NAMES} from '../browser/emulation/emulationState.js';
import {definePageTool} from './defineTool.js';
import {emulationFromParams, VIEWPORT_FORMAT} from './emulationParams.js';

export const emulate = definePageTool({
  name: 'emulate',
  title: 'Emulate device and network',
  description:
    'Emulate network, CPU, geolocation, user agent, media features and viewport. Each call sets the whole state: omitted settings reset (extraHttpHeaders excepted).',
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
      v.pipe(v.picklist(NETWORK_CONDITION_NAMES), v.description('Network preset; omit for none.')),
    ),
    cpuThrottlingRate: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1),
        v.maxValue(20),
        v.description('CPU slowdown factor (1 = none). Omit for no slowdown.'),
      ),
    ),
    geolocation: v.optional(v.pipe(v.string(), v.description('"<lat>,<lon>", e.g. "48.85,2.35".'))),
    userAgent: v.optional(v.pipe(v.string(), v.description('User agent; "" for the default.'))),
    colorScheme: v.optional(v.pipe(v.picklist(['dark', 'light', 'auto']), v.description('prefers-color-scheme.'))),
    forcedColors: v.optional(v.pipe(v.picklist(['active', 'none', 'auto']), v.description('forced-colors.'))),
    prefersContrast: v.optional(
      v.pipe(v.picklist(['more', 'less', 'custom', 'no-preference', 'auto']), v.description('prefers-contrast.')),
    ),
    prefersReducedMotion: v.optional(
      v.pipe(v.picklist(['reduce', 'no-preference', 'auto']), v.description('prefers-reduced-motion.')),
    ),
    viewport: v.optional(
      v.pipe(v.string(), v.description(`${VIEWPORT_FORMAT}, e.g. "390x844x3,mobile". Changing mobile/touch reloads.`)),
    ),
    extraHttpHeaders: v.optional(
      v.pipe(v.string(), v.description('JSON object of headers for every request; "" removes, omitted keeps.')),
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
  description: 'Resize the viewport (CSS pixels).',
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
