import {createRequire} from 'node:module';

import type {URLPattern} from 'urlpattern-polyfill/urlpattern';

const require = createRequire(import.meta.url);
let URLPatternClass: typeof URLPattern | undefined;

/**
 * Compiles one --blockedUrlPattern / --allowedUrlPattern value. Throws with
 * the flag and the pattern when it is not URLPattern syntax.
 */
export function parseUrlPatternFlag(pattern: string, flag: string): URLPattern {
  // Node 20 and 22 have no URLPattern. The polyfill is loaded on first use
  // (only when patterns are configured), synchronously so that the flags can
  // be checked before the server starts.
  URLPatternClass ??= (require('urlpattern-polyfill/urlpattern') as {URLPattern: typeof URLPattern}).URLPattern;
  try {
    return new URLPatternClass(pattern);
  } catch (error) {
    throw new Error(
      `--${flag} "${pattern}" is not a valid URL pattern (${error instanceof Error ? error.message : String(error)}). Use URLPattern syntax such as "*://*.example.com/*".`,
      {cause: error},
    );
  }
}
