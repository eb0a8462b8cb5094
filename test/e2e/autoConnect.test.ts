import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {type RunningChromium, startChromium} from '../support/chromium.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {SERVER_BIN, startServer} from '../support/mcpClient.js';

const ROOT_ENV = 'CDP_MCP_CHROME_USER_DATA_ROOT';

/** A port nothing listens on: one the OS just handed out and we closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as {port: number};
  await new Promise(resolve => server.close(resolve));
  return port;
}

/** The page lines of a list_pages answer. */
function pageLines(text: string): string[] {
  return text.split('\n').filter(line => /^\d+: /.test(line));
}

describe('--autoConnect', () => {
  let fixtures: FixtureServer;
  let root: string;
  let stable: RunningChromium;
  let beta: RunningChromium;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/stable', '<title>Stable</title><p>stable channel</p>');
    fixtures.html('/beta', '<title>Beta</title><p>beta channel</p>');
    fixtures.html('/next', '<title>Next</title><p>navigated by the server</p>');
    root = mkdtempSync(join(tmpdir(), 'cdp-mcp-autoconnect-'));
    // One after the other, so that `after` can end the first if the second fails to start.
    stable = await startChromium({userDataDir: join(root, 'google-chrome'), url: fixtures.url('/stable')});
    beta = await startChromium({userDataDir: join(root, 'google-chrome-beta'), url: fixtures.url('/beta')});
  });

  after(async () => {
    stable?.kill();
    beta?.kill();
    rmSync(root, {recursive: true, force: true});
    await fixtures?.stop();
  });

  it("attaches to the stable channel's running Chrome, drives it, and leaves it running", async () => {
    const mcp = await startServer({args: ['--autoConnect'], replaceFlags: true, env: {[ROOT_ENV]: root}});
    try {
      const listed = await mcp.call('list_pages');
      assert.equal(listed.isError, false, listed.text);
      assert.deepEqual(pageLines(listed.text), [`1: Stable (${fixtures.url('/stable')}) [selected]`]);
      const moved = await mcp.call('navigate_page', {pageId: 1, type: 'url', url: fixtures.url('/next')});
      assert.equal(moved.isError, false, moved.text);
      assert.match(moved.text, /1: Next \(http:\/\/127\.0\.0\.1:\d+\/next\) \[selected\]/);
    } finally {
      await mcp.close();
    }
    assert.equal(stable.alive(), true, 'the server closed the Chrome it attached to');
    // Still usable: its DevTools endpoint answers, and the page the server navigated is there.
    const targets = (await (await fetch(`http://127.0.0.1:${stable.port}/json/list`)).json()) as Array<{url: string}>;
    assert.ok(
      targets.some(t => t.url === fixtures.url('/next')),
      JSON.stringify(targets.map(t => t.url)),
    );
  });

  it('with --channel beta reads the beta profile, and with --userDataDir the given one', async () => {
    const onBeta = await startServer({
      args: ['--autoConnect', '--channel', 'beta'],
      replaceFlags: true,
      env: {[ROOT_ENV]: root},
    });
    try {
      const listed = await onBeta.call('list_pages');
      assert.equal(listed.isError, false, listed.text);
      assert.deepEqual(pageLines(listed.text), [`1: Beta (${fixtures.url('/beta')}) [selected]`]);
    } finally {
      await onBeta.close();
    }
    assert.equal(beta.alive(), true);

    // --userDataDir wins over the channel's default profile (here an empty root).
    const empty = mkdtempSync(join(tmpdir(), 'cdp-mcp-autoconnect-empty-'));
    const onDir = await startServer({
      args: ['--autoConnect', '--userDataDir', join(root, 'google-chrome-beta')],
      replaceFlags: true,
      env: {[ROOT_ENV]: empty},
    });
    try {
      const listed = await onDir.call('list_pages');
      assert.equal(listed.isError, false, listed.text);
      assert.deepEqual(pageLines(listed.text), [`1: Beta (${fixtures.url('/beta')}) [selected]`]);
    } finally {
      await onDir.close();
      rmSync(empty, {recursive: true, force: true});
    }
    assert.equal(beta.alive(), true);
    assert.equal(stable.alive(), true);
  });

  it('says what to do when the profile, its DevToolsActivePort file, or Chrome behind it is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-autoconnect-err-'));
    const profile = join(dir, 'google-chrome-unstable');
    const file = join(profile, 'DevToolsActivePort');
    const mcp = async () =>
      startServer({args: ['--autoConnect', '--channel', 'dev'], replaceFlags: true, env: {[ROOT_ENV]: dir}});
    const answer = async () => {
      const server = await mcp();
      try {
        return await server.call('list_pages');
      } finally {
        await server.close();
      }
    };
    try {
      let r = await answer();
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        `Could not connect to Chrome: there is no Chrome profile at ${profile} (the default of --channel dev). Start Chrome and enable remote debugging at chrome://inspect/#remote-debugging, or pass its profile directory with --userDataDir (the default profiles' folder can be set with ${ROOT_ENV}).`,
      );

      mkdirSync(profile);
      r = await answer();
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        `Could not connect to Chrome in ${profile}: ${file} does not exist, so Chrome is not running on this profile or its remote debugging is off. Start Chrome and enable remote debugging at chrome://inspect/#remote-debugging, or pass its profile directory with --userDataDir (the default profiles' folder can be set with ${ROOT_ENV}).`,
      );

      const port = await closedPort();
      writeFileSync(file, `${port}\n/devtools/browser/0b6c1f4e-stale\n`);
      r = await answer();
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        `Could not connect to Chrome in ${profile}: nothing listens on port ${port} named in ${file}, so the file was left by a Chrome that is no longer running. Start Chrome and enable remote debugging at chrome://inspect/#remote-debugging.`,
      );

      writeFileSync(file, 'not a port\n/json/version\n');
      r = await answer();
      assert.equal(r.isError, true);
      assert.equal(
        r.text,
        `Could not connect to Chrome in ${profile}: ${file} is malformed (expected a port on line 1 and /devtools/browser/<id> on line 2). Restart Chrome, or turn remote debugging off and on at chrome://inspect/#remote-debugging, so that it writes the file again.`,
      );
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  it('rejects bad values and contradictions at startup with exit code 2', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--autoConnect=maybe'], /--autoConnect takes true or false, not "maybe"\./],
      [['--autoConnect', '--channel', 'nightly'], /--channel must be stable, beta, dev or canary, not "nightly"\./],
      [
        ['--autoConnect', '--isolated'],
        /--autoConnect attaches to the Chrome running on your profile; drop --browserUrl\/--wsEndpoint\/--executablePath\/--isolated\./,
      ],
      [
        ['--autoConnect', '--browserUrl', 'http://127.0.0.1:9222'],
        /--autoConnect attaches to the Chrome running on your profile/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = spawnSync(process.execPath, [SERVER_BIN, ...args], {encoding: 'utf8', input: ''});
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });
});
