/**
 * URLPattern for request matching (network mocks): compiled with the
 * polyfill (Node 20 has no URLPattern), and turned into the wildcard string
 * the Fetch domain filters on, so that Chrome pauses only requests that may
 * match. The glob is a superset; the pattern itself decides.
 */
import {normalizeUrlPattern, urlPatternClass} from '../../util/urlPattern.js';

export interface UrlMatcher {
  test(url: string): boolean;
}

/** URLPattern's component strings, as the polyfill exposes them. */
interface Components {
  protocol: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
}

/** A compiled request pattern and the URLPattern text it was compiled from. */
export type RequestPattern = UrlMatcher & Components & {source: string};

/**
 * Compiles a pattern as people write it (normalizeUrlPattern: globs, a path
 * relative to `origin`, URLPattern); throws with a message that says how to
 * write one.
 */
export async function compileRequestPattern(pattern: string, origin?: string): Promise<RequestPattern> {
  const URLPattern = urlPatternClass();
  const source = normalizeUrlPattern(pattern, origin);
  try {
    return Object.assign(new URLPattern(source), {source});
  } catch (error) {
    throw new Error(
      `"${pattern}" is not a valid URL pattern (${error instanceof Error ? error.message : String(error)}). Use a URL with wildcards such as "https://api.example.com/users/*", "**/api/price" (any site), a path such as "/api/price" (the page's origin), or URLPattern syntax.`,
      {cause: error},
    );
  }
}

/** Whether the pattern can match some URL of `origin` (its scheme, host and port), whatever the path. */
export function reachesOrigin(pattern: Components, origin: string): boolean {
  const URLPattern = urlPatternClass();
  try {
    const {protocol, hostname, port} = pattern;
    return new URLPattern({protocol, hostname, port}).test(`${origin}/`);
  } catch {
    return true;
  }
}

/** Characters the Fetch wildcard syntax gives a meaning to. */
const GLOB_SPECIAL = /[*?\\]/;

/**
 * One component as a Fetch wildcard: literal text stays (escaped where the
 * glob syntax needs it), every pattern construct (wildcards, named groups,
 * regexp groups, `{…}` groups, modifiers) becomes `*`.
 */
export function componentGlob(component: string): string {
  let out = '';
  const star = () => {
    if (!out.endsWith('*') || out.endsWith('\\*')) {
      out += '*';
    }
  };
  // A group made optional (`/:rest*`, `/(\\d+)?`) takes its `/` or `.` prefix with it.
  const optionalGroup = (next: number) => {
    if (/[*?]/.test(component[next] ?? '') && /[/.]$/.test(out) && !out.endsWith('\\.')) {
      out = out.slice(0, -1);
    }
    star();
  };
  for (let i = 0; i < component.length; i++) {
    const c = component[i] ?? '';
    if (c === '\\' && i + 1 < component.length) {
      const next = component[++i] ?? '';
      out += GLOB_SPECIAL.test(next) ? `\\${next}` : next;
    } else if (c === ':' && /[\p{ID_Start}$_]/u.test(component[i + 1] ?? '')) {
      while (/[\p{ID_Continue}$_\u200C\u200D]/u.test(component[i + 1] ?? '')) {
        i++;
      }
      optionalGroup(i + 1);
    } else if (c === '(' || c === '{') {
      const close = c === '(' ? ')' : '}';
      let depth = 1;
      while (i + 1 < component.length && depth > 0) {
        const d = component[++i];
        if (d === '\\') {
          i++;
        } else if (d === c) {
          depth++;
        } else if (d === close) {
          depth--;
        }
      }
      optionalGroup(i + 1);
    } else if (c === '*' || c === '?' || c === '+') {
      star();
    } else {
      out += c;
    }
  }
  return out;
}

/** The Fetch.enable urlPattern that lets through every URL `pattern` can match (and perhaps more). */
export function fetchGlob(pattern: Components): string {
  const port = pattern.port === '' ? '' : pattern.port === '*' ? '*' : `:${componentGlob(pattern.port)}`;
  // An empty search component means "no query"; anything else may add one.
  const search = pattern.search === '' ? '' : pattern.search === '*' ? '*' : `\\?${componentGlob(pattern.search)}`;
  const glob = `${componentGlob(pattern.protocol)}://${componentGlob(pattern.hostname)}${port}${componentGlob(pattern.pathname)}${search}`;
  return glob.replace(/(?<!\\)\*+/g, '*');
}
