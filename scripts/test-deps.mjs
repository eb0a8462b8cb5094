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
// test/deps/node_modules is missing or older than test/deps/package-lock.json,
// the check scripts/start.sh makes for the root. Imported, it tells where they
// are and resolves them.
// Usage: node scripts/test-deps.mjs
import {execFileSync} from 'node:child_process';
import {existsSync, statSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** test/deps/ of the repository. */
export const TEST_DEPS_DIR = fileURLToPath(new URL('../test/deps/', import.meta.url));
export const TEST_NODE_MODULES = join(TEST_DEPS_DIR, 'node_modules');
/** npm writes this file last, so its time is when the install ended. */
const INSTALLED = join(TEST_NODE_MODULES, '.package-lock.json');
const LOCKFILE = join(TEST_DEPS_DIR, 'package-lock.json');

/** A CommonJS require that resolves from test/deps/node_modules. */
export const requireTestDep = createRequire(join(TEST_DEPS_DIR, 'package.json'));

/** Whether test/deps/node_modules is there and no older than its lockfile. */
export function testDepsInstalled() {
  return existsSync(INSTALLED) && statSync(INSTALLED).mtimeMs >= statSync(LOCKFILE).mtimeMs;
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
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureTestDeps();
}
