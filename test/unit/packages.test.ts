/**
 * The light set-up: the root package.json (what scripts/start.sh installs)
 * holds what the build and the bundle use and nothing else; what only the
 * tests, the linters and the comparison scripts use is in test/deps/package.json,
 * installed by the test command (scripts/test-deps.mjs).
 */
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

import {TEST_DEPS_DIR} from '../support/testDeps.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Manifest {
  scripts?: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, string | Record<string, string>>;
}
const root = JSON.parse(read('package.json')) as Manifest;
const testDeps = JSON.parse(readFileSync(join(TEST_DEPS_DIR, 'package.json'), 'utf8')) as Manifest;
const lockfile = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, {resolved?: string; link?: boolean}>;
};

/** Where the empty stand-ins for packages nothing uses are (scripts/npm-stubs/README.md). */
const STUBS_DIR = 'scripts/npm-stubs';
/** Root devDependencies that are stubs: package name to folder. */
const stubs = Object.fromEntries(
  Object.entries(root.devDependencies)
    .filter(([, spec]) => spec.startsWith(`file:${STUBS_DIR}/`))
    .map(([pkg, spec]) => [pkg, spec.slice('file:'.length)]),
);
/**
 * What the stubs keep out of scripts/start.sh's install (about 100 MB on disk): Sentry
 * with OpenTelemetry, Puppeteer with chromium-bidi and web-features (Lighthouse's), domino (turndown's).
 */
const LEFT_OUT = [
  /^@sentry\//,
  /^@opentelemetry\//,
  /^puppeteer-core$/,
  /^@puppeteer\//,
  /^chromium-bidi$/,
  /^@mixmark-io\/domino$/,
  /^web-features$/,
];

/** Text files under `dir` (relative to the repository) whose names end with one of `extensions`. */
function sources(dir: string, extensions: string[]): string[] {
  return readdirSync(join(ROOT, dir), {recursive: true, encoding: 'utf8'})
    .filter(file => extensions.some(ext => file.endsWith(ext)))
    .map(file => read(join(dir, file)));
}

/** What `npm run build` and `npm run bundle` run and compile from: the server, the protocol types, the build scripts and config. */
const BUILD_TEXT = [
  ...sources('src', ['.ts']),
  ...sources('protocol', ['.ts']),
  ...sources('scripts/vendor', ['.mjs']),
  ...['scripts/build-vendor.mjs', 'scripts/clean-build.mjs', 'scripts/bundle.mjs', 'tsconfig.json'].map(read),
  root.scripts?.build ?? '',
  root.scripts?.['build:server'] ?? '',
].join('\n');

/** Whether the build's text names `pkg` as a module or a path (`'pkg'`, `'pkg/…'`, `node_modules/pkg/`, tsconfig's `"pkg"`). */
function buildUses(pkg: string): boolean {
  return [`'${pkg}'`, `'${pkg}/`, `"${pkg}"`, `node_modules/${pkg}/`].some(form => BUILD_TEXT.includes(form));
}

describe('packages', () => {
  it('the root package.json holds only what the build uses', () => {
    const unused = Object.keys(root.devDependencies).filter(
      // @types/x types x for the compiler: it belongs where x is. Stubs are checked below.
      pkg => !(pkg in stubs) && !buildUses(pkg.startsWith('@types/') ? pkg.slice('@types/'.length) : pkg),
    );
    assert.deepEqual(
      unused,
      [],
      'not used by the build (src/, protocol/, scripts/build-vendor.mjs, scripts/vendor/, scripts/bundle.mjs): ' +
        'a package only the tests or scripts use goes in test/deps/package.json',
    );
  });

  it('each stub replaces its package, through an override, wherever a dependency asks for it', () => {
    assert.deepEqual(
      Object.values(stubs).sort(),
      readdirSync(join(ROOT, STUBS_DIR), {withFileTypes: true})
        .filter(entry => entry.isDirectory())
        .map(entry => `${STUBS_DIR}/${entry.name}`)
        .sort(),
      `every folder of ${STUBS_DIR} is a devDependency (file:${STUBS_DIR}/…)`,
    );
    // "$name" makes the override take the root's spec; a file: path written in a nested override
    // would resolve against the dependent package's folder.
    const overridden = Object.values(root.overrides ?? {}).flatMap(value =>
      typeof value === 'string' ? [value] : Object.values(value),
    );
    for (const pkg of Object.keys(stubs)) {
      assert.ok(overridden.includes(`$${pkg}`), `an override replaces ${pkg} by "$${pkg}"`);
      const stub = JSON.parse(read(`${stubs[pkg]}/package.json`)) as {name: string};
      assert.equal(stub.name, pkg);
    }
    for (const [path, entry] of Object.entries(lockfile.packages)) {
      const pkg = path.replace(/^.*node_modules\//, '');
      if (path.includes('node_modules/') && pkg in stubs) {
        assert.deepEqual(entry, {resolved: stubs[pkg], link: true}, `package-lock.json: ${path}`);
      }
    }
  });

  it('the lockfile installs none of the packages the stubs leave out', () => {
    const installed = Object.keys(lockfile.packages)
      .filter(path => path.includes('node_modules/'))
      .map(path => path.replace(/^.*node_modules\//, ''));
    const leftIn = installed.filter(pkg => !(pkg in stubs) && LEFT_OUT.some(pattern => pattern.test(pkg)));
    assert.deepEqual(leftIn, [], 'regenerate package-lock.json with npm install');
  });

  it('no package is in both package.json files', () => {
    const both = Object.keys(testDeps.devDependencies).filter(pkg => pkg in root.devDependencies);
    assert.deepEqual(both, []);
  });

  it('the test packages include the reference and the linters', () => {
    for (const pkg of ['chrome-devtools-mcp', 'eslint', 'prettier', 'typescript']) {
      assert.ok(pkg in testDeps.devDependencies, `${pkg} in test/deps/package.json`);
    }
  });
});
