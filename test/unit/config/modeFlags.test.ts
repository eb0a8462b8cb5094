import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {parseConfig} from '../../../src/config/options.js';

describe('--config files', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'config-test-'));
  });
  after(() => rmSync(dir, {recursive: true, force: true}));

  it('reads flags by camelCase name, the command line winning', () => {
    const path = file('ok.json', JSON.stringify({headless: true, chromeArg: ['--lang=de'], screenshotFormat: 'jpeg'}));
    const config = parseConfig(['--config', path, '--screenshotFormat', 'webp']);
    assert.equal(config.headless, true);
    assert.deepEqual(config.chromeArgs, ['--lang=de']);
    assert.equal(config.screenshotFormat, 'webp');
  });

  it('checks the file values as the command line does', () => {
    const path = file('enum.json', JSON.stringify({screenshotFormat: 'gif'}));
    assert.throws(() => parseConfig(['--config', path]), /screenshotFormat/);
  });

  it('names the key that is unknown or of the wrong type, and the file that is missing or not JSON', () => {
    assert.throws(() => parseConfig(['--config', file('unknown.json', '{"headles": true}')]), /unknown key "headles"/);
    assert.throws(
      () => parseConfig(['--config', file('type.json', '{"headless": "yes"}')]),
      /"headless" must be true or false, not a string/,
    );
    assert.throws(() => parseConfig(['--config', join(dir, 'missing.json')]), /no such file/);
    assert.throws(() => parseConfig(['--config', file('bad.json', '{')]), /is not valid JSON/);
    assert.throws(() => parseConfig(['--config', file('array.json', '[]')]), /must hold a JSON object/);
  });
});

describe('mode and category flags', () => {
  it('accepts every flag of chrome-devtools-mcp 1.11 with its default', () => {
    const config = parseConfig([]);
    for (const flag of ['categoryInput', 'categoryNavigation', 'categoryDebugging', 'categoryMemory'] as const) {
      assert.equal(config[flag], true, flag);
    }
    for (const flag of ['categoryExtensions', 'categoryPwa', 'categoryExperimentalWebmcp', 'slim'] as const) {
      assert.equal(config[flag], false, flag);
    }
    assert.equal(config.javascriptEvaluation, true);
    assert.equal(parseConfig(['--no-javascript-evaluation']).javascriptEvaluation, false);
    assert.equal(parseConfig(['--experimentalMemory']).memoryDebugging, true);
  });

  it('rejects bad values of the new flags with what to change', () => {
    assert.throws(() => parseConfig(['--screenshotMaxWidth', '0']), /screenshotMaxWidth/);
    assert.throws(() => parseConfig(['--screenshotQuality', '50.5']), /must be a whole number/);
    assert.throws(() => parseConfig(['--filesystemRoot', '/no/such/dir']), /no such directory/);
    assert.throws(
      () => parseConfig(['--experimentalFfmpegPath', '/no/such/ffmpeg', '--experimentalScreencast']),
      /no such file/,
    );
    assert.throws(
      () => parseConfig(['--categoryPwa', '--wsEndpoint', 'ws://a']),
      /only supported with a pipe connection/,
    );
  });
});
