/**
 * Threat: one HTTP token holder (session B) reaching the files of another
 * (session A) on the same server. A downloads a file and writes a storage
 * state, a heap snapshot and a snapshot text into its own folder; B tries
 * every tool that takes a path on them, to read and to overwrite. None may
 * succeed, A's folder is closed to other users, and it is gone when A ends.
 */
import assert from 'node:assert/strict';
import {existsSync, readFileSync, rmSync, statSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {type HttpSession, type HttpTestServer, startHttpServer} from '../../support/httpClient.js';
import {uidOf} from '../../support/snapshotText.js';

const SECRET_DOWNLOAD = 'A-SECRET-DOWNLOAD';
const SECRET_COOKIE = 'A-SECRET-COOKIE';

const pageIdOf = (text: string) => Number(/(\d+): .*\[selected\]/.exec(text)?.[1]);

function site(fixtures: FixtureServer): void {
  fixtures.route('/secret.csv', {headers: {'content-type': 'text/csv'}, body: SECRET_DOWNLOAD});
  fixtures.route('/login', {headers: {'set-cookie': `sid=${SECRET_COOKIE}; HttpOnly; Path=/`}, body: 'logged in'});
  fixtures.html('/dl', '<!doctype html><title>dl</title><a href="/secret.csv" download="report.csv">Get report</a>');
  fixtures.html(
    '/upload',
    `<!doctype html><title>up</title><input type="file" id="f" aria-label="Pick">
     <script>f.onchange = async () => { document.title = 'read:' + (await f.files[0].text()); };</script>`,
  );
}

describe('security: one HTTP session cannot reach the files of another', () => {
  let fixtures: FixtureServer;
  let server: HttpTestServer;
  let a: HttpSession;
  let b: HttpSession;
  let pageA: number;
  let pageB: number;
  /** A's files: its download, and what it wrote into its own folder. */
  const files = {download: '', folder: '', state: '', heap: '', text: ''};
  const tag = `files-${process.pid}-${Date.now()}`;

  before(async () => {
    fixtures = await new FixtureServer().start();
    site(fixtures);
    server = await startHttpServer({args: ['--memoryDebugging', '--categoryExtensions']});
    a = await server.connect();
    b = await server.connect();
    pageA = pageIdOf((await a.call('list_pages')).text);
    pageB = pageIdOf((await b.call('list_pages')).text);

    await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/login')});
    await a.call('navigate_page', {pageId: pageA, url: fixtures.url('/dl')});
    const snapshot = await a.call('take_snapshot', {pageId: pageA});
    const click = await a.call('click', {pageId: pageA, uid: uidOf(snapshot.text, /link "Get report"/)});
    files.download = /saved to (\S+report[^ ]*\.csv)/.exec(click.text)?.[1] ?? '';
    assert.ok(files.download, `A's download was saved somewhere:\n${click.text}`);
    assert.equal(readFileSync(files.download, 'utf8'), SECRET_DOWNLOAD);
    // A's own folder holds its downloads folder.
    files.folder = dirname(dirname(files.download));

    const state = await a.call('save_storage_state', {pageId: pageA, filePath: join(files.folder, `${tag}.json`)});
    files.state = /to (\S+\.json):/.exec(state.text)?.[1] ?? '';
    assert.ok(files.state && readFileSync(files.state, 'utf8').includes(SECRET_COOKIE), state.text);
    const heap = await a.call('take_heapsnapshot', {pageId: pageA, filePath: join(files.folder, tag)});
    files.heap = /saved to (\S+)/.exec(heap.text)?.[1] ?? '';
    assert.ok(files.heap && existsSync(files.heap), heap.text);
    const text = await a.call('take_snapshot', {pageId: pageA, filePath: join(files.folder, `${tag}.txt`)});
    files.text = /Saved snapshot to (\S+)\./.exec(text.text)?.[1] ?? '';
    assert.ok(files.text && existsSync(files.text), text.text);

    await b.call('navigate_page', {pageId: pageB, url: fixtures.url('/upload')});
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await server?.close();
    await fixtures?.stop();
    // On a server without private folders these would stay in the shared temp dir.
    for (const path of [files.download, files.state, files.heap, files.text]) {
      if (path) {
        rmSync(path, {force: true});
      }
    }
  });

  it("keeps A's folder closed to other users", () => {
    assert.equal(statSync(files.folder).mode & 0o077, 0, `${files.folder} is private`);
    assert.equal(statSync(dirname(files.download)).mode & 0o077, 0, 'its downloads folder too');
  });

  it("refuses B's reads of A's files through every tool that takes a path", async () => {
    const snapshot = await b.call('take_snapshot', {pageId: pageB});
    const input = uidOf(snapshot.text, /Pick/);
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['upload_file', {pageId: pageB, uid: input, filePaths: [files.download]}],
      ['load_storage_state', {pageId: pageB, filePath: files.state}],
      [
        'mock_network_request',
        {pageId: pageB, urlPattern: fixtures.url('/mocked'), status: 200, bodyFilePath: files.download},
      ],
      ['evaluate_script', {pageId: pageB, sourcePath: files.text}],
      ['get_heapsnapshot_summary', {filePath: files.heap}],
      ['compare_heapsnapshots', {baseFilePath: files.heap, currentFilePath: files.heap}],
      ['install_extension', {path: dirname(files.download)}],
    ];
    for (const [tool, args] of attempts) {
      const r = await b.call(tool, args);
      assert.equal(r.isError, true, `${tool} must be refused:\n${r.text}`);
      assert.match(r.text, /Access denied/, `${tool} is refused by the sandbox`);
      assert.doesNotMatch(r.text, new RegExp(`${SECRET_DOWNLOAD}|${SECRET_COOKIE}`), `${tool} shows nothing of A's`);
    }
    const title = await b.call('evaluate_script', {pageId: pageB, function: '() => document.title'});
    assert.doesNotMatch(title.text, /read:/, 'the page of B never got a file');
  });

  it("refuses B's writes into A's folder, and A's files stay as they were", async () => {
    const before = readFileSync(files.state, 'utf8');
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      ['save_storage_state', {pageId: pageB, filePath: files.state}, files.state],
      ['take_snapshot', {pageId: pageB, filePath: join(dirname(files.download), 'b.txt')}, ''],
      ['take_screenshot', {pageId: pageB, filePath: join(files.folder, `${tag}-b.png`)}, ''],
      ['take_heapsnapshot', {pageId: pageB, filePath: files.heap}, ''],
    ];
    for (const [tool, args] of attempts) {
      const r = await b.call(tool, args);
      assert.equal(r.isError, true, `${tool} must be refused:\n${r.text}`);
      assert.match(r.text, /Access denied/, `${tool} is refused by the sandbox`);
    }
    assert.equal(readFileSync(files.state, 'utf8'), before, "A's state file is unchanged");
    assert.equal(existsSync(join(dirname(files.download), 'b.txt')), false);
    assert.equal(existsSync(join(files.folder, `${tag}-b.png`)), false);
    const list = await b.call('list_downloads');
    assert.doesNotMatch(list.text, /report/, "B does not see A's download");
  });

  it("removes A's folder, with its download and files, when A's session ends", async () => {
    await a.close();
    for (const path of [files.download, files.state, files.heap, files.text]) {
      assert.equal(existsSync(path), false, `${path} is gone with A's session`);
    }
  });
});
