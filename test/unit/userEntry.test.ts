import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {describe, it} from 'node:test';

const ROOT = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/** The entry the npm package ships: what `npx cdp-mcp` and an installed package run. */
const BIN = (JSON.parse(read('package.json')) as {bin: Record<string, string>}).bin['cdp-mcp'] ?? '';

/** Every `….js` path of the server's entry a text mentions. */
function entryPaths(text: string): string[] {
  return [...text.matchAll(/[\w./-]*\bcdp-mcp\.js\b/g)].map(match => match[0]);
}

/**
 * What users are told to run is what users get: the package's bin (a build/
 * path worked from a checkout only, and hid what the bundle broke).
 * test/e2e/install.test.ts starts the README's client configurations from an
 * installed tarball.
 */
describe("the user's entry point", () => {
  it('is dist/cdp-mcp.js, the bundle', () => {
    assert.equal(BIN, 'dist/cdp-mcp.js');
  });

  it('is the only entry the README and docs/ name', () => {
    const docs = readdirSync(new URL('docs/', ROOT)).filter(name => name.endsWith('.md'));
    for (const file of ['README.md', ...docs.map(name => `docs/${name}`)]) {
      for (const path of entryPaths(read(file))) {
        assert.ok(path === BIN || path.endsWith(`/${BIN}`), `${file} names ${path}; users run ${BIN}`);
      }
    }
  });

  it('is what scripts/start.sh builds and runs', () => {
    const script = read('scripts/start.sh');
    const exec = script.split('\n').find(line => /^exec node\b/.test(line)) ?? '';
    assert.deepEqual(entryPaths(exec), [BIN], `start.sh runs: ${exec}`);
    // Made from the sources when missing: the bundle (scripts/bundle.mjs) makes the bin.
    assert.ok(script.includes(`[ ! -f ${BIN} ]`), `start.sh never checks that ${BIN} exists`);
    assert.match(script, /scripts\/bundle\.mjs|npm run bundle|npm pack/, 'start.sh never bundles');
  });
});
