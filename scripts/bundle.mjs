#!/usr/bin/env node
// Builds the published package into dist/ from the compiled build/ (run
// `npm run build` first; `npm pack` does both through prepack):
//   dist/cdp-mcp.js, dist/index.js   the CLI and the library entry, one esbuild
//                                     bundle with shared chunks (so the npm
//                                     package has no dependencies), the parts
//                                     only some calls need in chunks imported
//                                     on first use (CDP client and launcher,
//                                     HTTP transport)
//   dist/heap-host.js, heap-thread.js the heap analysis process and its worker
//                                     threads (forked and started by file)
//   dist/trace-host.js                the trace analysis process (forked for
//                                     each trace, by file)
//   dist/vendor/                      the DevTools and Lighthouse bundles
//                                     (build/vendor/), still loaded only when a
//                                     tool needs them, and get_page_text's
//                                     in-page libraries (vendor/page-text/)
//   dist/types/                       the library's declarations (index.d.ts and
//                                     what it refers to; none names a package)
//   dist/THIRD_PARTY_NOTICES          licenses of everything bundled
// Usage: node scripts/bundle.mjs [--quiet]
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import * as esbuild from 'esbuild';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BUILD = path.join(ROOT, 'build');
const DIST = path.join(ROOT, 'dist');
const quiet = process.argv.includes('--quiet');

/**
 * Modules replaced in the bundle: what they would pull in is never used.
 * - chrome-remote-interface's 1.2 MB protocol.json: we hand it an empty
 *   descriptor (src/cdp/CdpConnection.ts).
 * - the SDK's Ajv provider (Ajv and fast-uri): our sessions pass their own
 *   validator (src/server/session.ts), elicitation being unused.
 */
const STUBS = [
  {
    filter: /chrome-remote-interface[\\/]lib[\\/]protocol\.json$/,
    contents: '{"version":{"major":"1","minor":"3"},"domains":[]}',
    loader: 'json',
  },
  {
    filter: /@modelcontextprotocol[\\/]sdk[\\/].*[\\/]validation[\\/]ajv-provider\.js$/,
    contents:
      'export class AjvJsonSchemaValidator { constructor() { throw new Error("Ajv is not bundled: pass jsonSchemaValidator."); } }',
    loader: 'js',
  },
];

/**
 * get_page_text injects these into pages as source text (src/browser/pageText/pageTextLibs.ts
 * reads them by file name): copied as they are, their packages named in the notices.
 */
const PAGE_TEXT_LIBRARIES = [
  '@mozilla/readability/Readability.js',
  '@mozilla/readability/Readability-readerable.js',
  'turndown/lib/turndown.browser.cjs.js',
  '@joplin/turndown-plugin-gfm/lib/turndown-plugin-gfm.cjs.js',
];

/** Files the code requires by path in dist/vendor/ (source in node_modules, name in dist/vendor/). */
const REQUIRED_FILES = [['urlpattern-polyfill/dist/urlpattern.cjs', 'urlpattern.cjs']];

// The bundled CommonJS packages (chrome-remote-interface, ws) require Node's modules.
const BANNER =
  "import {createRequire as __cdpMcpRequire} from 'node:module';const require=__cdpMcpRequire(import.meta.url);";

const stubs = {
  name: 'stubs',
  setup(build) {
    build.onLoad({filter: /\.(json|js)$/}, args => {
      const stub = STUBS.find(s => s.filter.test(args.path));
      return stub ? {contents: stub.contents, loader: stub.loader} : undefined;
    });
  },
};

function need(file, hint) {
  if (!existsSync(file)) {
    console.error(`bundle: ${path.relative(ROOT, file)} is missing. ${hint}`);
    process.exit(1);
  }
}

need(path.join(BUILD, 'src/bin/cdp-mcp.js'), 'Run "npm run build" first.');
need(path.join(BUILD, 'vendor/manifest.json'), 'Run "npm run build" (it builds the DevTools bundles) first.');

rmSync(DIST, {recursive: true, force: true});
const result = await esbuild.build({
  entryPoints: {
    'cdp-mcp': path.join(BUILD, 'src/bin/cdp-mcp.js'),
    index: path.join(BUILD, 'src/index.js'),
    // The heap host process and its snapshot threads start from files of their
    // own (src/devtools/heap/entryPoints.ts looks for these names).
    'heap-host': path.join(BUILD, 'src/devtools/heap/host.js'),
    'heap-thread': path.join(BUILD, 'src/devtools/heap/thread.js'),
    // The trace analysis process (src/devtools/trace/TraceHost.ts looks for this name).
    'trace-host': path.join(BUILD, 'src/devtools/trace/host.js'),
  },
  outdir: DIST,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  // No keepNames: it wraps functions in a helper call, and the functions we
  // send into pages as source (Function.prototype.toString) must stand alone.
  legalComments: 'none',
  chunkNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  // ws's optional native speedups; it works without them.
  external: ['bufferutil', 'utf-8-validate'],
  plugins: [stubs],
  banner: {js: BANNER},
});

dropUnusedRequire(Object.keys(result.metafile.outputs).filter(file => file.endsWith('.js')));

