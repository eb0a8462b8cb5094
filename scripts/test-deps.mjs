#!/usr/bin/env node
// The test command's own packages: test/deps/package.json (its own lockfile,
// its own node_modules) holds what the tests, the linters and the comparison
// scripts need beyond the build: the test corpus's apps (served to Chromium by
// the fixture server), chrome-devtools-mcp (the reference), ESLint, Prettier
// and TypeScript's compiler API. The root package.json keeps only what
// `npm run build` and the bundle need, so that scripts/start.sh installs that
// much and no more.
//
// Run as a script (the test command does: scripts/run-tests.mjs, and the npm
// scripts that need these packages), it installs them with `npm ci` when
// test/deps/node_modules is missing or was installed from another
// test/deps/package-lock.json (a hash of the lockfile it was installed from
// is kept in it: unlike the file times scripts/start.sh compares for the root,
// a checkout or merge that leaves the lockfile as it was costs no install).
// Imported, it tells where they are and resolves them.
// Usage: node scripts/test-deps.mjs
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** test/deps/ of the repository. */
export const TEST_DEPS_DIR = fileURLToPath(new URL('../test/deps/', import.meta.url));
export const TEST_NODE_MODULES = join(TEST_DEPS_DIR, 'node_modules');
const LOCKFILE = join(TEST_DEPS_DIR, 'package-lock.json');
/** The hash of the lockfile node_modules was installed from, written once the install ended. */
const INSTALLED_FROM = join(TEST_NODE_MODULES, '.installed-from-lockfile');

/** A CommonJS require that resolves from test/deps/node_modules. */
export const requireTestDep = createRequire(join(TEST_DEPS_DIR, 'package.json'));

const lockfileHash = () => createHash('sha256').update(readFileSync(LOCKFILE)).digest('hex');

/** Whether test/deps/node_modules is installed from the lockfile as it is now. */
export function testDepsInstalled() {
  return existsSync(INSTALLED_FROM) && readFileSync(INSTALLED_FROM, 'utf8') === lockfileHash();
}

/** Installs test/deps/node_modules (npm ci) unless it is up to date. */
export function ensureTestDeps() {
  if (testDepsInstalled()) {
    return;
  }
  process.stderr.write('Installing the test packages (test/deps: test corpus, chrome-devtools-mcp, linters)...\n');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: TEST_DEPS_DIR,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  });
  writeFileSync(INSTALLED_FROM, lockfileHash());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureTestDeps();
}
