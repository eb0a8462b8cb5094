import assert from 'node:assert/strict';
import {existsSync, statSync} from 'node:fs';
import {mkdir, mkdtemp, readdir, readFile, rm, symlink} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {startHttpServer} from '../support/httpClient.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const CSV = 'a,b\n1,2\n';

function downloadSite(fixtures: FixtureServer): void {
  fixtures.route('/data.csv', {headers: {'content-type': 'text/csv'}, body: CSV});
  fixtures.route('/attachment', {
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="../../evil.txt"',
    },
    body: 'payload',
  });
  fixtures.route('/slow.csv', {headers: {'content-type': 'text/csv'}, body: CSV, delayMs: 700});
  fixtures.html(
    '/page',
    '<!doctype html><title>dl</title><a href="/data.csv" download="report.csv">Get report</a> <a href="/attachment">Get attachment</a> <a href="/slow.csv" download>Get slow</a>',
  );
}

describe('downloads', () => {
  let fixtures: FixtureServer;
  let dir: string;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    downloadSite(fixtures);
    dir = join(await mkdtemp(join(tmpdir(), 'cdp-mcp-downloads-test-')), 'saved');
    mcp = await startServer({args: ['--downloadsDir', dir]});
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await rm(join(dir, '..'), {recursive: true, force: true});
  });

  it('reports the download in the response of the click that started it', async () => {
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    const r = await mcp.call('click', {pageId: 1, uid: uidOf(snapshot.text, /link "Get report"/)});
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      [
        'Successfully clicked on the element',
        '## Downloads started',
        `download=1 "report.csv" [completed, ${CSV.length} bytes] from ${fixtures.url('/data.csv')} saved to ${join(dir, 'report.csv')} (page 1)`,
      ].join('\n'),
    );
    assert.equal(await readFile(join(dir, 'report.csv'), 'utf8'), CSV);
  });

  it('never overwrites: a second download of the same name gets a new one', async () => {
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    const r = await mcp.call('click', {pageId: 1, uid: uidOf(snapshot.text, /link "Get report"/)});
    assert.match(
      r.text,
      /download=2 "report\.csv" \[completed, 8 bytes\] .* saved to \S+\/report \(2\)\.csv \(page 1\)/,
    );
    assert.deepEqual((await readdir(dir)).sort(), ['report (2).csv', 'report.csv']);
  });

  it('keeps a server-suggested name inside the folder', async () => {
    const r = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/attachment')});
    assert.match(r.text, /## Downloads started\ndownload=3 "_\.\._evil\.txt" \[completed, 7 bytes\]/);
    assert.equal(await readFile(join(dir, '_.._evil.txt'), 'utf8'), 'payload');
    assert.ok(!existsSync(join(dir, '..', '..', 'evil.txt')));
  });

  it('waits for a slow server to start the download, and sees script-made blob downloads', async () => {
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    const slow = await mcp.call('click', {pageId: 1, uid: uidOf(snapshot.text, /link "Get slow"/)});
    assert.match(slow.text, /## Downloads started\ndownload=4 "slow\.csv" \[completed, 8 bytes\]/);
    const blob = await mcp.call('evaluate_script', {
      pageId: 1,
      function:
        '() => { const a = document.createElement("a"); a.href = URL.createObjectURL(new Blob(["made here"])); a.download = "made.txt"; a.click(); return "clicked"; }',
    });
    assert.match(
      blob.text,
      /## Downloads started\ndownload=5 "made\.txt" \[completed, 9 bytes\] from blob:http:\/\/127\.0\.0\.1:\d+\/[-0-9a-f]+ saved to /,
    );
    assert.equal(await readFile(join(dir, 'made.txt'), 'utf8'), 'made here');
  });

  it('lists every download with its state, size and path', async () => {
    const r = await mcp.call('list_downloads');
    assert.equal(r.isError, false, r.text);
    const lines = r.text.split('\n');
    assert.equal(lines[0], '## Downloads');
    assert.equal(lines.length, 6);
    assert.match(
      lines[1] ?? '',
      /^download=1 "report\.csv" \[completed, 8 bytes\] from http:\/\/\S+\/data\.csv saved to \S+report\.csv \(page 1\)$/,
    );
    const unknown = await mcp.call('list_downloads', {pageId: 1});
    assert.equal(unknown.isError, true);
    assert.match(
      unknown.text,
      /Unknown argument for tool "list_downloads": "pageId"\. This tool does not accept any arguments/,
    );
  });
});

