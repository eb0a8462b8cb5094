#!/usr/bin/env node
// Builds the lazily loaded DevTools bundles into build/vendor/ from the pinned
// chrome-devtools-frontend package, and Lighthouse from the pinned lighthouse
// package (see scripts/vendor/*.mjs for what each bundle holds). Skips the work when the inputs (package versions and these
// scripts) are unchanged since the last build. Run by `npm run build`.
// Usage: node scripts/build-vendor.mjs [--force]
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';

import * as esbuild from 'esbuild';

import {
  BASE_OPTIONS,
  FRONTEND,
  I18N_SETUP_SOURCE,
  inputVersions,
  OUT_DIR,
  polyfillSource,
  ROOT,
  slimProtocolPlugin,
  stubsPlugin,
  virtualEntriesPlugin,
} from './vendor/common.mjs';
import * as css from './vendor/css.mjs';
import * as heap from './vendor/heap.mjs';
import * as lighthouse from './vendor/lighthouse.mjs';
import * as trace from './vendor/trace.mjs';

const FAMILIES = [trace, css, heap];
const MANIFEST = path.join(OUT_DIR, 'manifest.json');
const NOTICES = path.join(ROOT, 'THIRD_PARTY_NOTICES');

function inputHash() {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({...inputVersions(), ...lighthouse.inputVersions()}));
  const scripts = [path.join(ROOT, 'scripts/build-vendor.mjs')];
  const vendorDir = path.join(ROOT, 'scripts/vendor');
  scripts.push(
    ...readdirSync(vendorDir)
      .sort()
      .map(f => path.join(vendorDir, f)),
  );
  for (const file of scripts) {
    hash.update(file);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

function upToDate(hash) {
  if (!existsSync(MANIFEST)) {
    return false;
  }
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  return manifest.hash === hash && Object.keys(manifest.files).every(f => existsSync(path.join(OUT_DIR, f)));
}

/** Prepends the polyfills to a worker's entry file, so they run before any of its code. */
function polyfillEntryPlugin(entryPath) {
  // esbuild reports real paths: compare real paths, or a symlinked node_modules (a worktree, pnpm) loses the polyfills.
  const entry = realpathSync(entryPath);
  return {
    name: 'polyfill-worker-entry',
    setup(build) {
      build.onLoad({filter: /\.ts$/}, args =>
        args.path === entry
          ? {
              contents: `${polyfillSource()}\n${readFileSync(args.path, 'utf8')}`,
              loader: 'ts',
              resolveDir: path.dirname(args.path),
            }
          : undefined,
      );
    },
  };
}

/** Third-party folders inside devtools-frontend whose code ended up in a bundle. */
function bundledThirdParties(metafiles) {
  const names = new Set();
  for (const meta of metafiles) {
    for (const input of Object.keys(meta.inputs)) {
      const match = /chrome-devtools-frontend\/front_end\/third_party\/([^/]+)\//.exec(input);
      if (match) {
        names.add(match[1]);
      }
    }
  }
  return [...names].sort();
}

async function build() {
  rmSync(OUT_DIR, {recursive: true, force: true});
  mkdirSync(OUT_DIR, {recursive: true});
  const metafiles = [];

  // Loaded first by src/devtools/vendor.ts, before any bundle.
  const polyfills = await esbuild.build({
    ...BASE_OPTIONS,
    stdin: {contents: polyfillSource(), resolveDir: ROOT, loader: 'js'},
    outfile: path.join(OUT_DIR, 'polyfills.mjs'),
  });
  metafiles.push(polyfills.metafile);

  // The main-thread bundles in one build with code splitting: each entry
  // loads only what it needs, and what they share (SDK, i18n, platform) is one
  // chunk, so one i18n registry and one copy on disk.
  const sources = {setup: I18N_SETUP_SOURCE};
  const entryPoints = {};
  for (const {bundle} of FAMILIES.filter(f => f.bundle)) {
    sources[bundle.name] = bundle.source;
    entryPoints[bundle.name] = `vendor-entry:${bundle.name}`;
  }
  const main = await esbuild.build({
    ...BASE_OPTIONS,
    entryPoints,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outdir: OUT_DIR,
    plugins: [slimProtocolPlugin, stubsPlugin, virtualEntriesPlugin(sources)],
  });
  metafiles.push(main.metafile);

  for (const worker of FAMILIES.flatMap(f => f.workers ?? [])) {
    const entry = path.join(FRONTEND, worker.entry);
    const result = await esbuild.build({
      ...BASE_OPTIONS,
      entryPoints: {[worker.name]: entry},
      outdir: OUT_DIR,
      plugins: [stubsPlugin, polyfillEntryPlugin(entry)],
    });
    metafiles.push(result.metafile);
  }

  const files = {};
  // Files derived from the built bundles by running them (in a child process:
  // the polyfills must not leak into this one).
  for (const {afterBuild} of FAMILIES.filter(f => f.afterBuild)) {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', afterBuild.script], {cwd: OUT_DIR});
    writeFileSync(path.join(OUT_DIR, afterBuild.file), output);
    files[afterBuild.file] = output.length;
  }
  for (const meta of metafiles) {
    for (const [file, info] of Object.entries(meta.outputs)) {
      files[path.relative(OUT_DIR, path.resolve(ROOT, file))] = info.bytes;
    }
  }
  // Lighthouse is its own build: other plugins, no code shared with DevTools'.
  const lh = await lighthouse.build({outDir: OUT_DIR});
  files[lighthouse.OUTPUT_NAME] = lh.bytes;
  const staleNotices = lh.warnings.filter(w => w.startsWith('THIRD_PARTY_NOTICES'));
  if (staleNotices.length) {
    throw new Error(staleNotices.join('\n'));
  }
  for (const warning of lh.warnings) {
    process.stderr.write(`build-vendor: lighthouse: ${warning}\n`);
  }
  const notices = readFileSync(NOTICES, 'utf8');
  const missing = bundledThirdParties(metafiles).filter(name => !notices.includes(`front_end/third_party/${name}`));
  if (missing.length) {
    throw new Error(
      `THIRD_PARTY_NOTICES lacks the licence of bundled code from chrome-devtools-frontend/front_end/third_party/: ${missing.join(', ')}. Add it (see the LICENSE file in that folder).`,
    );
  }
  return files;
}

const hash = inputHash();
if (!process.argv.includes('--force') && upToDate(hash)) {
  process.exit(0);
}
const started = Date.now();
const files = await build();
writeFileSync(
  MANIFEST,
  `${JSON.stringify({hash, versions: {...inputVersions(), ...lighthouse.inputVersions()}, files}, null, 2)}\n`,
);
const total = Object.values(files).reduce((a, b) => a + b, 0);
process.stderr.write(
  `build-vendor: ${Object.keys(files).length} files, ${(total / 1e6).toFixed(2)} MB in ${Date.now() - started} ms (build/vendor/)\n`,
);
