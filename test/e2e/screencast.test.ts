import assert from 'node:assert/strict';
import {chmod, mkdtemp, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {findProcesses, startServer, type TestServer} from '../support/mcpClient.js';
import {majorBrand, sampleCount} from '../support/mp4.js';

/**
 * A page that repaints every frame, so a recording has something to encode:
 * a counter only, where the whole page changing colour on every frame made
 * each frame a full picture to encode (a core busy for as long as it was open).
 */
const ANIMATED = `<!doctype html><title>anim</title><h1 id="h">0</h1>
<script>let n = 0; (function tick() { h.textContent = String(n++); requestAnimationFrame(tick); })();</script>`;

function savedPath(text: string): string {
  const m = /saved to (\S+)\.$/m.exec(text);
  assert.ok(m?.[1], text);
  return m[1];
}

/**
 * The first page's size: recordings are taken at the viewport's size, and the
 * headless default (1905x2053, chrome-devtools-mcp's) made every frame a
 * 4-megapixel picture to encode: 60 frames took a core 20 s on a busy machine.
 */
const VIEWPORT = ['--viewport', '800x600'];

const pause = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/**
 * Waits until the animated page has drawn `count` more frames (it changes on
 * every one): a recording made meanwhile has had that many to capture,
 * however slow the machine is, where a fixed pause may see one or two.
 */
async function drawFrames(mcp: TestServer, pageId: number, count: number): Promise<void> {
  const drawn = await mcp.call('evaluate_script', {
    pageId,
    function: `async () => { for (let i = 0; i < ${count}; i++) await new Promise(requestAnimationFrame); return ${count}; }`,
  });
  assert.equal(drawn.isError, false, drawn.text);
}

/** Opens `url` as a popup of page 1 (so the popup may close itself) and returns its page id. */
async function openPopup(mcp: TestServer, url: string): Promise<number> {
  const before = await mcp.call('list_pages');
  await mcp.call('evaluate_script', {
    pageId: 1,
    function: `() => { window.open(${JSON.stringify(url)}); return true; }`,
  });
  // Bounded by time, not by a count of looks: a busy machine may take seconds to open it.
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const list = await mcp.call('list_pages');
    const ids = [...list.text.matchAll(/^(\d+): /gm)].map(m => Number(m[1]));
    const fresh = ids.find(id => !before.text.includes(`\n${id}: `));
    if (fresh !== undefined && list.text.includes('anim (')) {
      return fresh;
    }
    await pause(50);
  }
  throw new Error('the popup did not open');
}

/** Has the page close itself, then waits (bounded) until the server no longer lists it. */
async function closeItself(mcp: TestServer, id: number): Promise<void> {
  await mcp.call('evaluate_script', {
    pageId: id,
    function: '() => { setTimeout(() => window.close(), 50); return true; }',
  });
  for (
    const end = Date.now() + 30_000;
    (await mcp.call('list_pages')).text.includes(`\n${id}: `) && Date.now() < end;
  ) {
    await pause(50);
  }
  assert.doesNotMatch((await mcp.call('list_pages')).text, new RegExp(`\n${id}: `));
}

async function screencastDirs(): Promise<string[]> {
  const dirs = [];
  for (const name of await readdir(tmpdir())) {
    if (
      name.startsWith('cdp-mcp-') &&
      (await readdir(join(tmpdir(), name)).catch((): string[] => [])).includes('screencast.mp4')
    ) {
      dirs.push(name);
    }
  }
  return dirs;
}

