/**
 * `--screenshotMaxWidth` / `--screenshotMaxHeight`: screenshots larger than
 * the bounds come back scaled down with their aspect ratio kept.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(base64: string): {width: number; height: number} {
  const bytes = Buffer.from(base64, 'base64');
  return {width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20)};
}

describe('screenshot size limits', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/tall', '<!doctype html><body style="margin:0"><div style="height:2400px;background:teal"></div>');
    mcp = await startServer({
      args: ['--viewport', '800x600', '--screenshotMaxWidth', '400', '--screenshotMaxHeight', '600'],
    });
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/tall')});
  });
  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
  });

  it('scales a viewport screenshot down to the width bound', async () => {
    const shot = await mcp.call('take_screenshot', {pageId: 1});
    assert.equal(shot.isError, false, shot.text);
    assert.deepEqual(pngSize(shot.images[0]?.data ?? ''), {width: 400, height: 300});
  });

  it('lets the tighter bound win for a tall full-page screenshot', async () => {
    const shot = await mcp.call('take_screenshot', {pageId: 1, fullPage: true});
    assert.equal(shot.isError, false, shot.text);
    const {width, height} = pngSize(shot.images[0]?.data ?? '');
    assert.equal(height, 600);
    assert.ok(Math.abs(width - 200) <= 1, `width ${width}`);
  });
});
