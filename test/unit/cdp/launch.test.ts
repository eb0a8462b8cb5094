import assert from 'node:assert/strict';
import {type ChildProcess, spawn, type SpawnOptions} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {hostname, tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, afterEach, before, describe, it} from 'node:test';

import type {BrowserEndpoint} from '../../../src/cdp/browserEndpoint.js';
import {DEFAULT_CHROME_FLAGS} from '../../../src/cdp/flags.js';
import {launchChrome, type LaunchOptions} from '../../../src/cdp/launch.js';
import {PROFILE_PREFIX} from '../../../src/cdp/profile.js';

/**
 * Stands in for Chrome: a Node process that, like Chrome, reads commands on
 * fd 3 and answers on fd 4 (NUL-terminated JSON; by mode, it exits at once or
 * never answers), then runs until killed.
 */
const STUB = `
import {createReadStream, createWriteStream} from 'node:fs';
const [mode] = process.argv.slice(2);
if (mode === 'crash') process.exit(1);
const out = createWriteStream(null, {fd: 4});
let buffer = '';
createReadStream(null, {fd: 3}).on('data', chunk => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\0'); end !== -1; end = buffer.indexOf('\\0')) {
    const {id, method} = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (mode !== 'silent') out.write(JSON.stringify({id, result: {product: 'Stub/1.0', method}}) + '\\0');
  }
});
setInterval(() => {}, 1000);
`;

interface Spawned {
  command: string;
  args: string[];
  options: SpawnOptions;
  child: ChildProcess;
}