describe('screencast (Chrome recorder)', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'screencast-test-'));
    fixtures = await new FixtureServer().start();
    fixtures.html('/anim', ANIMATED);
    mcp = await startServer({args: VIEWPORT});
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/anim')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await rm(dir, {recursive: true, force: true});
  });

  it('records the page to an mp4 with frames, forcing the extension', async () => {
    const start = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'clip.webm')});
    assert.equal(start.isError, false, start.text);
    const target = join(dir, 'clip.mp4');
    assert.equal(
      start.text,
      `Screencast recording started. The recording will be saved to ${target}. Use screencast_stop to stop recording.`,
    );
    // Chrome's recorder starts capturing a moment after it answers (on a busy
    // machine, after the page has drawn many frames): draw for a second at least.
    const begun = Date.now();
    await drawFrames(mcp, 1, 60);
    await pause(Math.max(0, 1_000 - (Date.now() - begun)));
    const stop = await mcp.call('screencast_stop', {pageId: 1});
    assert.equal(stop.isError, false, stop.text);
    assert.equal(stop.text, `The screencast recording has been stopped and saved to ${target}.`);
    const video = await readFile(target);
    assert.ok(video.length > 2_000, `only ${video.length} bytes`);
    assert.equal(majorBrand(video), 'isom');
    assert.ok(sampleCount(video) >= 5, `only ${sampleCount(video)} frames`);
  });

  it('defaults to screencast.mp4 in a fresh temp folder', async () => {
    const start = await mcp.call('screencast_start', {pageId: 1});
    const path = /saved to (\S+)\. Use/.exec(start.text)?.[1] ?? '';
    assert.match(path, /\/cdp-mcp-[^/]+\/screencast\.mp4$/, start.text);
    await pause(300);
    const stop = await mcp.call('screencast_stop', {pageId: 1});
    assert.equal(savedPath(stop.text), path);
    assert.equal(majorBrand(await readFile(path)), 'isom');
    await rm(join(path, '..'), {recursive: true, force: true});
  });

  it('refuses a second start, a stop without start and paths outside the roots', async () => {
    const first = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'one.mp4')});
    assert.equal(first.isError, false, first.text);
    const second = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'two.mp4')});
    assert.equal(second.isError, true);
    assert.equal(
      second.text,
      'Error: a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one.',
    );
    // The first recording is unaffected.
    assert.equal(savedPath((await mcp.call('screencast_stop', {pageId: 1})).text), join(dir, 'one.mp4'));
    await assert.rejects(stat(join(dir, 'two.mp4')));

    const stop = await mcp.call('screencast_stop', {pageId: 1});
    assert.equal(stop.isError, true);
    assert.equal(stop.text, 'Error: no active screencast recording to stop.');

    const outside = await mcp.call('screencast_start', {pageId: 1, filePath: '/proc/screencast.mp4'});
    assert.equal(outside.isError, true);
    assert.match(
      outside.text,
      /^Error: Access denied: path \/proc\/screencast\.mp4 .* not within any of the configured/,
    );
    assert.equal(
      (await mcp.call('screencast_stop', {pageId: 1})).text,
      'Error: no active screencast recording to stop.',
    );
  });

  it('records pages independently, saves the recording of a page closed with close_page', async () => {
    await mcp.call('new_page', {url: fixtures.url('/anim')});
    const a = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'page1.mp4')});
    const b = await mcp.call('screencast_start', {pageId: 2, filePath: join(dir, 'page2.mp4')});
    assert.equal(a.isError || b.isError, false, `${a.text}\n${b.text}`);
    await pause(500);
    const closed = await mcp.call('close_page', {pageId: 2});
    assert.equal(closed.isError, false, closed.text);
    assert.match(
      closed.text,
      /^The screencast recording has been stopped and saved to .*page2\.mp4\.\n(Note: .*\n)?## Pages/,
    );
    assert.equal(majorBrand(await readFile(join(dir, 'page2.mp4'))), 'isom');
    const stop = await mcp.call('screencast_stop', {pageId: 1});
    assert.equal(savedPath(stop.text), join(dir, 'page1.mp4'));
  });

  it('ends the recording of a page that closes itself, and records again elsewhere', async () => {
    const id = await openPopup(mcp, fixtures.url('/anim'));
    assert.equal((await mcp.call('screencast_start', {pageId: id, filePath: join(dir, 'gone.mp4')})).isError, false);
    await closeItself(mcp, id);
    const stop = await mcp.call('screencast_stop', {pageId: id});
    assert.equal(stop.isError, true);
    assert.match(stop.text, new RegExp(`No page found with id ${id}\\.`));
    await assert.rejects(stat(join(dir, 'gone.mp4')));
    const again = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'again.mp4')});
    assert.equal(again.isError, false, again.text);
    await pause(200);
    assert.equal(majorBrand(await readFile(savedPath((await mcp.call('screencast_stop', {pageId: 1})).text))), 'isom');
  });
});

/**
 * The legacy recorder pipes PNG frames into ffmpeg. ffmpeg is not installed
 * on the test machine (Debian's package pulls 79 more), so the happy path runs
 * against a stand-in that reads the frames and reports what it got: this
 * checks our side (arguments, frame timing, process lifecycle), not the encoding.
 */