describe('a downloads folder outside the allowed roots', () => {
  it('refuses downloads and writes nothing', async () => {
    const fixtures = await new FixtureServer().start();
    downloadSite(fixtures);
    const outside = `/cdp-mcp-refused-downloads-${process.pid}`;
    const mcp = await startServer({args: ['--downloadsDir', outside]});
    try {
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
      const snapshot = await mcp.call('take_snapshot', {pageId: 1});
      const r = await mcp.call('click', {pageId: 1, uid: uidOf(snapshot.text, /link "Get report"/)});
      assert.match(
        r.text,
        new RegExp(
          `## Downloads started\\ndownload=1 "report\\.csv" \\[refused: --downloadsDir ${outside} is not allowed: Access denied: path ${outside} .* is not within any of the configured workspace roots`,
        ),
      );
      assert.ok(!existsSync(outside), 'the folder was never created');
      const list = await mcp.call('list_downloads');
      assert.match(list.text, /\[refused: /);
    } finally {
      await mcp.close();
      await fixtures.stop();
    }
  });
});

describe('the default downloads folder', () => {
  it('is created for its owner only, and refused when someone planted a link there', async () => {
    const fixtures = await new FixtureServer().start();
    downloadSite(fixtures);
    // The server's OS temp dir, where the default folder lives.
    const temp = await mkdtemp(join(tmpdir(), 'cdp-mcp-default-dl-'));
    const folder = join(temp, 'cdp-mcp-downloads');
    const click = async (mcp: TestServer) => {
      await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/page')});
      const snapshot = await mcp.call('take_snapshot', {pageId: 1});
      return mcp.call('click', {pageId: 1, uid: uidOf(snapshot.text, /link "Get report"/)});
    };
    try {
      let mcp = await startServer({env: {TMPDIR: temp}});
      try {
        const r = await click(mcp);
        assert.match(r.text, new RegExp(`\\[completed, 8 bytes\\] .* saved to ${folder}/report\\.csv`));
        assert.equal(statSync(folder).mode & 0o777, 0o700);
      } finally {
        await mcp.close();
      }
      await rm(folder, {recursive: true});
      const elsewhere = join(temp, 'elsewhere');
      await mkdir(elsewhere);
      await symlink(elsewhere, folder);
      mcp = await startServer({env: {TMPDIR: temp}});
      try {
        const r = await click(mcp);
        assert.match(
          r.text,
          new RegExp(
            `download=1 "report\\.csv" \\[refused: --downloadsDir ${folder} is not allowed: ${folder} is a symbolic link, not a folder`,
          ),
        );
        assert.deepEqual(await readdir(elsewhere), [], 'nothing was written where the link points');
      } finally {
        await mcp.close();
      }
    } finally {
      await fixtures.stop();
      await rm(temp, {recursive: true, force: true});
    }
  });
});

describe('downloads of HTTP sessions', () => {
  it("shows each session only its own downloads, and another session's never", async () => {
    const fixtures = await new FixtureServer().start();
    downloadSite(fixtures);
    const dir = join(await mkdtemp(join(tmpdir(), 'cdp-mcp-downloads-sessions-')), 'saved');
    const server = await startHttpServer({args: ['--downloadsDir', dir]});
    try {
      const a = await server.connect();
      const b = await server.connect();
      const pageA = Number(/(\d+): .*\[selected\]/.exec((await a.call('list_pages')).text)?.[1]);
      await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/page')});
      const snapshot = await a.call('take_snapshot', {pageId: pageA});
      const click = await a.call('click', {pageId: pageA, uid: uidOf(snapshot.text, /link "Get report"/)});
      assert.match(click.text, /\[completed, 8 bytes\] .*report\.csv/);
      assert.match((await a.call('list_downloads')).text, /report\.csv/);
      const other = await b.call('list_downloads');
      assert.equal(other.isError, false, other.text);
      assert.doesNotMatch(other.text, /report\.csv|data\.csv/);
      // A session's page that closed keeps its downloads in that session's list.
      await a.call('new_page', {url: 'about:blank'});
      await a.call('close_page', {pageId: pageA});
      assert.match((await a.call('list_downloads')).text, /report\.csv/);
      await a.close();
      await b.close();
    } finally {
      await server.close();
      await fixtures.stop();
      await rm(dirname(dir), {recursive: true, force: true});
    }
  });
});
