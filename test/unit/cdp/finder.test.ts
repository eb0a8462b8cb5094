import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {type FinderEnvironment, resolveExecutable} from '../../../src/cdp/finder.js';

/** A machine with exactly these files, and what chrome-launcher would find on it. */
function machine(files: string[], env: NodeJS.ProcessEnv = {}, detected?: string): FinderEnvironment {
  return {
    env,
    platform: 'linux',
    exists: path => files.includes(path),
    detect: () => {
      if (!detected) {
        throw new Error('not installed');
      }
      return detected;
    },
  };
}

describe('resolveExecutable', () => {
  it('prefers --executablePath, then the channel, then CHROME_PATH, then detection, then distribution Chromium', () => {
    const all = ['/x/chrome', '/opt/google/chrome-beta/chrome', '/env/chrome', '/usr/bin/chromium'];
    const env = {CHROME_PATH: '/env/chrome'};
    assert.equal(resolveExecutable({executablePath: '/x/chrome', channel: 'beta'}, machine(all, env)), '/x/chrome');
    assert.equal(resolveExecutable({channel: 'beta'}, machine(all, env, '/found')), '/opt/google/chrome-beta/chrome');
    assert.equal(resolveExecutable({}, machine(all, env, '/found')), '/env/chrome');
    assert.equal(resolveExecutable({}, machine(all, {CHROME_PATH: '/gone'}, '/found')), '/found');
    assert.equal(resolveExecutable({}, machine(all)), '/usr/bin/chromium');
    // Stable not at its usual place: any Chrome will do.
    assert.equal(resolveExecutable({channel: 'stable'}, machine(all)), '/usr/bin/chromium');
  });

  it('says what to install or pass when nothing is there', () => {
    assert.throws(() => resolveExecutable({executablePath: '/nope'}, machine([])), {
      message:
        'Chrome executable not found at /nope. Pass the path of an installed Chrome or Chromium with --executablePath.',
    });
    assert.throws(() => resolveExecutable({channel: 'canary'}, machine(['/usr/bin/chromium'])), {
      message:
        'Chrome canary is not installed (looked in /opt/google/chrome-canary/chrome). Install it or pass --executablePath.',
    });
    assert.throws(
      () => resolveExecutable({}, machine([])),
      /^Error: No Chrome or Chromium found\. Install Chrome, set CHROME_PATH/,
    );
  });
});
