/** The corpus definitions stay honest: packages pinned exactly, licences as published, docs in sync. */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

import {CORPUS} from '../support/corpus/index.js';
import {corpusDocTable} from '../support/corpus/report.js';
import {mimeType, NODE_MODULES} from '../support/fixtureServer.js';
import {TEST_DEPS_DIR} from '../support/testDeps.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
type Manifest = {devDependencies: Record<string, string>};
/** The test command's packages (test/deps), where the corpus's apps are pinned. */
const manifest = JSON.parse(readFileSync(join(TEST_DEPS_DIR, 'package.json'), 'utf8')) as Manifest;
/** The root package: what the build needs, and nothing the corpus serves. */
const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

describe('corpus definitions', () => {
  it('has at least 25 pages with unique ids, steps and a task', () => {
    assert.ok(CORPUS.length >= 25, `${CORPUS.length} pages`);
    assert.equal(new Set(CORPUS.map(p => p.id)).size, CORPUS.length);
    for (const page of CORPUS) {
      assert.ok(page.steps.length > 0, `${page.id} has steps`);
      assert.ok(page.constructs.length > 0, `${page.id} names its constructs`);
    }
  });

  for (const page of CORPUS) {
    for (const pkg of page.packages) {
      it(`${page.id}: ${pkg.name} is pinned exactly at ${pkg.version}, licence ${pkg.license}`, () => {
        assert.equal(manifest.devDependencies[pkg.name], pkg.version, 'exact pin in test/deps/package.json');
        assert.equal(rootManifest.devDependencies[pkg.name], undefined, 'not in the root package.json (the build)');
        const installed = JSON.parse(readFileSync(join(NODE_MODULES, pkg.name, 'package.json'), 'utf8')) as {
          version: string;
          license: string;
        };
        assert.equal(installed.version, pkg.version, 'installed version');
        assert.equal(installed.license, pkg.license, 'licence as the package declares it');
      });
    }
  }

  it('docs/corpus.md lists every page as the definitions say', () => {
    const doc = readFileSync(join(ROOT, 'docs/corpus.md'), 'utf8');
    assert.ok(
      doc.includes(corpusDocTable(CORPUS)),
      'docs/corpus.md is out of date: run `npm run corpus-report -- --docs` (or paste corpusDocTable(CORPUS))',
    );
  });

  it('serves app files with their content types', () => {
    assert.equal(mimeType('/x/app.min.js'), 'text/javascript; charset=utf-8');
    assert.equal(mimeType('/x/index.mjs'), 'text/javascript; charset=utf-8');
    assert.equal(mimeType('/x/skin.min.css'), 'text/css; charset=utf-8');
    assert.equal(mimeType('/x/fa-solid-900.woff2'), 'font/woff2');
    assert.equal(mimeType('/x/icon.svg'), 'image/svg+xml');
    assert.equal(mimeType('/x/blob.bin'), 'application/octet-stream');
  });
});
