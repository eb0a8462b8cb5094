/**
 * `--categoryExtensions` against real Chromium, side by side with the
 * reference: a manifest v3 extension the test writes (a toolbar action and a
 * service worker that opens a fixture URL when the action is clicked) is
 * installed, listed, reloaded, triggered and uninstalled. Unpacked extension
 * ids derive from the folder, so both servers print the same ones.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {deferred, withTimeout} from '../../src/util/async.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

/** Bounds of the waits below (an unbounded wait once hung a CI run). */
const LISTENER_WAIT_MS = 20_000;
const CLICK_WAIT_MS = 30_000;

describe('--categoryExtensions', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;
  let dir: string;
  const clicked = deferred<void>();
  let id = '';

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/start', '<title>Start</title>start');
    fixtures.route('/clicked', (_req, res) => {
      clicked.resolve();
      res.writeHead(200, {'content-type': 'text/html'});
      res.end('<title>Clicked</title>clicked');
    });
    dir = mkdtempSync(join(tmpdir(), 'ext-test-'));
    const manifest = {
      manifest_version: 3,
      name: 'Test Action',
      version: '1.2.3',
      action: {default_title: 'Test'},
      background: {service_worker: 'sw.js'},
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(
      join(dir, 'sw.js'),
      `chrome.action.onClicked.addListener(() => chrome.tabs.create({url: ${JSON.stringify(fixtures.url('/clicked'))}}));`,
    );
    pair = await startOraclePair({args: ['--categoryExtensions']});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
    rmSync(dir, {recursive: true, force: true});
  });

  async function both(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const [ours, theirs] = await Promise.all([pair.ours.call(name, args), pair.theirs.call(name, args)]);
    assert.deepEqual(ours, theirs, `${name} ${JSON.stringify(args)}`);
    return ours.text;
  }

  it('lists no extensions at first', async () => {
    assert.equal(await both('list_extensions'), '## Extensions\nNo extensions installed.');
  });

  it('installs an unpacked extension and lists it', async () => {
    const installed = await both('install_extension', {path: dir});
    id = /^Extension installed\. Id: ([a-p]{32})$/.exec(installed)?.[1] ?? '';
    assert.ok(id, installed);
    assert.equal(await both('list_extensions'), `## Extensions\nid=${id} "Test Action" v1.2.3 Enabled`);
  });

  it("triggers the extension's action on the selected page", async () => {
    // The page list navigate_page prints has the extension's worker in it
    // while Chrome runs that worker, which depends on when it registered and
    // whether it was stopped meanwhile, in each browser: compared without it
    // (extensionWorkers.test.ts checks the section itself).
    const [ours, theirs] = (
      await Promise.all(
        [pair.ours, pair.theirs].map(server => server.call('navigate_page', {pageId: 1, url: fixtures.url('/start')})),
      )
    ).map(r => ({...r, text: r.text.replace(/\n## Extension Service Workers(\nsw-\d+: .*)*/, '')}));
    assert.deepEqual(ours, theirs);
    const start = fixtures.url('/start');
    assert.equal(ours?.text, `Successfully navigated to ${start}.\n## Pages\n1: Start (${start}) [selected]`);
    // Chrome drops an action click that comes before the new extension's
    // worker has registered its listener: wait (bounded) until it has.
    const deadline = Date.now() + LISTENER_WAIT_MS;
    let listening = false;
    while (!listening && Date.now() < deadline) {
      const pages = await pair.ours.call('list_pages');
      const worker = new RegExp(`\\n(sw-\\d+): chrome-extension://${id}/`).exec(pages.text)?.[1];
      if (worker) {
        const r = await pair.ours.call('evaluate_script', {
          serviceWorkerId: worker,
          function: '() => chrome.action.onClicked.hasListeners()',
        });
        listening = /returned:\n```json\ntrue\n```/.test(r.text);
      }
      if (!listening) {
        await new Promise(resolve => setTimeout(resolve, 100));
      }
    }
    assert.ok(listening, `the extension's worker registered no action listener within ${LISTENER_WAIT_MS} ms`);
    const triggered = await pair.ours.call('trigger_extension_action', {id});
    assert.equal(triggered.isError, false, triggered.text);
    assert.equal(triggered.text, `Extension action triggered for ID ${id}`);
    // The service worker opened its tab: the fixture saw the request.
    await withTimeout(clicked.promise, CLICK_WAIT_MS, `the action's tab did not open within ${CLICK_WAIT_MS} ms`);
  });

  it('reloads it, and reports unknown ids', async () => {
    assert.equal(await both('reload_extension', {id}), 'Extension reloaded.');
    const unknown = await both('reload_extension', {id: 'a'.repeat(32)});
    assert.match(unknown, /Extension with ID a{32} not found\./);
  });

  it('uninstalls it', async () => {
    assert.equal(await both('uninstall_extension', {id}), `Extension uninstalled. Id: ${id}`);
    assert.equal(await both('list_extensions'), '## Extensions\nNo extensions installed.');
  });
});
