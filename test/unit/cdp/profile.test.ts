import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {hostname, tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, it} from 'node:test';

import {
  defaultUserDataDir,
  disableNetworkPrediction,
  prepareProfile,
  PROFILE_PREFIX,
  removeStaleProfiles,
} from '../../../src/cdp/profile.js';

describe('profiles', () => {
  const root = mkdtempSync(join(tmpdir(), 'profile-test-'));
  after(() => rmSync(root, {recursive: true, force: true}));

  /** A pid that belonged to a process that has exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

  function leftover(name: string, owner?: string, ageMs = 0): string {
    const dir = join(root, `${PROFILE_PREFIX}${name}`);
    mkdirSync(dir);
    if (owner !== undefined) {
      writeFileSync(join(dir, 'cdp-mcp-owner'), owner);
    }
    const time = (Date.now() - ageMs) / 1000;
    utimesSync(dir, time, time);
    return dir;
  }

  it('makes a temporary profile owned by this server, and removes it', () => {
    const profile = prepareProfile({isolated: true}, root);
    assert.equal(profile.temporary, true);
    assert.ok(profile.dir.startsWith(join(root, PROFILE_PREFIX)));
    assert.equal(readFileSync(join(profile.dir, 'cdp-mcp-owner'), 'utf8'), `${hostname()} ${process.pid}`);
    profile.remove();
    assert.equal(existsSync(profile.dir), false);
  });

  it('creates a persistent profile and never removes it', () => {
    const dir = join(root, 'persistent', 'nested');
    const profile = prepareProfile({isolated: false, userDataDir: dir}, root);
    assert.equal(profile.temporary, false);
    assert.ok(existsSync(dir));
    profile.remove();
    assert.ok(existsSync(dir));
  });

  it('removes leftovers of dead servers and old unowned ones, keeps the rest', () => {
    const dead = leftover('dead', `${hostname()} ${deadPid()}`);
    const alive = leftover('alive', `${hostname()} ${process.pid}`);
    const otherHost = leftover('other-host', `elsewhere ${deadPid()}`);
    const oldUnowned = leftover('old', undefined, 11 * 60_000);
    const newUnowned = leftover('new');
    const unrelated = join(root, 'not-a-profile');
    mkdirSync(unrelated);
    removeStaleProfiles(root);
    assert.equal(existsSync(dead), false);
    assert.equal(existsSync(oldUnowned), false);
    for (const kept of [alive, otherHost, newUnowned, unrelated]) {
      assert.ok(existsSync(kept), `${kept} was removed`);
    }
  });

  it('keeps one persistent profile per channel', () => {
    assert.match(defaultUserDataDir(), /cdp-mcp[/\\]chrome-profile$/);
    assert.match(defaultUserDataDir('stable'), /cdp-mcp[/\\]chrome-profile$/);
    assert.match(defaultUserDataDir('canary'), /cdp-mcp[/\\]chrome-profile-canary$/);
  });
});

describe('disableNetworkPrediction', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-prediction-'));
  after(() => rmSync(dir, {recursive: true, force: true}));

  it('sets net.network_prediction_options to 2 in a new profile', () => {
    disableNetworkPrediction(join(dir, 'new'));
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'new', 'Default', 'Preferences'), 'utf8')), {
      net: {network_prediction_options: 2},
    });
  });

  it('keeps the other preferences of an existing profile', () => {
    mkdirSync(join(dir, 'old', 'Default'), {recursive: true});
    const prefs = {browser: {x: 1}, net: {network_prediction_options: 0, other: true}};
    writeFileSync(join(dir, 'old', 'Default', 'Preferences'), JSON.stringify(prefs));
    disableNetworkPrediction(join(dir, 'old'));
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'old', 'Default', 'Preferences'), 'utf8')), {
      browser: {x: 1},
      net: {network_prediction_options: 2, other: true},
    });
  });
});
