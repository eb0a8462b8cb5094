#!/usr/bin/env node
// Builds build/vendor/devtools-heap-snapshot.mjs: the worker side of DevTools'
// heap-snapshot model (the loader, JSHeapSnapshot with its aggregates,
// distances, dominators and diffs, the secondary-init manager) from the pinned
// chrome-devtools-frontend package, with the Node 20 polyfills first. The
// memory tools run it in worker threads of the heap host process
// (src/devtools/heap/thread.ts); no main-thread proxy is needed, the threads
// call the model directly.
// Usage: node scripts/vendor/heap.mjs (standalone until the shared vendor build lands).
import {mkdirSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FRONTEND = join(ROOT, 'node_modules/chrome-devtools-frontend');

/** The barrel, not the entrypoint: the entrypoint would take over the thread's messages. */
export const workers = [
  {name: 'devtools-heap-snapshot', entry: 'front_end/entrypoints/heap_snapshot_worker/heap_snapshot_worker.ts'},
];

const POLYFILLS = ['es.promise.with-resolvers'];
const STUBS = {
  'core/i18n/locales.js': `export const LOCALES = ['en-US']; export const BUNDLED_LOCALES = ['en-US'];
    export const DEFAULT_LOCALE = 'en-US'; export const REMOTE_FETCH_PATTERN = ''; export const LOCAL_FETCH_PATTERN = '';`,
  'third_party/codemirror.next/codemirror.next.js': 'export {};',
};

const plugin = {
  name: 'heap-standalone',
  setup(build) {
    build.onResolve({filter: /\.js$/}, args => {
      if (!args.resolveDir.startsWith(FRONTEND) || !args.path.startsWith('.')) {
        return undefined;
      }
      const target = resolve(args.resolveDir, args.path).slice(join(FRONTEND, 'front_end').length + 1);
      return target in STUBS ? {path: target, namespace: 'stub'} : undefined;
    });
    build.onLoad({filter: /.*/, namespace: 'stub'}, args => ({contents: STUBS[args.path], loader: 'js'}));
  },
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = join(ROOT, 'build/vendor');
  mkdirSync(outdir, {recursive: true});
  for (const worker of workers) {
    const entry = join(FRONTEND, worker.entry);
    await esbuild.build({
      stdin: {
        contents: [...POLYFILLS.map(m => `import 'core-js/modules/${m}.js';`), `export * from '${entry}';`].join('\n'),
        resolveDir: ROOT,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
      outfile: join(outdir, `${worker.name}.mjs`),
      plugins: [plugin],
    });
  }
}