describe('launchChrome (a stub process in place of Chrome)', () => {
  let dir: string;
  let stubPath: string;
  let fakeChrome: string;
  let tempRoot: string;
  let spawned: Spawned[] = [];
  let endpoints: BrowserEndpoint[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'launch-test-'));
    stubPath = join(dir, 'stub.mjs');
    writeFileSync(stubPath, STUB);
    // resolveExecutable only checks that the binary exists; the fake spawn runs the stub instead.
    fakeChrome = join(dir, 'chrome');
    writeFileSync(fakeChrome, '');
  });

  afterEach(async () => {
    await Promise.all(endpoints.map(endpoint => endpoint.kill()));
    for (const {child} of spawned) {
      child.kill('SIGKILL');
    }
    spawned = [];
    endpoints = [];
  });

  after(() => rmSync(dir, {recursive: true, force: true}));

  /** A spawn that records what chrome-launcher asked for and starts the stub in `mode`. */
  function fakeSpawn(mode: 'ok' | 'crash' | 'silent' = 'ok') {
    return ((command: string, args: string[], options: SpawnOptions) => {
      const child = spawn(process.execPath, [stubPath, mode, ...args], options);
      spawned.push({command, args, options, child});
      return child;
    }) as typeof spawn;
  }

  function options(extra: Partial<LaunchOptions> = {}): LaunchOptions {
    return {
      executablePath: fakeChrome,
      headless: true,
      isolated: true,
      chromeArgs: [],
      ignoreDefaultChromeArgs: [],
      ...extra,
    };
  }

  async function launch(extra: Partial<LaunchOptions>, system: Parameters<typeof launchChrome>[1] = {}) {
    tempRoot = mkdtempSync(join(dir, 'root-'));
    const endpoint = await launchChrome(options(extra), {spawn: fakeSpawn(), isRoot: false, tempRoot, ...system});
    endpoints.push(endpoint);
    return {endpoint, call: spawned.at(-1)};
  }

  it('starts the binary with the default flags, the profile and the debugging pipe, never a port', async () => {
    const {endpoint, call} = await launch({});
    assert.ok(call);
    assert.equal(call.command, fakeChrome);
    for (const flag of [...DEFAULT_CHROME_FLAGS, '--headless', '--remote-debugging-pipe']) {
      assert.ok(call.args.includes(flag), `missing ${flag}`);
    }
    assert.equal(
      call.args.some(a => a.startsWith('--remote-debugging-port')),
      false,
      'a port takes connections from any local user',
    );
    assert.equal(call.args.includes('--no-sandbox'), false);
    const profile = call.args.find(a => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length) ?? '';
    assert.ok(profile.startsWith(join(tempRoot, PROFILE_PREFIX)), profile);
    assert.equal(call.args.at(-1), 'about:blank');
    // fds 3 and 4 are the debugging pipe; a detached process group lets kill() end Chrome's helpers too.
    assert.deepEqual((call.options.stdio as unknown[]).slice(3), ['pipe', 'pipe']);
    assert.equal(call.options.detached, true);
    assert.ok(endpoint.transport.pipe, 'the endpoint is the pipe');
    assert.equal(endpoint.transport.wsUrl, undefined);
    const answer = await new Promise((resolve, reject) =>
      endpoint.transport.pipe?.send('Browser.getVersion', {}, undefined, (error, result) =>
        error === false ? resolve(result) : reject(new Error(String(error))),
      ),
    );
    assert.deepEqual(answer, {product: 'Stub/1.0', method: 'Browser.getVersion'});
    assert.equal(endpoint.launched, true);
    assert.equal(endpoint.pid, call.child.pid);
  });

  it('adds --no-sandbox as root (once), the proxy, certificate errors and extra args last; leaves out ignored defaults', async () => {
    const {call} = await launch(
      {
        headless: false,
        proxyServer: 'http://proxy:3128',
        acceptInsecureCerts: true,
        chromeArgs: ['--window-size=800,600', '--lang=de'],
        ignoreDefaultChromeArgs: ['--mute-audio', '--disable-features'],
      },
      {isRoot: true},
    );
    assert.ok(call);
    const args = call.args;
    assert.equal(args.filter(a => a === '--no-sandbox').length, 1);
    assert.ok(args.includes('--proxy-server=http://proxy:3128'));
    assert.ok(args.includes('--ignore-certificate-errors'));
    assert.equal(args.includes('--headless'), false);
    assert.equal(args.includes('--mute-audio'), false);
    assert.equal(
      args.some(a => a.startsWith('--disable-features=')),
      false,
    );
    // The extra args come after ours, so they win where Chrome takes the last value.
    assert.ok(args.indexOf('--lang=de') > args.indexOf('--ignore-certificate-errors'));
    assert.ok(args.includes('--window-size=800,600'));
    const again = await launch({chromeArgs: ['--no-sandbox']}, {isRoot: true});
    assert.equal(again.call?.args.filter(a => a === '--no-sandbox').length, 1);
  });

  it('kills the process and removes the temporary profile', async () => {
    const {endpoint, call} = await launch({});
    const profile = call?.args.find(a => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length) ?? '';
    assert.ok(existsSync(profile));
    await endpoint.kill();
    await endpoint.exited;
    assert.notEqual(call?.child.signalCode ?? call?.child.exitCode, null);
    assert.equal(existsSync(profile), false, 'temporary profile left behind');
  });

  it('keeps a persistent profile, and removes a DevToolsActivePort left over from an earlier run', async () => {
    const userDataDir = join(dir, 'persistent');
    mkdirSync(userDataDir, {recursive: true});
    writeFileSync(join(userDataDir, 'DevToolsActivePort'), '1\n/devtools/browser/old\n');
    const {endpoint, call} = await launch({isolated: false, userDataDir});
    assert.ok(call?.args.includes(`--user-data-dir=${userDataDir}`));
    assert.ok(endpoint.transport.pipe);
    assert.equal(existsSync(join(userDataDir, 'DevToolsActivePort')), false, 'a stale port file stays');
    await endpoint.kill();
    assert.ok(existsSync(userDataDir), 'a persistent profile was removed');
  });

  it('says so when Chrome exits during startup, and removes the temporary profile', async () => {
    const root = mkdtempSync(join(dir, 'root-'));
    await assert.rejects(launchChrome(options(), {spawn: fakeSpawn('crash'), isRoot: false, tempRoot: root}), {
      message: /^Chrome exited during startup\. Run with --logFile/,
    });
    assert.deepEqual(readdirSync(root), []);
  });

  it('gives up when Chrome never answers over its pipe, and kills it', async () => {
    const root = mkdtempSync(join(dir, 'root-'));
    await assert.rejects(
      launchChrome(options(), {spawn: fakeSpawn('silent'), isRoot: false, tempRoot: root, startupTimeoutMs: 200}),
      {message: 'Chrome did not answer over its debugging pipe within 0.2 s.'},
    );
    const child = spawned.at(-1)?.child;
    assert.ok(child?.signalCode ?? child?.exitCode ?? child?.killed, 'the silent process was not killed');
    assert.deepEqual(readdirSync(root), []);
  });

  it('explains a missing executable before starting anything', async () => {
    const root = mkdtempSync(join(dir, 'root-'));
    await assert.rejects(
      launchChrome(options({executablePath: join(dir, 'nope')}), {spawn: fakeSpawn(), isRoot: false, tempRoot: root}),
      {
        message: `Chrome executable not found at ${join(dir, 'nope')}. Pass the path of an installed Chrome or Chromium with --executablePath.`,
      },
    );
    assert.equal(spawned.length, 0);
    assert.deepEqual(readdirSync(root), []);
  });

  it('reports a binary that cannot be executed, without crashing the server', async () => {
    const notExecutable = join(dir, 'not-executable');
    writeFileSync(notExecutable, 'not a program');
    chmodSync(notExecutable, 0o644);
    const root = mkdtempSync(join(dir, 'root-'));
    // The real spawn: it is what fails here.
    await assert.rejects(launchChrome(options({executablePath: notExecutable}), {isRoot: false, tempRoot: root}), {
      message: /^Chrome exited during startup \(spawn .*not-executable EACCES\)/,
    });
    assert.deepEqual(readdirSync(root), []);
  });

  it('refuses a profile another Chrome holds, naming its pid, before starting anything', async () => {
    const held = join(dir, 'held-profile');
    mkdirSync(held, {recursive: true});
    // The other browser: a live process whose command line names the profile, as Chrome's does.
    const other = spawn(process.execPath, [
      '-e',
      'console.log("up"); setInterval(() => {}, 1000)',
      '--',
      `--user-data-dir=${held}`,
    ]);
    try {
      // Running its own command line (not the test's, as just after the fork).
      await new Promise(resolve => other.stdout.once('data', resolve));
      symlinkSync(`${hostname()}-${other.pid}`, join(held, 'SingletonLock'));
      await assert.rejects(launch({isolated: false, userDataDir: held}), {
        message: `The Chrome profile ${held} is in use by another Chrome (pid ${other.pid}), for example another cdp-mcp server on the same profile: Chrome runs one browser per profile. Use --isolated (a temporary profile) or --userDataDir with another folder, or close that Chrome.`,
      });
      assert.equal(spawned.length, 0, 'nothing was started');
    } finally {
      other.kill('SIGKILL');
    }
    // A lock left by a Chrome that is gone is Chrome's to take over.
    await new Promise(resolve => other.once('exit', resolve));
    const {call} = await launch({isolated: false, userDataDir: held});
    assert.ok(call);
  });

  it('on WSL hands a Linux Chrome its profile as a Linux path, last (chrome-launcher gives a Windows one)', async () => {
    const {call} = await launch({}, {wsl: true});
    assert.ok(call);
    const dirs = call.args.filter(a => a.startsWith('--user-data-dir='));
    assert.equal(dirs.length, 2);
    assert.ok(dirs.at(-1)?.startsWith(`--user-data-dir=${join(tempRoot, PROFILE_PREFIX)}`), dirs.at(-1));
  });
});
