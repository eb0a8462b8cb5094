/**
 * Emulation as state: what a page emulates, and how that state is sent to
 * one CDP session (pages, frames and workers each get the part they take).
 * Changing a page's emulation as an action is emulatePage.ts.
 */
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {NO_THROTTLE, type Throttle, type UrlPolicy} from '../network/urlPolicy.js';

/** Emulated viewport, in the key order the status line prints it. */
export interface ViewportState {
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  isLandscape: boolean;
  width: number;
  height: number;
}

/** Per-page emulation state; shown on responses of page-scoped tools. Absent keys are not emulated. */
export interface EmulationState {
  networkConditions?: NetworkConditionName;
  cpuThrottlingRate?: number;
  geolocation?: {latitude: number; longitude: number};
  viewport?: ViewportState;
  userAgent?: string;
  colorScheme?: 'dark' | 'light';
  forcedColors?: 'active' | 'none';
  prefersContrast?: 'more' | 'less' | 'custom' | 'no-preference';
  prefersReducedMotion?: 'reduce' | 'no-preference';
  extraHttpHeaders?: Record<string, string>;
}

/** The network presets emulate offers, as chrome-devtools-mcp names them. */
export const NETWORK_CONDITION_NAMES = ['Offline', 'Slow 3G', 'Fast 3G', 'Slow 4G', 'Fast 4G'] as const;
export type NetworkConditionName = (typeof NETWORK_CONDITION_NAMES)[number];

interface NetworkPreset {
  /** Download/upload throughput (bytes/s) and added round-trip latency (ms): the numbers DevTools uses. */
  throttle: Throttle;
  /** How much slower navigations get, which stretches the default navigation timeout (as the reference). */
  navigationSlowdown: number;
}

export const NETWORK_PRESETS: Record<NetworkConditionName, NetworkPreset> = {
  Offline: {
    throttle: {offline: true, latency: 0, downloadThroughput: 0, uploadThroughput: 0},
    navigationSlowdown: 1,
  },
  'Slow 3G': {
    throttle: {offline: false, latency: 2000, downloadThroughput: 50_000, uploadThroughput: 50_000},
    navigationSlowdown: 10,
  },
  'Fast 3G': {
    throttle: {offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375},
    navigationSlowdown: 5,
  },
  'Slow 4G': {
    throttle: {offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375},
    navigationSlowdown: 2.5,
  },
  'Fast 4G': {
    throttle: {offline: false, latency: 165, downloadThroughput: 1_012_500, uploadThroughput: 168_750},
    navigationSlowdown: 1,
  },
};

function presetOf(state: EmulationState): NetworkPreset | undefined {
  return state.networkConditions ? NETWORK_PRESETS[state.networkConditions] : undefined;
}

export function throttleOf(state: EmulationState): Throttle | undefined {
  return presetOf(state)?.throttle;
}

/** Factor by which emulated network conditions slow navigations down (1 when not emulated). */
export function navigationSlowdown(state: EmulationState): number {
  return presetOf(state)?.navigationSlowdown ?? 1;
}

/** Factor by which emulated CPU throttling slows the page down (1 when not emulated). */
export function cpuSlowdown(state: EmulationState): number {
  return Math.max(1, state.cpuThrottlingRate ?? 1);
}

/** Which settings a kind of session takes: frames take everything, workers only network-level ones. */
export type SessionKind = 'page' | 'frame' | 'worker';

/**
 * Sends the session-level part of the emulation state to one session: network
 * conditions (combined with the URL policy's blocking rules), user agent,
 * extra headers, and for frames CPU, geolocation and media features. The
 * viewport is page-level and applied by the emulate tool. With `reset`, what
 * is not emulated is cleared; without it (a session that just attached) only
 * what is emulated is sent.
 */
export async function applySessionEmulation(
  session: CdpSession,
  kind: SessionKind,
  state: EmulationState,
  policy: UrlPolicy,
  reset: boolean,
): Promise<void> {
  const throttle = throttleOf(state);
  const effective = throttle ?? NO_THROTTLE;
  const commands: Array<Promise<unknown>> = [];
  if (reset || throttle || policy.active) {
    commands.push(
      session.send('Network.emulateNetworkConditionsByRule', {matchedNetworkConditions: policy.rules(throttle)}),
    );
  }
  if (reset || throttle) {
    // Rule-based conditions leave navigator.onLine/connection alone; this sets them.
    commands.push(
      session.send('Network.overrideNetworkState', {
        offline: effective.offline,
        latency: effective.latency,
        downloadThroughput: effective.downloadThroughput,
        uploadThroughput: effective.uploadThroughput,
      }),
    );
  }
  if (reset || state.extraHttpHeaders) {
    commands.push(session.send('Network.setExtraHTTPHeaders', {headers: state.extraHttpHeaders ?? {}}));
  }
  if (reset || state.userAgent) {
    // An empty user agent removes the override.
    commands.push(session.send('Emulation.setUserAgentOverride', {userAgent: state.userAgent ?? ''}));
  }
  if (kind !== 'worker') {
    if (reset || state.cpuThrottlingRate) {
      commands.push(session.send('Emulation.setCPUThrottlingRate', {rate: state.cpuThrottlingRate ?? 1}));
    }
    if (state.geolocation) {
      commands.push(session.send('Emulation.setGeolocationOverride', {...state.geolocation, accuracy: 0}));
    } else if (reset) {
      commands.push(session.send('Emulation.clearGeolocationOverride'));
    }
    if (reset || state.colorScheme || state.forcedColors || state.prefersContrast || state.prefersReducedMotion) {
      commands.push(
        session.send('Emulation.setEmulatedMedia', {
          features: [
            {name: 'prefers-color-scheme', value: state.colorScheme ?? ''},
            {name: 'forced-colors', value: state.forcedColors ?? ''},
            {name: 'prefers-contrast', value: state.prefersContrast ?? ''},
            {name: 'prefers-reduced-motion', value: state.prefersReducedMotion ?? ''},
          ],
        }),
      );
    }
  }
  await Promise.all(commands);
}

/** Applies (or clears) the viewport. Returns whether the page must reload for touch/mobile to take effect. */
export async function applyViewport(
  session: CdpSession,
  viewport: ViewportState | undefined,
  previous: ViewportState | undefined,
): Promise<boolean> {
  if (viewport) {
    await Promise.all([
      session.send('Emulation.setDeviceMetricsOverride', {
        width: viewport.width,
        height: viewport.height,
        deviceScaleFactor: viewport.deviceScaleFactor,
        mobile: viewport.isMobile,
        screenOrientation: viewport.isLandscape
          ? {angle: 90, type: 'landscapePrimary'}
          : {angle: 0, type: 'portraitPrimary'},
      }),
      session.send('Emulation.setTouchEmulationEnabled', {enabled: viewport.hasTouch}),
    ]);
  } else {
    await Promise.all([
      session.send('Emulation.clearDeviceMetricsOverride'),
      session.send('Emulation.setTouchEmulationEnabled', {enabled: false}),
    ]);
  }
  // Touch support and the mobile viewport are read when a document starts.
  return (
    (previous?.isMobile ?? false) !== (viewport?.isMobile ?? false) ||
    (previous?.hasTouch ?? false) !== (viewport?.hasTouch ?? false)
  );
}