const FAKE_FFMPEG = `#!/usr/bin/env node
const chunks = [];
process.stdin.on('data', c => chunks.push(c));
process.stdin.on('end', () => {
  const all = Buffer.concat(chunks);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let frames = 0;
  for (let i = all.indexOf(signature); i !== -1; i = all.indexOf(signature, i + 1)) frames++;
  process.stdout.write(JSON.stringify({frames, args: process.argv.slice(2)}));
});
`;

describe('screencast (legacy ffmpeg recorder)', () => {
  let fixtures: FixtureServer;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'screencast-legacy-'));
    fixtures = await new FixtureServer().start();
    fixtures.html('/anim', ANIMATED);
  });

  after(async () => {
    await fixtures?.stop();
    await rm(dir, {recursive: true, force: true});
  });

  it('says ffmpeg is missing, and leaves no temp folder behind', async () => {
    // A missing --experimentalFfmpegPath is refused at startup; ffmpeg missing from PATH shows when recording starts.
    const mcp = await startServer({args: ['--experimentalScreencast', ...VIEWPORT], env: {PATH: dir}});
    try {
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/anim')});
      const before = await screencastDirs();
      const r = await mcp.call('screencast_start', {pageId: 1});
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        'Error: ffmpeg is required for screencast recording but was not found. Install ffmpeg (https://ffmpeg.org/) and ensure it is available in your PATH.',
      );
      assert.deepEqual(await screencastDirs(), before);
      const bad = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'clip.gif')});
      assert.equal(
        bad.text,
        'Error: Unsupported screencast file extension ".gif". Supported formats: .webm, .mp4 (case-insensitive).',
      );
      assert.equal(
        (await mcp.call('screencast_stop', {pageId: 1})).text,
        'Error: no active screencast recording to stop.',
      );
    } finally {
      await mcp.close();
    }
  });

  it('pipes the frames at the configured rate into ffmpeg and saves its output', async () => {
    const ffmpeg = join(dir, 'fake-ffmpeg');
    await writeFile(ffmpeg, FAKE_FFMPEG);
    await chmod(ffmpeg, 0o755);
    // The stand-in's command line (the server's own has the path too, as a flag value).
    const running = `${ffmpeg} -loglevel`;
    const mcp = await startServer({
      args: ['--experimentalScreencast', '--experimentalFfmpegPath', ffmpeg, '--screencastFps', '10', ...VIEWPORT],
    });
    try {
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/anim')});
      const started = Date.now();
      const start = await mcp.call('screencast_start', {pageId: 1, filePath: join(dir, 'clip.WEBM')});
      assert.equal(start.isError, false, start.text);
      assert.match(start.text, /saved to .*clip\.webm\./);
      // At least a second, and the page drew meanwhile (frames to feed).
      await drawFrames(mcp, 1, 30);
      await pause(Math.max(0, 1_000 - (Date.now() - started)));
      const stop = await mcp.call('screencast_stop', {pageId: 1});
      const seconds = (Date.now() - started) / 1000;
      assert.equal(stop.isError, false, stop.text);
      const report = JSON.parse(await readFile(savedPath(stop.text), 'utf8')) as {frames: number; args: string[]};
      const arg = (name: string) => report.args[report.args.indexOf(name) + 1];
      assert.equal(arg('-framerate'), '10');
      assert.equal(arg('-vcodec'), 'png');
      assert.equal(report.args[report.args.lastIndexOf('-f') + 1], 'webm');
      // 10 fps for as long as it recorded (the first frames may take a moment to come).
      assert.ok(
        report.frames >= 5 && report.frames <= Math.ceil(seconds * 10) + 2,
        `${report.frames} frames in ${seconds} s`,
      );
      assert.deepEqual(await findProcesses(running), []);

      // A recording whose page closes by itself: ffmpeg is stopped with it.
      const id = await openPopup(mcp, fixtures.url('/anim'));
      await mcp.call('screencast_start', {pageId: id, filePath: join(dir, 'gone.mp4')});
      assert.equal((await findProcesses(running)).length, 1);
      await closeItself(mcp, id);
      // SIGKILL is immediate, but the process table may lag a moment.
      for (const end = Date.now() + 30_000; (await findProcesses(running)).length && Date.now() < end;) {
        await pause(50);
      }
      assert.deepEqual(await findProcesses(running), []);
    } finally {
      await mcp.close();
    }
  });
});
