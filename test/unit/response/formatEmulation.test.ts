import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import type {EmulationState} from '../../../src/browser/emulation/emulationState.js';
import {formatEmulation, paginate} from '../../../src/response/format.js';

describe('formatEmulation', () => {
  it('prints nothing when nothing is emulated', () => {
    assert.deepEqual(formatEmulation({}, 10_000), []);
    assert.deepEqual(formatEmulation({cpuThrottlingRate: 1}, 10_000), []);
  });

  it('prints every emulated feature in the reference order', () => {
    const state: EmulationState = {
      prefersReducedMotion: 'reduce',
      prefersContrast: 'more',
      forcedColors: 'active',
      colorScheme: 'dark',
      cpuThrottlingRate: 4,
      userAgent: 'UA/1',
      viewport: {width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true, isLandscape: false},
      geolocation: {latitude: 1.5, longitude: -2},
      networkConditions: 'Slow 3G',
      extraHttpHeaders: {a: 'b'},
    };
    assert.deepEqual(formatEmulation(state, 400_000), [
      'Emulating network conditions: Slow 3G',
      'Default navigation timeout set to 400000 ms',
      'Emulating geolocation: latitude=1.5, longitude=-2',
      'Emulating viewport: {"deviceScaleFactor":3,"isMobile":true,"hasTouch":true,"isLandscape":false,"width":390,"height":844}',
      'Emulating user agent: UA/1',
      'Emulating CPU throttling: 4x slowdown',
      'Emulating color scheme: dark',
      'Emulating forced-colors: active',
      'Emulating prefers-contrast: more',
      'Emulating prefers-reduced-motion: reduce',
    ]);
  });
});

describe('paginate', () => {
  const items = Array.from({length: 45}, (_, i) => i);
  it('shows everything without options', () => {
    assert.deepEqual(paginate(items, undefined, undefined).lines, ['Showing 1-45 of 45 (Page 1 of 1).']);
  });
  it('defaults the page size to 20 and says next/previous', () => {
    const p = paginate(items, undefined, 1);
    assert.deepEqual(p.lines, ['Showing 21-40 of 45 (Page 2 of 3).', 'Next page: 2', 'Previous page: 0']);
    assert.equal(p.items.length, 20);
  });
  it('shows the last page and falls back to the first for an invalid index', () => {
    assert.deepEqual(paginate(items, 20, 2).lines, ['Showing 41-45 of 45 (Page 3 of 3).', 'Previous page: 1']);
    assert.deepEqual(paginate(items, 20, 3).lines, [
      'Invalid page number provided. Showing first page.',
      'Showing 1-20 of 45 (Page 1 of 3).',
      'Next page: 1',
    ]);
  });
});
