#!/usr/bin/env node
// Figures for the set-up of a fresh clone (`npm run setup-figures`), as a
// newcomer meets it: the committed HEAD cloned into a temp folder, an empty
// npm cache (nothing downloaded before), then
//   1. `scripts/start.sh --headless --isolated` with initialize and tools/list
//      waiting on its stdin: seconds until the tools/list answer (npm ci of the
//      root package.json, the build, the bundle, the server's start), and what
//      it installed (node_modules: packages, bytes of the files);
//   2. `node scripts/test-deps.mjs`, what the test command installs on its
//      first run (test/deps/node_modules): seconds, packages, bytes.
// Writes them to docs/figures.json (`setup`), from which `npm run gen-docs`
// writes the README's sentence. Needs the npm registry and a Chrome.
// Usage: node scripts/setup-figures.mjs [--keep] (--keep leaves the clone)
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {cpus, loadavg, tmpdir} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {clearTimeout, setTimeout} from 'node:timers';
import {fileURLToPath} from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 15 * 60_000;

/** Bytes of the files under `dir` (apparent sizes, as `du --apparent-size`) and `du -sk`'s blocks. */
function usage(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
    if (entry.isFile()) {
      bytes += statSync(join(entry.parentPath, entry.name)).size;
    }
  }
  const diskKb = Number(execFileSync('du', ['-sk', dir], {encoding: 'utf8'}).split('\t')[0]);
  return {bytes, diskBytes: diskKb * 1024};
}

/** Packages npm installed into `nodeModules` (its hidden lockfile lists exactly those). */
function packageCount(nodeModules) {
  const lock = JSON.parse(readFileSync(join(nodeModules, '.package-lock.json'), 'utf8'));
  return Object.keys(lock.packages).filter(key => key.includes('node_modules/')).length;
}

/** Runs scripts/start.sh in `clone` until it answers tools/list; milliseconds and the tool count. */
async function startToToolsList(clone, env) {
  const started = performance.now();
  const child = spawn(join(clone, 'scripts/start.sh'), ['--headless', '--isolated'], {
    cwd: clone,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const send = message => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'setup-figures', version: '1'}},
  });
  send({jsonrpc: '2.0', method: 'notifications/initialized'});
  send({jsonrpc: '2.0', id: 2, method: 'tools/list'});
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no tools/list answer in ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      let buffer = '';
      child.stdout.on('data', chunk => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const message = JSON.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 1);
          if (message.id === 2) {
            clearTimeout(timer);
            resolve({ms: performance.now() - started, tools: message.result?.tools?.length ?? 0});
          }
        }
      });
      child.on('exit', code => reject(new Error(`scripts/start.sh exited (${code}) before answering tools/list`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
}

const head = execFileSync('git', ['rev-parse', 'HEAD'], {cwd: ROOT, encoding: 'utf8'}).trim();
const work = mkdtempSync(join(tmpdir(), 'cdp-mcp-setup-'));
const clone = join(work, 'clone');
execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, clone]);
execFileSync('git', ['checkout', '--quiet', head], {cwd: clone});
// A fresh machine has nothing in npm's cache.
const env = {...process.env, npm_config_cache: join(work, 'npm-cache')};
const load = loadavg()[0].toFixed(1);
console.log(`fresh clone of ${head.slice(0, 7)} in ${clone}; ${cpus().length} cores, load average ${load}`);

const start = await startToToolsList(clone, env);
const startUsage = usage(join(clone, 'node_modules'));
const startPackages = packageCount(join(clone, 'node_modules'));

const testStarted = performance.now();
execFileSync(process.execPath, ['scripts/test-deps.mjs'], {cwd: clone, env, stdio: 'inherit'});
const testMs = performance.now() - testStarted;
const testModules = join(clone, 'test/deps/node_modules');
const testUsage = usage(testModules);
const testPackages = packageCount(testModules);

const mb = bytes => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(
  `scripts/start.sh: tools/list (${start.tools} tools) after ${(start.ms / 1000).toFixed(0)} s; node_modules: ` +
    `${startPackages} packages, ${mb(startUsage.bytes)} of files (${mb(startUsage.diskBytes)} on disk)`,
);
console.log(
  `test packages (node scripts/test-deps.mjs): ${(testMs / 1000).toFixed(0)} s; test/deps/node_modules: ` +
    `${testPackages} packages, ${mb(testUsage.bytes)} of files (${mb(testUsage.diskBytes)} on disk)`,
);

const file = join(ROOT, 'docs/figures.json');
const figures = JSON.parse(readFileSync(file, 'utf8'));
figures.setup = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length}-core machine, load average ${load}`,
  startSeconds: Math.round(start.ms / 1000),
  startBytes: startUsage.bytes,
  startPackages,
  testSeconds: Math.round(testMs / 1000),
  testBytes: testUsage.bytes,
  testPackages,
};
writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
console.log('wrote docs/figures.json (setup); run npm run gen-docs to update the README');
if (process.argv.includes('--keep')) {
  console.log(`kept ${clone}`);
} else if (existsSync(work)) {
  rmSync(work, {recursive: true, force: true});
}
