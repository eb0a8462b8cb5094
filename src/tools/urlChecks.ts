/**
 * Navigations refused before Chrome sees them, with chrome-devtools-mcp
 * 1.11's messages: URLs that do not parse, script URLs without JavaScript
 * evaluation, `file:` URLs (also wrapped in `view-source:`) without file
 * navigations.
 */
import type {Config} from '../config/options.js';

/** URL schemes that run caller-given script. */
const SCRIPT_PROTOCOLS = new Set(['javascript:', 'data:', 'vbscript:']);
/** How deep `view-source:view-source:…` is unwrapped. */
const MAX_WRAPPING = 5;

/** Whether the URL, once any `view-source:` wrapping is taken off, is a `file:` URL. */
function targetsFile(url: URL): boolean {
  let current = url;
  for (let i = 0; i < MAX_WRAPPING && current.protocol === 'view-source:'; i++) {
    try {
      current = new URL(current.pathname);
    } catch {
      return false;
    }
  }
  return current.protocol === 'file:';
}

/** Throws when the configuration does not allow navigating to `url`. */
export function checkNavigationUrl(
  url: string,
  config: Pick<Config, 'javascriptEvaluation' | 'fileNavigations'>,
): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Invalid URL: "${url}". URLs must be valid according to the URL standard.`);
  }
  if (!config.javascriptEvaluation && SCRIPT_PROTOCOLS.has(parsed.protocol)) {
    throw new Error(`Navigating to ${parsed.protocol} URLs is not allowed when JavaScript evaluation is disabled.`);
  }
  if (!config.fileNavigations && targetsFile(parsed)) {
    throw new Error('Navigating to file: URLs is not allowed when --file-navigations is disabled.');
  }
}
