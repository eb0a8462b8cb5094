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

/** Any scheme, host and port: what a pattern without an origin matches. */
const ANY_ORIGIN = '*://*:*';

/**
 * A URL pattern as people and agents write it, in URLPattern syntax (which
 * Chrome's network rules and the polyfill both take):
 * - URLPattern syntax stays as it is (`https://api.example.com/users/:id`);
 * - Playwright-style globs: `**` is `*` (URLPattern's `*` already crosses
 *   `/`), and `**\/rest` or `*\/rest` means `rest` at the end of a path of
 *   any origin (`**\/api/price` matches `/api/price` and `/v1/api/price`);
 * - a path (`/api/price`) is relative to `origin` (the page's), or to any
 *   origin without one;
 * - a wildcard host with no port (`*://*\/api`) matches every port, not
 *   only the scheme's default (as URLPattern alone would).
 */
export function normalizeUrlPattern(input: string, origin?: string): string {
  const pattern = input.trim().replace(/\*{2,}/g, '*');
  const anywhere = /^\*\/(.*)$/s.exec(pattern);
  if (anywhere) {
    // `/:_*` is zero or more path segments, each with its slash.
    return `${ANY_ORIGIN}/:_*/${anywhere[1] ?? ''}`;
  }
  if (pattern.startsWith('/') && !pattern.startsWith('//')) {
    return `${origin && origin !== 'null' ? origin : ANY_ORIGIN}${pattern}`;
  }
  const parts = /^([^:/?#]+:\/\/)([^/?#]*)(.*)$/s.exec(pattern);
  if (parts) {
    const [, scheme = '', host = '', rest = ''] = parts;
    // A port is what follows the last colon outside an IPv6 address's brackets.
    const hasPort = /:[^\]]*$/.test(host.slice(host.lastIndexOf(']') + 1));
    if (host.includes('*') && !hasPort) {
      return `${scheme}${host}:*${rest}`;
    }
  }
  return pattern;
}

/**
 * Compiles one --blockedUrlPattern / --allowedUrlPattern value (written as
 * normalizeUrlPattern reads it, without an origin). Throws with the flag and
 * the pattern when it is not one.
 */
export function parseUrlPatternFlag(pattern: string, flag: string): URLPattern {
  const Pattern = urlPatternClass();
  try {
    return new Pattern(normalizeUrlPattern(pattern));
  } catch (error) {
    throw new Error(
      `--${flag} "${pattern}" is not a valid URL pattern (${error instanceof Error ? error.message : String(error)}). Use a URL with wildcards such as "*://*.example.com/*" or "**/ads/*" (any site), or URLPattern syntax.`,
      {cause: error},
    );
  }
}
