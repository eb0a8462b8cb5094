/**
 * Structured content of the parts the server fills: the reconnect note, the
 * tool's lines, the navigation an action caused, the page's emulation and
 * dialog, page lists, the snapshot and the error.
 */
import type {EmulationView, PageSummary} from './format.js';
import {formatStartedDownloads} from './formatDownloads.js';
import {snapshotJson} from './snapshotJson.js';
import type {ResponseState} from './state.js';

type Fragment = Record<string, unknown>;

function pageJson(page: PageSummary): Fragment {
  const {id, url, title, selected, isolatedContext} = page;
  return {id, url, title, selected, ...(isolatedContext ? {isolatedContext} : {})};
}

/** The emulated features, each only when set (as the status lines show them). */
export function emulationJson(state: EmulationView, navigationTimeoutMs: number): Fragment {
  const out: Fragment = {};
  if (state.networkConditions) {
    out['networkConditions'] = state.networkConditions;
    out['navigationTimeout'] = navigationTimeoutMs;
  }
  const {geolocation, viewport, userAgent, cpuThrottlingRate} = state;
  if (geolocation) {
    out['geolocation'] = {latitude: geolocation.latitude, longitude: geolocation.longitude};
  }
  if (viewport) {
    const {deviceScaleFactor, isMobile, hasTouch, isLandscape, width, height} = viewport;
    out['viewport'] = {deviceScaleFactor, isMobile, hasTouch, isLandscape, width, height};
  }
  Object.assign(
    out,
    userAgent ? {userAgent} : {},
    cpuThrottlingRate && cpuThrottlingRate > 1 ? {cpuThrottlingRate} : {},
  );
  for (const key of ['colorScheme', 'forcedColors', 'prefersContrast', 'prefersReducedMotion'] as const) {
    if (state[key]) {
      out[key] = state[key];
    }
  }
  return out;
}

/** The snapshot part: the tree, or the file it was saved to. */
function snapshotPart(lines: string[] | undefined): Fragment {
  const [first = '', tree = ''] = lines ?? [];
  const saved = /^Saved snapshot to (.*)\.$/.exec(first);
  if (saved) {
    return {snapshotFilePath: saved[1]};
  }
  const snapshot = first === '## Latest page snapshot' ? snapshotJson(tree) : undefined;
  return snapshot ? {snapshot} : {};
}

/** The server's parts, split around the tool's own (which come between, as in the reference). */
export function serverPartsJson(
  state: ResponseState,
  lines: readonly string[],
  navigatedToUrl: string | undefined,
): {before: Fragment; after: Fragment} {
  const before: Fragment = {};
  if (state.notes.length) {
    before['reconnected'] = true;
  }
  if (lines.length) {
    before['message'] = lines.join('\n');
  }
  if (navigatedToUrl) {
    before['navigatedToUrl'] = navigatedToUrl;
  }
  if (state.downloads?.length) {
    before['downloadsStarted'] = formatStartedDownloads(state.downloads).join('\n');
  }
  if (state.blocked?.length) {
    before['blockedByUrlPolicy'] = state.blocked;
  }
  if (state.emulation) {
    Object.assign(before, emulationJson(state.emulation.state, state.emulation.navigationTimeoutMs));
  }
  if (state.dialog) {
    const {type, message, defaultPrompt} = state.dialog;
    before['dialog'] = {type, message, defaultValue: defaultPrompt ?? ''};
  }
  if (state.pages) {
    const {items, extensionPages = [], serviceWorkers = []} = state.pages;
    if (items.length) {
      before['pages'] = items.map(pageJson);
    }
    if (extensionPages.length) {
      before['extensionPages'] = extensionPages.map(pageJson);
    }
    if (serviceWorkers.length) {
      before['extensionServiceWorkers'] = serviceWorkers.map(({id, url}) => ({id, url}));
    }
  }
  Object.assign(before, snapshotPart(state.snapshot));
  return {before, after: state.error === undefined ? {} : {errorMessage: state.error}};
}
