import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, it} from 'node:test';

import * as ChromeLauncher from 'chrome-launcher';

import {
  buildChromeFlags,
  DEFAULT_CHROME_FLAGS,
  DISABLED_FEATURES,
  HEADLESS_CHROME_FLAGS,
} from '../../../src/cdp/flags.js';

const SOURCE = new URL('../../../../src/cdp/flags.ts', import.meta.url);
const base = {headless: false, chromeArgs: [], ignoreDefaultChromeArgs: []};

describe('default Chrome flags', () => {
  it("start from chrome-launcher's defaults, in their order, then add ours; RenderDocument stays on", () => {
    // All but RenderDocument among the disabled features (see DISABLED_FEATURES).
    const theirs = ChromeLauncher.Launcher.defaultFlags().map(flag =>
      flag.startsWith('--disable-features=') ? flag.replace(/,RenderDocument\b/, '') : flag,
    );
    assert.ok(!DISABLED_FEATURES.includes('RenderDocument'));
    assert.deepEqual(DEFAULT_CHROME_FLAGS.slice(0, theirs.length), theirs);
    assert.deepEqual(DEFAULT_CHROME_FLAGS.slice(theirs.length), [
      '--hide-crash-restore-bubble',
      '--enable-automation',
      '--disable-infobars',
    ]);
  });

  it('say why each flag and each disabled feature is there, one comment each', () => {
    const lines = readFileSync(SOURCE, 'utf8').split('\n');
    const entries = lines.flatMap((line, i) => (/^ {2}['`]/.test(line) ? [i] : []));
    assert.equal(entries.length, DEFAULT_CHROME_FLAGS.length + DISABLED_FEATURES.length);
    for (const i of entries) {
      assert.match(lines[i - 1] ?? '', /^ {2}\/\/ \S/, `no comment above: ${lines[i]}`);
    }
  });

  it('are all used unless left out by full text or by name', () => {
    assert.deepEqual(buildChromeFlags(base, false), DEFAULT_CHROME_FLAGS);
    const flags = buildChromeFlags({...base, ignoreDefaultChromeArgs: ['--password-store', '--mute-audio']}, false);
    assert.equal(flags.length, DEFAULT_CHROME_FLAGS.length - 2);
    assert.equal(
      flags.some(f => f.startsWith('--password-store') || f === '--mute-audio'),
      false,
    );
  });

  it("give a headless Chrome chrome-devtools-mcp's 4K screen and no scrollbars, unless left out", () => {
    const headless = buildChromeFlags({...base, headless: true}, false);
    assert.deepEqual(headless.slice(DEFAULT_CHROME_FLAGS.length), ['--headless', ...HEADLESS_CHROME_FLAGS]);
    assert.ok(headless.includes('--screen-info={3840x2160}'));
    assert.ok(headless.includes('--hide-scrollbars'));
    const without = buildChromeFlags({...base, headless: true, ignoreDefaultChromeArgs: ['--screen-info']}, false);
    assert.equal(without.includes('--screen-info={3840x2160}'), false);
    assert.ok(without.includes('--hide-scrollbars'));
    assert.equal(buildChromeFlags(base, false).includes('--hide-scrollbars'), false);
  });
});
