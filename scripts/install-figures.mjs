#!/usr/bin/env node
// Figures for the published package (run through `npm run install-figures`,
// which builds and bundles first): tarball and installed size from an empty
// folder, against chrome-devtools-mcp's package, and the time from spawning
// the server to its tools/list answer: the unbundled build (what the package
// shipped before the bundle) against the installed bundle, run directly and
// through npx. Medians of alternating runs. The package figures (sizes, file
// counts) go to docs/figures.json, from which `npm run gen-docs` writes the
// README's sentence about them.
// Usage: node scripts/install-figures.mjs [--runs N]
import {spawn} from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

import {diskUsage, packAndInstall, REPO_ROOT} from '../build/test/support/packedInstall.js';
import {TEST_NODE_MODULES} from './test-deps.mjs';

const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 9;

async function startToToolsList(command, args, cwd) {
  const started = performance.now();
  const transport = new StdioClientTransport({command, args, cwd, stderr: 'ignore'});
  const client = new Client({name: 'figures', version: '1'});
  await client.connect(transport);
  const {tools} = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  return {ms, tools: tools.length};
}

async function peakRss(command, args, cwd) {
  // VmHWM of the server after initialize + tools/list (module loading).
  const child = spawn(command, args, {cwd, stdio: ['pipe', 'pipe', 'ignore']});
  const send = message => child.stdin.write(`${JSON.stringify(message)}\n`);
  let buffer = '';
  const answered = new Promise(resolve =>
    child.stdout.on('data', chunk => {
      buffer += chunk;
      if (buffer.includes('"id":2')) {
        resolve();
      }
    }),
  );
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'f', version: '1'}},
  });
  send({jsonrpc: '2.0', method: 'notifications/initialized'});
  send({jsonrpc: '2.0', id: 2, method: 'tools/list'});
  await answered;
  const {readFileSync} = await import('node:fs');
  const pid = child.pid;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  child.kill('SIGTERM');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The package as it was before the bundle (bin build/src/bin/cdp-mcp.js over
 * its node_modules), installed in an app folder, so that npx runs it the way
 * it runs the bundle.
 */
function unbundledInstall() {
  const app = mkdtempSync(join(tmpdir(), 'cdp-mcp-unbundled-'));
  const pkg = join(app, 'node_modules/cdp-mcp');
  mkdirSync(pkg, {recursive: true});
  mkdirSync(join(app, 'node_modules/.bin'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({name: 'app', private: true}));
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({name: 'cdp-mcp', version: '0.0.0', type: 'module', bin: {'cdp-mcp': 'build/src/bin/cdp-mcp.js'}}),
  );
  symlinkSync(join(REPO_ROOT, 'build'), join(pkg, 'build'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(pkg, 'node_modules'));
  const bin = join(REPO_ROOT, 'build/src/bin/cdp-mcp.js');
  chmodSync(bin, 0o755);
  symlinkSync(bin, join(app, 'node_modules/.bin/cdp-mcp'));
  return app;
}

const install = packAndInstall();
const unbundled = unbundledInstall();
const cdm = diskUsage(join(TEST_NODE_MODULES, 'chrome-devtools-mcp'));
writePackageFigures();

/** docs/figures.json's `package`: what `npm install` of the tarball puts on disk, and the reference's package. */
function writePackageFigures() {
  const file = join(REPO_ROOT, 'docs/figures.json');
  const figures = JSON.parse(readFileSync(file, 'utf8'));
  const dist = join(install.packageDir, 'dist');
  const lighthouseBytes = readdirRecursive(dist)
    .filter(path => /lighthouse/i.test(path))
    .reduce((sum, path) => sum + statSync(path).size, 0);
  const reference = JSON.parse(readFileSync(join(TEST_NODE_MODULES, 'chrome-devtools-mcp/package.json'), 'utf8'));
  figures.package = {
    date: new Date().toISOString().slice(0, 10),
    tarballBytes: install.tarballBytes,
    installedBytes: install.installedBytes,
    files: install.files,
    lighthouseBytes,
    reference: {version: reference.version, bytes: cdm.bytes, files: cdm.files},
  };
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log('wrote docs/figures.json (package); run npm run gen-docs to update the README');
}

function readdirRecursive(dir) {
  return readdirSync(dir, {withFileTypes: true}).flatMap(entry =>
    entry.isDirectory() ? readdirRecursive(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
const flags = ['--headless', '--isolated'];
const variants = {
  'unbundled build (node build/src/bin/cdp-mcp.js)': [
    process.execPath,
    [join(REPO_ROOT, 'build/src/bin/cdp-mcp.js'), ...flags],
    REPO_ROOT,
  ],
  'installed bundle (node node_modules/cdp-mcp/dist/cdp-mcp.js)': [
    process.execPath,
    [join(install.packageDir, 'dist/cdp-mcp.js'), ...flags],
    install.appDir,
  ],
  'unbundled package (npx cdp-mcp)': ['npx', ['--offline', 'cdp-mcp', ...flags], unbundled],
  'installed bundle (npx cdp-mcp)': ['npx', ['--offline', 'cdp-mcp', ...flags], install.appDir],
};
const times = Object.fromEntries(Object.keys(variants).map(k => [k, []]));
for (let i = 0; i < RUNS; i++) {
  const order = i % 2 ? Object.keys(variants).reverse() : Object.keys(variants);
  for (const name of order) {
    const [command, args, cwd] = variants[name];
    times[name].push((await startToToolsList(command, args, cwd)).ms);
  }
}
const rss = {};
for (const [name, [command, args, cwd]] of Object.entries(variants).slice(0, 2)) {
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(await peakRss(command, args, cwd));
  }
  rss[name] = median(samples);
}

const kb = bytes => `${Math.round(bytes / 1024)} KB`;
console.log(`tarball: ${kb(install.tarballBytes)}`);
console.log(
  `installed into an empty folder: ${kb(install.installedBytes)} in ${install.files} files, packages: ${install.installed.join(', ')}`,
);
console.log(`chrome-devtools-mcp 1.11.0 package for comparison: ${kb(cdm.bytes)} in ${cdm.files} files`);
console.log(`\nspawn → tools/list answered (ms, median of ${RUNS}, alternating):`);
for (const [name, samples] of Object.entries(times)) {
  console.log(
    `  ${name}: ${median(samples).toFixed(0)} (min ${Math.min(...samples).toFixed(0)}, max ${Math.max(...samples).toFixed(0)})`,
  );
}
console.log('\nserver peak RSS after initialize + tools/list (MB, median of 5):');
for (const [name, value] of Object.entries(rss)) {
  console.log(`  ${name}: ${value.toFixed(1)}`);
}
// The packed install stays: packAndInstall keeps it for later runs of the same content.
rmSync(unbundled, {recursive: true, force: true});
