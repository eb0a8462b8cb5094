import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {parseActivePortStrict} from '../../../src/cdp/autoConnect.js';
import {chromeUserDataDir} from '../../../src/cdp/userDataDirs.js';

describe('default Chrome profiles (--autoConnect)', () => {
  it('follows Chrome on Linux, honouring CHROME_CONFIG_HOME and XDG_CONFIG_HOME', () => {
    const home = '/home/u';
    assert.equal(chromeUserDataDir('stable', 'linux', {}, home), '/home/u/.config/google-chrome');
    assert.equal(chromeUserDataDir('beta', 'linux', {}, home), '/home/u/.config/google-chrome-beta');
    assert.equal(chromeUserDataDir('dev', 'linux', {}, home), '/home/u/.config/google-chrome-unstable');
    assert.equal(chromeUserDataDir('canary', 'linux', {}, home), '/home/u/.config/google-chrome-canary');
    assert.equal(chromeUserDataDir('stable', 'linux', {XDG_CONFIG_HOME: '/x'}, home), '/x/google-chrome');
    assert.equal(
      chromeUserDataDir('stable', 'linux', {XDG_CONFIG_HOME: '/x', CHROME_CONFIG_HOME: '/c'}, home),
      '/c/google-chrome',
    );
  });

  it('follows Chrome on macOS and Windows', () => {
    assert.equal(
      chromeUserDataDir('canary', 'darwin', {}, '/Users/u'),
      '/Users/u/Library/Application Support/Google/Chrome Canary',
    );
    assert.equal(
      chromeUserDataDir('stable', 'darwin', {}, '/Users/u'),
      '/Users/u/Library/Application Support/Google/Chrome',
    );
    assert.equal(
      chromeUserDataDir('stable', 'win32', {LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local'}, 'C:\\Users\\u'),
      'C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\User Data',
    );
    assert.equal(
      chromeUserDataDir('canary', 'win32', {}, 'C:\\Users\\u'),
      'C:\\Users\\u\\AppData\\Local\\Google\\Chrome SxS\\User Data',
    );
  });

  it('takes the profiles folder from CDP_MCP_CHROME_USER_DATA_ROOT', () => {
    const env = {CDP_MCP_CHROME_USER_DATA_ROOT: '/tmp/r', XDG_CONFIG_HOME: '/x'};
    assert.equal(chromeUserDataDir('beta', 'linux', env, '/home/u'), '/tmp/r/google-chrome-beta');
    assert.equal(chromeUserDataDir('dev', 'darwin', env, '/Users/u'), '/tmp/r/Chrome Dev');
  });

  it('reads DevToolsActivePort strictly', () => {
    assert.deepEqual(parseActivePortStrict('9222\n/devtools/browser/ab-12\n'), {
      port: 9222,
      wsUrl: 'ws://127.0.0.1:9222/devtools/browser/ab-12',
    });
    assert.equal(parseActivePortStrict('70000\n/devtools/browser/x\n'), undefined);
    assert.equal(parseActivePortStrict('0\n/devtools/browser/x\n'), undefined);
    assert.equal(parseActivePortStrict('9222\n'), undefined);
    assert.equal(parseActivePortStrict('9222x\n/devtools/browser/x\n'), undefined);
  });
});
