import {existsSync} from 'node:fs';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

import type {URLPattern} from 'urlpattern-polyfill/urlpattern';

const require = createRequire(import.meta.url);
/**
 * The published package has no dependencies: scripts/bundle.mjs ships the
 * polyfill's CommonJS build as dist/vendor/urlpattern.cjs, next to the chunk
 * in dist/ this code is bundled into. In build/ it comes from node_modules.
 */
const BUNDLED = fileURLToPath(new URL('./vendor/urlpattern.cjs', import.meta.url));
let URLPatternClass: typeof URLPattern | undefined;

/**
 * The URLPattern class. Node 20 and 22 have none: the polyfill is loaded on
 * first use (only when patterns are configured or a mock is set),
 * synchronously so that the flags can be checked before the server starts.
 */
export function urlPatternClass(): typeof URLPattern {
  URLPatternClass ??= (
    require(existsSync(BUNDLED) ? BUNDLED : 'urlpattern-polyfill/urlpattern') as {URLPattern: typeof URLPattern}
  ).URLPattern;
  return URLPatternClass;
}

/**
 * Compiles one --blockedUrlPattern / --allowedUrlPattern value. Throws with
 * the flag and the pattern when it is not URLPattern syntax.
 */
export function parseUrlPatternFlag(pattern: string, flag: string): URLPattern {
  const Pattern = urlPatternClass();
  try {
    return new Pattern(pattern);
  } catch (error) {
    throw new Error(
      `--${flag} "${pattern}" is not a valid URL pattern (${error instanceof Error ? error.message : String(error)}). Use URLPattern syntax such as "*://*.example.com/*".`,
      {cause: error},
    );
  }
}
