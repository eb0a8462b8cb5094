/**
 * `--categoryPwa` against real Chromium, side by side with the reference: a
 * fixture app with a manifest is installed, inspected, launched and
 * uninstalled over the launched Chrome's debugging pipe.
 */
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../support/fixtureServer.js';
import {SERVER_BIN} from '../support/mcpClient.js';
import {type OraclePair, startOraclePair} from '../support/oracle.js';

describe('--categoryPwa', () => {
  let fixtures: FixtureServer;
  let pair: OraclePair;
  let manifestId = '';

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.route('/manifest.json', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/manifest+json'});
      // Chrome fetches install info only for a manifest that lists an icon (it need not load).
      res.end(
        JSON.stringify({
          name: 'Test App',
          id: '/app',
          start_url: '/app/',
          display: 'standalone',
          icons: [{src: '/icon.png', sizes: '192x192', type: 'image/png'}],
        }),
      );
    });
    fixtures.html(
      '/app/',
      '<!doctype html><link rel="icon" href="data:,"><link rel="manifest" href="/manifest.json"><title>App</title>app',
    );
    manifestId = fixtures.url('/app');
    pair = await startOraclePair({args: ['--categoryPwa'], record: 'pwa'});
  });
  after(async () => {
    await pair?.close();
    await fixtures?.stop();
  });

  async function both(name: string, args: Record<string, unknown> = {}): Promise<{text: string; isError: boolean}> {
    const [ours, theirs] = await Promise.all([pair.ours.call(name, args), pair.theirs.call(name, args)]);
    assert.deepEqual(ours, theirs, `${name} ${JSON.stringify(args)}`);
    return ours;
  }

  it('reports apps that are not installed', async () => {
    const state = await both('get_os_app_state', {manifestId});
    assert.equal(state.isError, true);
  });

  it('installs an app, shows its OS state, launches and uninstalls it', async () => {
    const installed = await both('install_pwa', {
      manifestId,
      installUrlOrBundleUrl: fixtures.url('/app/'),
      displayMode: 'standalone',
    });
    assert.equal(installed.text, `Installed PWA with manifest ID: ${manifestId}\nDisplay mode set to: standalone`);
    const state = await both('get_os_app_state', {manifestId});
    assert.equal(state.text, `OS app state for manifest ID: ${manifestId}\nBadge count: 0\nFile handlers: []`);
    const launched = await both('launch_pwa', {manifestId});
    assert.equal(launched.isError, false, launched.text);
    assert.match(
      launched.text,
      new RegExp(`^Launched PWA with manifest ID: ${manifestId} \\(${fixtures.url('/app/')}\\)\\n## Pages\\n`),
    );
    assert.match(launched.text, /\d+: App \(/);
    const uninstalled = await both('uninstall_pwa', {manifestId});
    assert.equal(uninstalled.isError, false, uninstalled.text);
    assert.match(uninstalled.text, new RegExp(`^Uninstalled PWA with manifest ID: ${manifestId}\\n## Pages\\n`));
    assert.equal((await pair.ours.call('get_os_app_state', {manifestId})).isError, true);
  });
});

describe('--categoryPwa with an attached Chrome', () => {
  it('is refused at startup with the reference message and exit code 2', () => {
    const run = spawnSync(process.execPath, [SERVER_BIN, '--categoryPwa', '--browserUrl', 'http://127.0.0.1:9'], {
      encoding: 'utf8',
      input: '',
    });
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /--categoryPwa is only supported with a pipe connection \(a Chrome this server launches\); autoConnect, browserUrl, and wsEndpoint are not supported\./,
    );
  });
});
