import assert from 'node:assert/strict';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {describe, it} from 'node:test';

import {pageBoundsFor} from '../../../src/browser/core/pageBounds.js';
import {parseConfig} from '../../../src/config/options.js';

describe('--maxOutputChars, --downloadsDir, --experimentalRawCdp', () => {
  it('have their defaults', () => {
    const c = parseConfig([]);
    assert.equal(c.maxOutputChars, 30_000);
    assert.equal(c.downloadsDir, join(tmpdir(), 'cdp-mcp-downloads'));
    assert.equal(c.experimentalRawCdp, false);
  });

  it('take values', () => {
    const c = parseConfig(['--maxOutputChars=4000', '--downloads-dir', 'dl', '--experimentalRawCdp']);
    assert.equal(c.maxOutputChars, 4000);
    assert.equal(parseConfig(['--maxOutputChars', '0']).maxOutputChars, 0, '0 turns the cap off');
    assert.equal(c.downloadsDir, resolve('dl'));
    assert.equal(c.experimentalRawCdp, true);
  });

  it('explain bad values', () => {
    assert.throws(
      () => parseConfig(['--maxOutputChars', '10']),
      /--maxOutputChars must be at least 500 \(or 0 to turn it off\), not 10\./,
    );
    assert.throws(() => parseConfig(['--downloadsDir', ' ']), /--downloadsDir needs a folder path\./);
  });
});

describe('--pageCallTimeout', () => {
  it('leaves the bounds of calls on a page that does not answer as they are without it', () => {
    assert.equal(parseConfig([]).pageCallTimeout, undefined);
    assert.deepEqual(pageBoundsFor(undefined), {workMs: 60_000, answerMs: 30_000});
  });

  it('sets every one of them to its seconds', () => {
    const c = parseConfig(['--pageCallTimeout', '5']);
    assert.deepEqual(pageBoundsFor(c.pageCallTimeout), {workMs: 5_000, answerMs: 5_000});
    assert.equal(parseConfig(['--page-call-timeout=2.5']).pageCallTimeout, 2.5);
  });

  it('explains bad values', () => {
    assert.throws(() => parseConfig(['--pageCallTimeout', '0']), /--pageCallTimeout must be .*1.*not 0/);
  });
});
