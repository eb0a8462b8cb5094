import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';

describe('fixture server: files from packages', () => {
  let server: FixtureServer;
  let dir: string;
  let outside: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fixture-mount-'));
    outside = await mkdtemp(join(tmpdir(), 'fixture-outside-'));
    await mkdir(join(dir, 'pkg', 'dist'), {recursive: true});
    await writeFile(join(dir, 'pkg', 'dist', 'app.js'), 'window.app = 1;');
    await writeFile(join(dir, 'pkg', 'dist', 'app.css'), 'body{}');
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(outside, join(dir, 'pkg', 'escape'));
    server = await new FixtureServer().start();
    await server.mount('/node_modules/', dir);
    server.html('/page', '<p>page</p>');
  });
  after(async () => {
    await server.stop();
    await rm(dir, {recursive: true, force: true});
    await rm(outside, {recursive: true, force: true});
  });

  it('serves files with the content type of their extension', async () => {
    const js = await fetch(server.url('/node_modules/pkg/dist/app.js'));
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await js.text(), 'window.app = 1;');
    const css = await fetch(server.url('/node_modules/pkg/dist/app.css'));
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  });

  it('answers 404 for missing files, directories, ".." and symlinks out of the mount', async () => {
    for (const path of [
      '/node_modules/pkg/dist/missing.js',
      '/node_modules/pkg/dist',
      '/node_modules/pkg/..%2f..%2fetc%2fpasswd',
      '/node_modules/%2e%2e/%2e%2e/etc/passwd',
      '/node_modules/pkg/escape/secret.txt',
    ]) {
      const response = await fetch(server.url(path));
      assert.equal(response.status, 404, path);
    }
  });

  it('serves the same page under a second, cross-site host name', async () => {
    assert.match(server.crossSiteUrl('/page'), /^http:\/\/localhost:\d+\/page$/);
    assert.notEqual(new URL(server.crossSiteUrl('/page')).hostname, new URL(server.url('/page')).hostname);
    assert.equal(await (await fetch(server.url('/page'))).text(), '<p>page</p>');
  });
});
