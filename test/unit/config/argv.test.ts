import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {parseArgv} from '../../../src/config/argv.js';
import {defineFlags} from '../../../src/config/flagSpec.js';

const TABLE = defineFlags({
  headless: {type: 'boolean', group: 'launch', description: 'x.'},
  pageIdRouting: {type: 'boolean', group: 'tools', default: true, description: 'x.'},
  browserUrl: {type: 'string', group: 'attach', alias: ['u'], description: 'x.'},
  filesystemRoot: {type: 'array', group: 'network', alias: ['workspace'], description: 'x.'},
  quality: {type: 'number', group: 'tools', description: 'x.'},
});

const parse = (...argv: string[]) => parseArgv(argv, TABLE);

describe('parseArgv', () => {
  it('takes camelCase, kebab-case and single-dash names, and aliases short and long', () => {
    assert.deepEqual(parse('-u', 'http://a', '--page-id-routing', '-headless').values, {
      browserUrl: 'http://a',
      pageIdRouting: true,
      headless: true,
    });
    assert.deepEqual(parse('--workspace', '/a', '--filesystem-root=/b', '--filesystemRoot', '/c').values, {
      filesystemRoot: ['/a', '/b', '/c'],
    });
  });

  it('negates on/off flags in every spelling, and takes true/false inline or as the next word', () => {
    for (const argv of [['--no-headless'], ['--noHeadless'], ['--headless=false'], ['--headless', 'false']]) {
      assert.deepEqual(parse(...argv), {values: {headless: false}, unknown: []}, argv.join(' '));
    }
    assert.deepEqual(parse('--no-page-id-routing=false').values, {pageIdRouting: true});
    assert.deepEqual(parse('--headless', 'http://x').unknown, ['http://x']);
  });

  it('takes values that start with a dash, and the last of repeated single values', () => {
    assert.deepEqual(parse('--browserUrl', '--x', '--browserUrl=http://b').values, {browserUrl: 'http://b'});
    assert.deepEqual(parse('--filesystemRoot', '--lang=de').values, {filesystemRoot: ['--lang=de']});
    assert.deepEqual(parse('--quality', '7.5').values, {quality: 7.5});
  });

  it('collects what it does not know, as typed, without failing', () => {
    assert.deepEqual(parse('--whatever', 'stray', '--no-browserUrl', '--constructor', '--u', '-x=1').unknown, [
      '--whatever',
      'stray',
      '--no-browserUrl',
      '--constructor',
      '--u',
      '-x=1',
    ]);
  });

  it('says what is wrong with a malformed value', () => {
    assert.throws(() => parse('--headless=yes'), {message: '--headless takes true or false, not "yes".'});
    assert.throws(() => parse('--quality', 'high'), {message: '--quality takes a number, not "high".'});
    assert.throws(() => parse('-u'), {message: '--browserUrl needs a value.'});
  });
});
