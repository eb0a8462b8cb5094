import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {parseConfig} from '../../../src/config/options.js';

describe('parseConfig', () => {
  it('accepts camelCase and kebab-case, values inline or separate, repeated arrays', () => {
    const c = parseConfig([
      '--executable-path',
      '/bin/chrome',
      '--headless',
      '--isolated=true',
      '--chromeArg=--a',
      '--chrome-arg',
      '--b=1',
      '--viewport',
      '800x600',
      '--screenshotQuality=50',
    ]);
    assert.equal(c.executablePath, '/bin/chrome');
    assert.equal(c.headless, true);
    assert.equal(c.isolated, true);
    assert.deepEqual(c.chromeArgs, ['--a', '--b=1']);
    assert.deepEqual(c.viewport, {width: 800, height: 600});
    assert.equal(c.screenshotQuality, 50);
  });

  it('negates booleans with --no-', () => {
    assert.equal(parseConfig([]).pageIdRouting, true);
    assert.equal(parseConfig(['--no-page-id-routing']).pageIdRouting, false);
    assert.equal(parseConfig(['--no-categoryEmulation']).categoryEmulation, false);
    assert.equal(parseConfig(['--categoryNetwork=false']).categoryNetwork, false);
  });

  it('collects unknown flags instead of failing', () => {
    assert.deepEqual(parseConfig(['--whatever', '--headless']).unknown, ['--whatever']);
  });

  it('explains bad values and combinations', () => {
    assert.throws(() => parseConfig(['--viewport', 'wide']), /--viewport must look like 1280x720, not "wide"/);
    assert.throws(
      () => parseConfig(['--browserUrl', 'x', '--wsEndpoint', 'ws://a']),
      /either --browserUrl or --wsEndpoint/,
    );
    assert.throws(() => parseConfig(['--browserUrl', 'localhost:9222']), /must be an http\(s\) URL/);
    assert.throws(() => parseConfig(['--wsEndpoint', 'ws://a', '--wsHeaders', '[1]']), /must be a JSON object/);
    assert.throws(() => parseConfig(['--wsHeaders', '{"a":"b"}']), /--wsHeaders goes with --wsEndpoint/);
    assert.throws(() => parseConfig(['--isolated', '--userDataDir', '/x']), /exclude each other/);
    assert.throws(() => parseConfig(['--channel', 'nightly']), /stable, beta, dev or canary/);
    assert.throws(() => parseConfig(['--screenshotQuality', '150']), /between 0 and 100/);
    assert.throws(() => parseConfig(['--logFile']), /--logFile needs a value/);
    assert.throws(() => parseConfig(['--browserUrl', 'http://a:1', '--executablePath', '/c']), /for launching/);
  });

  it('turns on the heap analysis tools with --memoryDebugging or its alias, and takes a memory limit', () => {
    assert.equal(parseConfig([]).memoryDebugging, false);
    assert.equal(parseConfig(['--memoryDebugging']).memoryDebugging, true);
    assert.equal(parseConfig(['--experimental-memory']).memoryDebugging, true);
    assert.equal(parseConfig(['--experimentalMemory', '--no-memory-debugging']).memoryDebugging, false);
    assert.equal(parseConfig(['--heapSnapshotMemoryLimit=512']).heapSnapshotMemoryLimit, 512);
    assert.throws(
      () => parseConfig(['--heapSnapshotMemoryLimit=0']),
      /--heapSnapshotMemoryLimit must be at least 1, not 0/,
    );
  });

  it('parses ws headers into strings', () => {
    const c = parseConfig([
      '--wsEndpoint',
      'ws://h/devtools/browser/x',
      '--wsHeaders',
      '{"Authorization":"Bearer t","n":1}',
    ]);
    assert.deepEqual(c.wsHeaders, {Authorization: 'Bearer t', n: '1'});
  });

  it('reads the HTTP flags, with their defaults and checks', () => {
    const c = parseConfig([
      '--port=0',
      '--host',
      '::1',
      '--allowedOrigin',
      'https://app.example.com',
      '--sessionIdleTimeout=90',
      '--parallel-sessions',
    ]);
    assert.equal(c.port, 0);
    assert.equal(c.host, '::1');
    assert.deepEqual(c.allowedOrigins, ['https://app.example.com']);
    assert.equal(c.sessionIdleTimeout, 90);
    assert.equal(c.maxSessions, 16);
    assert.equal(c.parallelSessions, true);
    assert.equal(c.sharedContext, false);
    assert.equal(parseConfig([]).port, undefined);
    assert.equal(parseConfig([]).host, '127.0.0.1');
    assert.throws(() => parseConfig(['--port', '70000']), /--port must be between 0 and 65535, not 70000/);
    assert.throws(() => parseConfig(['--port', '80.5']), /--port must be a whole number, not 80.5/);
    assert.throws(() => parseConfig(['--port=1', '--maxSessions=0']), /--maxSessions must be at least 1/);
    assert.throws(() => parseConfig(['--authToken', 'x']), /--authToken only applies to the HTTP server: add --port/);
    assert.throws(() => parseConfig(['--port=1', '--allowedOrigin', 'app.example.com']), /must be an origin such as/);
  });
});

describe('screencast flags', () => {
  it('takes the legacy recorder, its ffmpeg and a frame rate (also under its old name)', () => {
    const c = parseConfig([
      '--experimentalScreencast',
      '--experimentalFfmpegPath',
      process.execPath,
      '--screencastFps=12',
    ]);
    assert.equal(c.experimentalScreencast, true);
    // Any existing file passes the startup check; whether it is ffmpeg shows when recording.
    assert.equal(c.experimentalFfmpegPath, process.execPath);
    assert.equal(c.screencastFps, 12);
    assert.equal(parseConfig(['--experimentalScreencastFps', '5']).screencastFps, 5);
    assert.equal(parseConfig([]).experimentalScreencast, false);
  });

  it('refuses an ffmpeg path without the legacy recorder, and frame rates that are not positive integers', () => {
    assert.throws(() => parseConfig(['--experimentalFfmpegPath', '/opt/ffmpeg']), /add --experimentalScreencast/);
    assert.throws(() => parseConfig(['--screencastFps', '0']), /--screencastFps must be at least 1, not 0\./);
    assert.throws(() => parseConfig(['--screencastFps', '2.5']), /--screencastFps must be a whole number, not 2\.5\./);
  });
});
