/**
 * Extension service workers with `--categoryExtensions`, side by side with
 * the reference: evaluate_script's serviceWorkerId (a `sw-<n>` id of
 * list_pages) and list_console_messages' serviceWorkerId (the extension id,
 * as the reference keys its worker log). A manifest v3 extension the test
 * writes logs at start; an uncaught error is thrown on request (the
 * reference misses errors thrown before its own session to the worker is up).
 */
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {sleep} from '../../src/util/async.js';
import {FixtureServer} from '../support/fixtureServer.js';
import type {CallResult, TestServer} from '../support/mcpClient.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

/** Bound of the wait for the worker to start and log (both servers). */
const WORKER_START_DEADLINE_MS = 20_000;
const POLL_MS = 100;

const WORKER_SCRIPT = `console.log('worker started', 42, {a: 1});
console.warn('careful');
self.greet = name => 'hello ' + name;
`;

describe('--categoryExtensions: service workers', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;
  let dir: string;
  let extensionId = '';

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/page', '<!doctype html><link rel="icon" href="data:,"><title>Page</title>page');
    dir = mkdtempSync(join(tmpdir(), 'ext-sw-test-'));
    const manifest = {
      manifest_version: 3,
      name: 'Worker Log',
      version: '1.0',
      background: {service_worker: 'sw.js'},
      content_scripts: [{matches: ['http://127.0.0.1/*'], js: ['content.js']}],
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(join(dir, 'sw.js'), WORKER_SCRIPT);
    writeFileSync(join(dir, 'content.js'), "console.log('from the content script');");
    pair = await startOraclePair({args: ['--categoryExtensions']});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
    rmSync(dir, {recursive: true, force: true});
  });

  async function both(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const [ours, theirs] = await Promise.all([pair.ours.call(name, args), pair.theirs.call(name, args)]);
    assert.deepEqual(ours, theirs, `${name} ${JSON.stringify(args)}`);
    return ours;
  }

  /** Calls until `done` holds for the text (the worker starts and logs on its own), within the deadline. */
  async function until(server: TestServer, name: string, args: Record<string, unknown>, done: (t: string) => boolean) {
    const deadline = Date.now() + WORKER_START_DEADLINE_MS;
    for (;;) {
      const {text} = await server.call(name, args);
      if (done(text)) {
        return text;
      }
      if (Date.now() > deadline) {
        assert.fail(`${name} did not show what was expected within ${WORKER_START_DEADLINE_MS} ms:\n${text}`);
      }
      await sleep(POLL_MS);
    }
  }

  it('offers serviceWorkerId with the reference’s parameters', async () => {
    const shapes = await Promise.all(
      [pair.ours, pair.theirs].map(async server => {
        const {tools} = await server.client.listTools();
        return Object.fromEntries(
          tools
            .filter(t => t.name === 'evaluate_script' || t.name === 'list_console_messages')
            .map(t => [
              t.name,
              // An empty required list and none are the same schema.
              {params: Object.keys(t.inputSchema.properties ?? {}), required: t.inputSchema.required ?? []},
            ]),
        );
      }),
    );
    assert.deepEqual(shapes[0], shapes[1]);
    assert.ok(shapes[0]?.['evaluate_script']?.params.includes('serviceWorkerId'));
    // pageId turns optional: a page or a worker.
    assert.ok(!(shapes[0]?.['evaluate_script']?.required ?? []).includes('pageId'));
  });

  it('lists the worker once the extension is installed', async () => {
    const installed = await both('install_extension', {path: dir});
    extensionId = /Id: ([a-p]{32})$/.exec(installed.text)?.[1] ?? '';
    assert.ok(extensionId, installed.text);
    const shown = (text: string) => text.includes('## Extension Service Workers');
    await Promise.all([pair.ours, pair.theirs].map(server => until(server, 'list_pages', {}, shown)));
    const listed = await both('list_pages');
    assert.match(listed.text, new RegExp(`\\nsw-1: chrome-extension://${extensionId}/sw\\.js$`));
  });

  it("lists the worker's console messages by extension id", async () => {
    const args = {pageId: 1, serviceWorkerId: extensionId};
    // The worker has run its script once its last start-up message is in.
    const started = (text: string) => text.includes('careful');
    await Promise.all([pair.ours, pair.theirs].map(server => until(server, 'list_console_messages', args, started)));
    await both('evaluate_script', {
      serviceWorkerId: 'sw-1',
      function: "() => { setTimeout(() => { throw new Error('boom later'); }, 0); return 'scheduled'; }",
    });
    const thrown = (text: string) => text.includes('Uncaught Error: boom later');
    await Promise.all([pair.ours, pair.theirs].map(server => until(server, 'list_console_messages', args, thrown)));
    const listed = await both('list_console_messages', args);
    assert.equal(
      listed.text,
      [
        '## Console messages',
        'Showing 1-3 of 3 (Page 1 of 1).',
        'msgid=1 [log] worker started 42 [object Object] (3 args)',
        'msgid=2 [warn] careful (1 args)',
        'msgid=3 [error] Uncaught Error: boom later (0 args)',
      ].join('\n'),
    );
    await both('list_console_messages', {...args, types: ['warn']});
    await both('list_console_messages', {...args, includeStackTraces: true});
    // The sw-<n> id names no log (the reference's quirk), nor does the page show the worker's messages.
    const bySwId = await both('list_console_messages', {pageId: 1, serviceWorkerId: 'sw-1'});
    assert.match(bySwId.text, /<no console messages found>/);
    await both('list_console_messages', {pageId: 1});
  });

  it("lists the content script's messages with the page's", async () => {
    const url = fixtures.url('/page');
    await Promise.all([pair.ours, pair.theirs].map(server => server.call('navigate_page', {pageId: 1, url})));
    // Content scripts run at document_idle, which may come just after the load navigate_page waits for.
    const logged = (text: string) => text.includes('from the content script');
    await Promise.all(
      [pair.ours, pair.theirs].map(server => until(server, 'list_console_messages', {pageId: 1}, logged)),
    );
    const listed = await both('list_console_messages', {pageId: 1});
    assert.match(listed.text, /msgid=\d+ \[log\] from the content script \(1 args\)/);
  });

  it('evaluates in the worker', async () => {
    const greeted = await both('evaluate_script', {serviceWorkerId: 'sw-1', function: "() => self.greet('sw')"});
    assert.equal(greeted.text, 'Script ran on page and returned:\n```json\n"hello sw"\n```');
    const id = await both('evaluate_script', {
      serviceWorkerId: 'sw-1',
      function: "async () => { console.info('from evaluate'); return chrome.runtime.id; }",
    });
    assert.match(id.text, new RegExp(`"${extensionId}"`));
    await both('evaluate_script', {serviceWorkerId: 'sw-1', function: 'self.location.pathname', format: 'script'});
    const logged = await both('list_console_messages', {pageId: 1, serviceWorkerId: extensionId, types: ['info']});
    assert.match(logged.text, /msgid=4 \[info\] from evaluate \(1 args\)/);
  });

  it('refuses what the reference refuses, with its texts', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{serviceWorkerId: 'sw-1', pageId: 1}, 'specify either a pageId or a serviceWorkerId.'],
      [
        {serviceWorkerId: 'sw-1', args: ['1_1']},
        'args (element uids) cannot be used when evaluating in a service worker.',
      ],
      [{}, 'specify either a pageId or a serviceWorkerId.'],
      [{serviceWorkerId: ''}, 'specify either a pageId or a serviceWorkerId.'],
      [{serviceWorkerId: 'sw-99'}, 'Service worker not found.'],
    ];
    for (const [args, message] of cases) {
      const result = await both('evaluate_script', {function: '() => 1', ...args});
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.equal(result.text, `Error: ${message}`);
    }
    const thrown = await both('evaluate_script', {
      serviceWorkerId: 'sw-1',
      function: "() => { throw new Error('bad'); }",
    });
    assert.equal(thrown.text, 'Error: bad');
    // A page still works as before.
    await both('evaluate_script', {pageId: 1, function: '() => 1 + 1'});
  });

  // Only ours: after a reload the reference still lists the old worker, and evaluating in it never answers.
  it('drops a reloaded worker and runs in its successor (ours)', async () => {
    const ours = pair.ours;
    assert.equal((await ours.call('reload_extension', {id: extensionId})).text, 'Extension reloaded.');
    const listed = await until(ours, 'list_pages', {}, text => /\nsw-2: /.test(text) && !/\nsw-1: /.test(text));
    assert.match(listed, new RegExp(`\\nsw-2: chrome-extension://${extensionId}/sw\\.js$`));
    assert.equal(
      (await ours.call('evaluate_script', {serviceWorkerId: 'sw-1', function: '() => 1'})).text,
      'Error: Service worker not found.',
    );
    // The log is the extension's: the new worker's start adds to it (and says it ran its script).
    const log = await until(ours, 'list_console_messages', {pageId: 1, serviceWorkerId: extensionId}, text =>
      /msgid=6 \[warn\] careful/.test(text),
    );
    assert.match(log, /Showing 1-6 of 6[^]*\nmsgid=5 \[log\] worker started 42 \[object Object\] \(3 args\)\n/);
    const ran = await ours.call('evaluate_script', {serviceWorkerId: 'sw-2', function: "() => self.greet('again')"});
    assert.match(ran.text, /"hello again"/);
  });
});
