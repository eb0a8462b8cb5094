/**
 * Which targets are pages, as chrome-devtools-mcp 1.11 lists them: `page`
 * targets, plus with `--experimentalIncludeAllPages` the other page-like
 * types (webviews, extension background pages), and with
 * `--experimentalDevtools` the DevTools windows (`other` targets on
 * `devtools://`). Browser chrome (`chrome://` but the new tab page and
 * chrome://inspect, `chrome-untrusted://`) is never listed; `devtools://`
 * only with `--experimentalDevtools`.
 */

/** The flags that widen the page list. */
export interface PageTargetOptions {
  /** --experimentalDevtools */
  devtools?: boolean;
  /** --experimentalIncludeAllPages */
  includeAllPages?: boolean;
}

/** Page-like target types that --experimentalIncludeAllPages adds. */
const OTHER_PAGE_TYPES = new Set(['background_page', 'webview']);

/** chrome:// pages tools may see: the new tab page and chrome://inspect. */
function isListedChromePage(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  const path = url.pathname.toLowerCase();
  return (
    host === 'newtab' ||
    host === 'new-tab-page' ||
    host === 'inspect' ||
    (host === '' && (path === 'newtab' || path === 'new-tab-page' || path.startsWith('inspect')))
  );
}

/** Whether a target's URL is browser chrome rather than web content (hidden from tools). */
export function isHiddenUrl(url: string, options: PageTargetOptions = {}): boolean {
  if (url.startsWith('devtools://')) {
    return !options.devtools;
  }
  if (url.startsWith('chrome-untrusted://')) {
    return true;
  }
  if (url.startsWith('chrome://')) {
    try {
      return !isListedChromePage(new URL(url));
    } catch {
      return true;
    }
  }
  return false;
}

/** Whether tools see the target as a page. */
export function isPageTarget(target: {type: string; url: string}, options: PageTargetOptions = {}): boolean {
  if (isHiddenUrl(target.url, options)) {
    return false;
  }
  return (
    target.type === 'page' ||
    (Boolean(options.includeAllPages) && OTHER_PAGE_TYPES.has(target.type)) ||
    (Boolean(options.devtools) && target.type === 'other' && target.url.startsWith('devtools://'))
  );
}
