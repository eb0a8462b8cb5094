import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {type FinderEnvironment, resolveExecutable} from '../../../src/cdp/finder.js';

/** A machine with exactly these files, and what chrome-launcher would find on it. */
function machine(files: string[], env: NodeJS.ProcessEnv = {}, detected?: string, wsl = false): FinderEnvironment {
  return {
    env,
    platform: 'linux',
    wsl,
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

  it('on WSL prefers Linux browsers and never picks a Windows one unless passed with --executablePath', () => {
    const windows = '/mnt/c/Program Files/Google/Chrome/Application/chrome.exe';
    const linux = ['/usr/bin/chromium', '/opt/google/chrome/chrome'];
    // chrome-launcher finds the Windows Chrome on WSL: an installed Linux one wins over it.
    assert.equal(resolveExecutable({}, machine([windows, ...linux], {}, windows, true)), '/opt/google/chrome/chrome');
    assert.equal(
      resolveExecutable({}, machine([windows, '/usr/bin/chromium'], {}, windows, true)),
      '/usr/bin/chromium',
    );
    assert.equal(
      resolveExecutable({}, machine([windows, '/usr/bin/chromium'], {CHROME_PATH: windows}, undefined, true)),
      '/usr/bin/chromium',
    );
    // Asked for explicitly, it is launched.
    assert.equal(resolveExecutable({executablePath: windows}, machine([windows], {}, windows, true)), windows);
    assert.throws(() => resolveExecutable({}, machine([windows], {CHROME_PATH: windows}, windows, true)), {
      message:
        'No Chrome or Chromium found. Install Chrome, set CHROME_PATH, or pass --executablePath /path/to/chrome. Skipped the Windows Chrome at /mnt/c/Program Files/Google/Chrome/Application/chrome.exe: from WSL the server launches a Linux browser (install one in WSL: sudo apt-get install chromium). To drive the Windows Chrome, start it with --remote-debugging-port and attach with --browserUrl, or pass it with --executablePath to launch it anyway.',
    });
    // Not on WSL, the order is unchanged: what chrome-launcher finds comes before distribution Chromium.
    assert.equal(resolveExecutable({}, machine(linux, {}, '/found')), '/found');
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