const puppeteer = Object.keys(result.metafile.inputs).filter(input => /puppeteer/i.test(input));
if (puppeteer.length) {
  console.error(`bundle: Puppeteer must not ship, but the bundle holds ${puppeteer.join(', ')}.`);
  process.exit(1);
}
cpSync(path.join(BUILD, 'vendor'), path.join(DIST, 'vendor'), {recursive: true});
copyPageTextLibraries(path.join(DIST, 'vendor/page-text'));
copyRequired(path.join(DIST, 'vendor'));
copyDeclarations(path.join(BUILD, 'src/index.d.ts'), path.join(DIST, 'types'));
writeNotices(result.metafile);

if (!quiet) {
  const sizes = Object.entries(result.metafile.outputs)
    .map(([file, {bytes}]) => [path.relative(ROOT, file), bytes])
    .sort((a, b) => b[1] - a[1]);
  for (const [file, bytes] of sizes) {
    console.log(`${(bytes / 1024).toFixed(0).padStart(6)} KB  ${file}`);
  }
  console.log(`${(duSync(DIST) / 1024).toFixed(0).padStart(6)} KB  dist/ in all (vendor bundles and types included)`);
}

/**
 * Takes the banner out of the files that never name `require` (most: only
 * esbuild's runtime chunk and the bundled CommonJS packages do): each
 * createRequire() call costs the start-up, and every chunk the server loads
 * before it answers tools/list ran one. Conservative: a file that names
 * `require` anywhere, in a string too, keeps it.
 */
function dropUnusedRequire(files) {
  const banner = `${BANNER}\n`;
  for (const file of files) {
    const full = path.join(ROOT, file);
    const text = readFileSync(full, 'utf8');
    const at = text.indexOf(banner);
    if (at < 0) {
      continue;
    }
    const rest = text.slice(0, at) + text.slice(at + banner.length);
    if (!/(?<![\w$.])require(?![\w$-])/.test(rest)) {
      writeFileSync(full, rest);
    }
  }
}

/** Copies a declaration file and every relative one it imports; refuses imports of packages. */
function copyDeclarations(entry, outDir) {
  const base = path.dirname(entry);
  const seen = new Set();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    const text = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/, '');
    const specifiers = [
      ...text.matchAll(/^(?:import|export)\b[^;{]*(?:\{[^}]*\})?[^;{]*?\bfrom\s*['"]([^'"]+)['"]/gm),
      ...text.matchAll(/^import\s*['"]([^'"]+)['"]/gm),
      ...text.matchAll(/\bimport\(['"]([^'"]+)['"]\)/g),
    ];
    for (const [, specifier] of specifiers) {
      if (specifier.startsWith('.')) {
        queue.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.d.ts')));
      } else if (!specifier.startsWith('node:')) {
        console.error(
          `bundle: ${path.relative(ROOT, file)} imports "${specifier}": the published types must name no package.`,
        );
        process.exit(1);
      }
    }
    const out = path.join(outDir, path.relative(base, file));
    mkdirSync(path.dirname(out), {recursive: true});
    writeFileSync(out, text);
  }
}

/** Required by file (src/util/urlPattern.ts), loaded synchronously on first use. */
function copyRequired(outDir) {
  for (const [library, name] of REQUIRED_FILES) {
    const file = path.join(ROOT, 'node_modules', library);
    need(file, 'Run "npm install".');
    cpSync(file, path.join(outDir, name));
  }
}

function copyPageTextLibraries(outDir) {
  mkdirSync(outDir, {recursive: true});
  for (const library of PAGE_TEXT_LIBRARIES) {
    const file = path.join(ROOT, 'node_modules', library);
    need(file, 'Run "npm install".');
    cpSync(file, path.join(outDir, path.basename(library)));
  }
}

/** Name, version and license text of every package in the bundle, after the DevTools notices. */
function writeNotices(metafile) {
  const packages = new Map();
  for (const library of [...PAGE_TEXT_LIBRARIES, ...REQUIRED_FILES.map(([file]) => file)]) {
    const name = library
      .split('/')
      .slice(0, library.startsWith('@') ? 2 : 1)
      .join('/');
    packages.set(path.join(ROOT, 'node_modules', name), name);
  }
  for (const input of Object.keys(metafile.inputs)) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input);
    if (match) {
      const dir = path.join(ROOT, input.slice(0, match.index + match[0].length));
      packages.set(dir, match[1]);
    }
  }
  const sections = [];
  for (const [dir, name] of [...packages].sort((a, b) => a[1].localeCompare(b[1]))) {
    const {version, license} = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const licenseFile = readdirSync(dir).find(f => /^(licen[cs]e|copying)/i.test(f));
    const text = licenseFile ? readFileSync(path.join(dir, licenseFile), 'utf8').trim() : `License: ${license}`;
    sections.push(`${name}@${version} (${license})\n\n${text}`);
  }
  const devtools = existsSync(path.join(ROOT, 'THIRD_PARTY_NOTICES'))
    ? readFileSync(path.join(ROOT, 'THIRD_PARTY_NOTICES'), 'utf8').trim()
    : '';
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  writeFileSync(
    path.join(DIST, 'THIRD_PARTY_NOTICES'),
    `Third-party software bundled in cdp-mcp's dist/.${rule}${[devtools, ...sections].filter(Boolean).join(rule)}\n`,
  );
}

function duSync(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = statSync(file);
    total += stat.isDirectory() ? duSync(file) : stat.size;
  }
  return total;
}
