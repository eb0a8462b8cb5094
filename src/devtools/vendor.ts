import {existsSync} from 'node:fs';

import {errorMessage} from '../util/async.js';
import {debug} from '../util/logger.js';
import {holdStringTableRoom} from '../util/stringTable.js';
import type {CssBundle, TraceBundle} from './bundleTypes.js';

/**
 * The DevTools bundles built by scripts/build-vendor.mjs (build/vendor/). They
 * are megabytes of code, so each is imported on first use, never at server
 * start, and the Node 20 polyfills are installed before any of them runs.
 * Compiled, this file sits in build/src/devtools/ and the bundles in
 * build/vendor/; in the published bundle (scripts/bundle.mjs) it is part of a
 * chunk in dist/, next to dist/vendor/.
 */
const VENDOR_DIR =
  [new URL('./vendor/', import.meta.url), new URL('../../vendor/', import.meta.url)].find(dir =>
    existsSync(new URL('manifest.json', dir)),
  ) ?? new URL('../../vendor/', import.meta.url);

/** File names in build/vendor/ (see scripts/vendor/*.mjs). */
export const VENDOR_FILES = {
  polyfills: 'polyfills.mjs',
  trace: 'devtools-trace.mjs',
  css: 'devtools-css.mjs',
  heapSnapshot: 'devtools-heap-snapshot.mjs',
  traceCategories: 'trace-categories.json',
  lighthouse: 'lighthouse.mjs',
} as const;

export type VendorFile = keyof typeof VENDOR_FILES;

/**
 * Entries made in V8's string table before importing a bundle (util/stringTable.ts):
 * about the distinct names and strings of its code (DevTools' SDK: 15,000).
 */
const STRING_TABLE_ROOM: Partial<Record<VendorFile, number>> = {css: 16_000};

/** How long each bundle took to import (for diagnostics and the bench). */
export const loadTimesMs = new Map<VendorFile, number>();

const loading = new Map<VendorFile, Promise<unknown>>();

export function vendorUrl(file: VendorFile): URL {
  return new URL(VENDOR_FILES[file], VENDOR_DIR);
}

function importOnce<T>(file: VendorFile, after?: () => Promise<unknown>): Promise<T> {
  let promise = loading.get(file);
  if (!promise) {
    const url = vendorUrl(file);
    promise = (async () => {
      await after?.();
      if (!existsSync(url)) {
        throw new Error(
          `The DevTools bundle ${VENDOR_FILES[file]} is missing from ${VENDOR_DIR.pathname}. Run "npm run build" to build it.`,
        );
      }
      const started = performance.now();
      const release = holdStringTableRoom(STRING_TABLE_ROOM[file] ?? 0);
      try {
        const module: unknown = await import(url.href);
        loadTimesMs.set(file, performance.now() - started);
        debug(`loaded ${VENDOR_FILES[file]} in ${Math.round(performance.now() - started)} ms`);
        return module;
      } catch (error) {
        throw new Error(`Could not load the DevTools bundle ${VENDOR_FILES[file]}: ${errorMessage(error)}`, {
          cause: error,
        });
      } finally {
        release();
      }
    })();
    // A failed load may be retried after a rebuild.
    promise.catch(() => loading.delete(file));
    loading.set(file, promise);
  }
  return promise as Promise<T>;
}

/** Installs the ES2024/2025 built-ins DevTools code needs (no-op on Node 22+). */
export function loadPolyfills(): Promise<void> {
  return importOnce<unknown>('polyfills').then(() => undefined);
}

async function loadDevTools<T extends {setUpDevTools(): void}>(file: VendorFile): Promise<T> {
  const bundle = await importOnce<T>(file, loadPolyfills);
  bundle.setUpDevTools();
  return bundle;
}

/** The trace engine and the performance formatters. */
export function loadTraceBundle(): Promise<TraceBundle> {
  return loadDevTools<TraceBundle>('trace');
}

/** DevTools' SDK target with the DOM and CSS models. */
export function loadCssBundle(): Promise<CssBundle> {
  return loadDevTools<CssBundle>('css');
}

/** Lighthouse (scripts/vendor/lighthouse.mjs); its types are in devtools/lighthouse/bundle.ts. */
export function loadLighthouseModule<T>(): Promise<T> {
  return importOnce<T>('lighthouse', loadPolyfills);
}

/**
 * DevTools' heap-snapshot model, worker side, for the heap host's threads
 * (they import it themselves; it carries its own polyfills).
 */
export function heapSnapshotUrl(): URL {
  return vendorUrl('heapSnapshot');
}
