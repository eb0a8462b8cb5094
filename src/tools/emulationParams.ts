/**
 * The emulate tool's parameters as text formats (viewport, geolocation,
 * headers) and how they make up the page's next emulation state.
 */
import type {EmulationState, NetworkConditionName, ViewportState} from '../browser/emulation/emulationState.js';

export const VIEWPORT_FORMAT = "'<width>x<height>x<devicePixelRatio>[,mobile][,touch][,landscape]'";

/** Parses `<w>x<h>[x<dpr>][,mobile][,touch][,landscape]`; an omitted dpr is 1. */
export function parseViewport(text: string): ViewportState {
  const [dimensions = '', ...flags] = text.split(',').map(part => part.trim());
  const [width, height, dpr] = dimensions.split('x').map(part => (part === '' ? Number.NaN : Number(part)));
  if (width === undefined || !Number.isFinite(width) || width <= 0) {
    throw new Error(`Invalid viewport width "${width}". Expected format ${VIEWPORT_FORMAT} with a positive width.`);
  }
  if (height === undefined || !Number.isFinite(height) || height <= 0) {
    throw new Error(`Invalid viewport height "${height}". Expected format ${VIEWPORT_FORMAT} with a positive height.`);
  }
  if (dpr !== undefined && (!Number.isFinite(dpr) || dpr <= 0)) {
    throw new Error(`Invalid devicePixelRatio "${dpr}". Expected a positive number.`);
  }
  return {
    deviceScaleFactor: dpr ?? 1,
    isMobile: flags.includes('mobile'),
    hasTouch: flags.includes('touch'),
    isLandscape: flags.includes('landscape'),
    width,
    height,
  };
}

/** Parses `<latitude>,<longitude>`. */
export function parseGeolocation(text: string): {latitude: number; longitude: number} {
  const [latitude, longitude] = text.split(',').map(part => (part.trim() === '' ? Number.NaN : Number(part)));
  if (latitude === undefined || !Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    throw new Error(`Invalid latitude "${latitude}". Latitude must be a number between -90 and 90.`);
  }
  if (longitude === undefined || !Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw new Error(`Invalid longitude "${longitude}". Longitude must be a number between -180 and 180.`);
  }
  return {latitude, longitude};
}

/** Parses a JSON object of header names to values; "" means none. */
export function parseHeaders(text: string): Record<string, string> {
  if (text === '') {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`Invalid JSON for headers: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('Invalid JSON for headers: Headers must be a JSON object');
  }
  return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
}

function mediaValue<T extends string>(value: T | 'auto' | undefined): T | undefined {
  return value === undefined || value === 'auto' ? undefined : value;
}

/** The emulate parameters, as the tool's schema gives them. */
export interface EmulateParams {
  networkConditions?: NetworkConditionName;
  cpuThrottlingRate?: number;
  geolocation?: string;
  userAgent?: string;
  colorScheme?: 'dark' | 'light' | 'auto';
  forcedColors?: 'active' | 'none' | 'auto';
  prefersContrast?: 'more' | 'less' | 'custom' | 'no-preference' | 'auto';
  prefersReducedMotion?: 'reduce' | 'no-preference' | 'auto';
  viewport?: string;
  extraHttpHeaders?: string;
}

/**
 * The page's next whole emulation state (the reference's rule: each call sets
 * everything; omitted settings are reset, except extraHttpHeaders, which are
 * kept when omitted). Throws on malformed values, saying what is expected.
 */
export function emulationFromParams(params: EmulateParams, current: Readonly<EmulationState>): EmulationState {
  const next: EmulationState = {};
  if (params.networkConditions) {
    next.networkConditions = params.networkConditions;
  }
  if (params.cpuThrottlingRate && params.cpuThrottlingRate > 1) {
    next.cpuThrottlingRate = params.cpuThrottlingRate;
  }
  if (params.geolocation) {
    next.geolocation = parseGeolocation(params.geolocation);
  }
  if (params.userAgent) {
    next.userAgent = params.userAgent;
  }
  const colorScheme = mediaValue(params.colorScheme);
  if (colorScheme) {
    next.colorScheme = colorScheme;
  }
  const forcedColors = mediaValue(params.forcedColors);
  if (forcedColors) {
    next.forcedColors = forcedColors;
  }
  const prefersContrast = mediaValue(params.prefersContrast);
  if (prefersContrast) {
    next.prefersContrast = prefersContrast;
  }
  const prefersReducedMotion = mediaValue(params.prefersReducedMotion);
  if (prefersReducedMotion) {
    next.prefersReducedMotion = prefersReducedMotion;
  }
  if (params.viewport) {
    next.viewport = parseViewport(params.viewport);
  }
  const headers =
    params.extraHttpHeaders === undefined ? current.extraHttpHeaders : parseHeaders(params.extraHttpHeaders);
  if (headers && Object.keys(headers).length > 0) {
    next.extraHttpHeaders = headers;
  }
  return next;
}
