import {readFileSync} from 'node:fs';

import {vendorUrl} from '../vendor.js';

let cached: readonly string[] | undefined;

/**
 * The trace categories of the vendored DevTools version (written at build time
 * from its DefaultCategories plus JS sampling and screenshots), so starting a
 * trace does not wait for the trace bundle to load.
 */
export function traceCategories(): readonly string[] {
  if (!cached) {
    try {
      cached = JSON.parse(readFileSync(vendorUrl('traceCategories'), 'utf8')) as string[];
    } catch {
      throw new Error(
        'The DevTools trace categories (build/vendor/trace-categories.json) are missing. Run "npm run build".',
      );
    }
  }
  return cached;
}
