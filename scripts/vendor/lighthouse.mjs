// Builds build/vendor/lighthouse.mjs: Lighthouse (the pinned npm package) as
// one self-contained ESM file for Node, loaded lazily by lighthouse_audit.
//
// Lighthouse expects to run from its own package folder: it reads files next
// to its modules (axe-core, the report template, its audit list), locates its
// i18n strings by module path, and imports audits and gatherers by name. The
// bundle has no package folder, so at build time we
//   - inline every fs.readFileSync / fs.readdirSync whose path is static,
//   - give each module an `import.meta.url` under a fixed virtual root
//     (file:///lighthouse/...), which is all its i18n needs,
//   - fill config-helpers' bundled-module table with every core audit and
//     gatherer, imported lazily; those the four audited categories do not
//     need (performance metrics, insights, full-page screenshot, …) become
//     inert shims, as in the reference's own bundle: smaller, and faster to
//     configure and run,
//   - and replace what must not run here by stubs: puppeteer-core (we hand
//     Lighthouse a page adapter over our own CDP connection), @sentry/node
//     (never enabled, and 47 MB), the translated locales (en-US is built in)
//     and the flow report (we write single-run reports only),
//   - and patch one hot spot of a dependency (DEPENDENCY_PATCHES: the locale
//     lookup intl-messageformat repeats for each of ~20,000 messages an audit builds).
// The Node 20 built-ins it needs come from build/vendor/polyfills.mjs, which
// the loader (src/devtools/vendor.ts) imports first, as for the DevTools bundles.
//
// Run by scripts/build-vendor.mjs (which decides when to rebuild).
// Usage: node scripts/vendor/lighthouse.mjs            builds build/vendor/lighthouse.mjs
//        node scripts/vendor/lighthouse.mjs --notices  prints its THIRD_PARTY_NOTICES section
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {mkdir, mkdtemp, rm} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../..');
const require = createRequire(join(projectRoot, 'package.json'));

export const OUTPUT_NAME = 'lighthouse.mjs';
const NOTICES_FILE = join(projectRoot, 'THIRD_PARTY_NOTICES');
/** Packages Lighthouse inlines as source text (injected into pages), so esbuild does not see them. */
const INLINED_PACKAGES = ['axe-core', 'js-library-detector'];
/** Where bundled modules pretend to live; Lighthouse derives i18n ids from paths below it. */
const VIRTUAL_ROOT = '/lighthouse';

/** The categories lighthouse_audit runs (src/devtools/lighthouse/runLighthouse.ts). */
const AUDITED_CATEGORIES = ['accessibility', 'seo', 'best-practices', 'agentic-browsing'];
/**
 * Artifacts Lighthouse gathers for every run ("filter resistant") only to
 * decorate its report; no audit of the four categories reads them.
 */
const REPORT_ONLY_ARTIFACTS = ['FullPageScreenshot', 'NetworkUserAgent'];

/** Packages Lighthouse imports that are replaced wholesale. */
const PACKAGE_STUBS = {
  'puppeteer-core': `
    const unavailable = () => { throw new Error('This Lighthouse build runs on a page adapter; puppeteer is not bundled.'); };
    export default {connect: unavailable, launch: unavailable};`,
  '@sentry/node': 'export {};',
};

/** Lighthouse files replaced wholesale (paths relative to the package). */
const FILE_STUBS = {
  // Translations (14 MB): en-US strings are the modules' own defaults.
  'shared/localization/locales.js': 'export const locales = {};',
  // Multi-step flow reports are not produced by lighthouse_audit.
  'report/generator/flow-report-assets.js': 'export const flowReportAssets = {};',
};

/**
 * Source edits in Lighthouse's dependencies: [package, file in it, text, replacement].
 * intl-messageformat resolves the locale of every message it builds
 * (Intl.NumberFormat.supportedLocalesOf, then a new Intl.Locale: ~70 µs);
 * Lighthouse builds some 20,000 messages per audit, all for one locale, so
 * remembering the answer per locale string saves about a second per audit.
 * Intl.Locale objects are immutable, so sharing one is safe.
 */
const DEPENDENCY_PATCHES = [
  [
    'intl-messageformat',
    'src/core.js',
    'IntlMessageFormat.resolveLocale = function (locales) {',
    `var resolvedLocales = new Map();
    IntlMessageFormat.resolveLocale = function (locales) {
        if (typeof locales === 'string') {
            if (!resolvedLocales.has(locales)) {
                resolvedLocales.set(locales, resolveLocaleOnce(locales));
            }
            return resolvedLocales.get(locales);
        }
        return resolveLocaleOnce(locales);
    };
    var resolveLocaleOnce = function (locales) {`,
  ],
];

/** A package's folder, as Lighthouse itself would resolve it (its own dependencies first). */
/** Lighthouse files whose fs calls take run-time paths (saving artifacts with -G/-A, which we never use). */
const RUNTIME_FS_FILES = ['core/lib/asset-saver.js'];

function packageRoot(name) {
  const lighthouse = dirname(require.resolve('lighthouse/package.json'));
  return name === 'lighthouse'
    ? lighthouse
    : dirname(createRequire(join(lighthouse, 'package.json')).resolve(`${name}/package.json`));
}

/** Versions of the packages that decide the bundle's content (for the vendor build's rebuild hash). */
export function inputVersions() {
  return Object.fromEntries(
    ['lighthouse', 'axe-core', 'third-party-web', '@paulirish/trace_engine'].map(name => [
      name,
      JSON.parse(readFileSync(join(packageRoot(name), 'package.json'), 'utf8')).version,
    ]),
  );
}

/** Evaluates the path argument of an fs call when it is static, else undefined. */
function staticPath(expression, file, lighthouseRoot) {
  const moduleDir = dirname(file);
  const expr = expression.trim();
  let match;
  if ((match = /^require\.resolve\(\s*'([^']+)'\s*\)$/.exec(expr))) {
    return createRequire(file).resolve(match[1]);
  }
  if ((match = /^moduleDir\s*\+\s*'([^']+)'$/.exec(expr))) {
    return moduleDir + match[1];
  }
  if ((match = /^`\$\{moduleDir\}([^`$]+)`$/.exec(expr))) {
    return moduleDir + match[1];
  }
  if ((match = /^`\$\{LH_ROOT\}([^`$]+)`$/.exec(expr))) {
    return lighthouseRoot + match[1];
  }
  if ((match = /^path\.join\(\s*moduleDir\s*,\s*'([^']+)'\s*\)$/.exec(expr))) {
    return join(moduleDir, match[1]);
  }
  return undefined;
}

/** The argument text of a call starting at `open` (the index of its "("), with nesting. */
function callArguments(source, open) {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '(') {
      depth++;
    } else if (ch === ')' && --depth === 0) {
      return {text: source.slice(open + 1, i), end: i + 1};
    }
  }
  return undefined;
}

/** Splits top-level comma-separated arguments. */
function splitArguments(text) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ('([{'.includes(ch)) {
      depth++;
    } else if (')]}'.includes(ch)) {
      depth--;
    } else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map(p => p.trim()).filter(Boolean);
}

/** Replaces fs.readFileSync(<static>, 'utf8') and fs.readdirSync(<static>) by their results. */
function inlineFs(source, file, lighthouseRoot, warnings) {
  let out = '';
  let last = 0;
  const pattern = /\bfs\.(readFileSync|readdirSync)\s*\(/g;
  for (let match; (match = pattern.exec(source));) {
    const call = callArguments(source, match.index + match[0].length - 1);
    if (!call) {
      continue;
    }
    const [pathArg, encoding] = splitArguments(call.text);
    const path = pathArg && staticPath(pathArg, file, lighthouseRoot);
    let replacement;
    if (path && match[1] === 'readdirSync' && encoding === undefined) {
      replacement = JSON.stringify(readdirSync(path).sort());
    } else if (path && match[1] === 'readFileSync' && /^'utf-?8'$/.test(encoding ?? '')) {
      replacement = JSON.stringify(readFileSync(path, 'utf8'));
    }
    if (replacement === undefined) {
      if (!RUNTIME_FS_FILES.includes(relative(lighthouseRoot, file))) {
        warnings.push(`${relative(projectRoot, file)}: left fs.${match[1]}(${call.text.slice(0, 60)}) as is`);
      }
      continue;
    }
    out += source.slice(last, match.index) + replacement;
    last = call.end;
    pattern.lastIndex = call.end;
  }
  return out + source.slice(last);
}

/**
 * The default config's audits and gatherers that the audited categories do
 * not need (paths under core/), read from the config and each kept audit's
 * requiredArtifacts, artifact dependencies followed. Runs Lighthouse's
 * modules at build time.
 */
async function unneededModules(lighthouseRoot) {
  const url = rel => pathToFileURL(join(lighthouseRoot, rel)).href;
  const {default: config} = await import(url('core/config/default-config.js'));
  const auditIds = new Set(AUDITED_CATEGORIES.flatMap(id => config.categories[id].auditRefs.map(ref => ref.id)));
  const shimmed = new Set();
  const artifacts = new Set();
  for (const entry of config.audits) {
    const path = typeof entry === 'string' ? entry : entry.path;
    const {meta} = (await import(url(`core/audits/${path}.js`))).default;
    if (auditIds.has(meta.id)) {
      meta.requiredArtifacts.forEach(id => artifacts.add(id));
    } else {
      shimmed.add(`core/audits/${path}.js`);
    }
  }
  const byId = new Map(config.artifacts.map(a => [a.id, a]));
  for (let size = -1; size !== artifacts.size;) {
    size = artifacts.size;
    for (const id of [...artifacts]) {
      Object.values(byId.get(id)?.dependencies ?? {}).forEach(dep => artifacts.add(dep.id));
    }
  }
  for (const artifact of config.artifacts) {
    if (!artifacts.has(artifact.id) || REPORT_ONLY_ARTIFACTS.includes(artifact.id)) {
      shimmed.add(`core/gather/gatherers/${artifact.gatherer}.js`);
    }
  }
  return shimmed;
}

/** An audit that never runs (its category is not audited) but keeps the config valid. */
function auditShim(lighthouseRoot, file) {
  const id = file.replace(/^.*\//, '').replace(/\.js$/, '');
  return `import {Audit} from ${JSON.stringify(join(lighthouseRoot, 'core/audits/audit.js'))};
export default class NotBundledAudit extends Audit {
  static get meta() {
    return {id: ${JSON.stringify(id)}, title: 'Not bundled', description: 'Not part of the audited categories.',
      scoreDisplayMode: Audit.SCORING_MODES.NOT_APPLICABLE, requiredArtifacts: []};
  }
  static audit() { return {score: null, notApplicable: true}; }
}`;
}

/**
 * A gatherer no audited category needs: dropped from runs where no audit asks
 * for it, and gathering nothing where Lighthouse keeps it anyway (the report
 * extras). It claims every mode because the config validation requires one.
 */
function gathererShim(lighthouseRoot) {
  return `import BaseGatherer from ${JSON.stringify(join(lighthouseRoot, 'core/gather/base-gatherer.js'))};
export default class NotBundledGatherer extends BaseGatherer {
  meta = {supportedModes: ['navigation', 'timespan', 'snapshot']};
  getArtifact() { return undefined; }
}`;
}

/** Every core audit and gatherer as config-helpers names them, imported on first use. */
function bundledModuleTable(lighthouseRoot) {
  const list = (dir, prefix = '') =>
    readdirSync(join(lighthouseRoot, dir)).flatMap(name => {
      const full = join(lighthouseRoot, dir, name);
      if (statSync(full).isDirectory()) {
        return name === 'test' ? [] : list(join(dir, name), `${prefix}${name}/`);
      }
      return name.endsWith('.js') ? [`${prefix}${name}`] : [];
    });
  const entries = [
    ...list('core/audits').map(p => `../audits/${p}`),
    ...list('core/gather/gatherers').map(p => `../gather/gatherers/${p}`),
  ];
  // Thenables: `await` imports a module only when the config asks for it.
  return `[${entries
    .map(
      p =>
        `[${JSON.stringify(p.slice(0, -3))}, {then(ok, fail) { return import(${JSON.stringify(p)}).then(ok, fail); }}]`,
    )
    .join(',\n')}]`;
}

/** The esbuild plugin that makes Lighthouse's package-relative code self-contained. */
function lighthousePlugin(lighthouseRoot, shimmed, warnings) {
  const inLighthouse = path =>
    path?.startsWith(lighthouseRoot + '/') && !path.slice(lighthouseRoot.length).includes('/node_modules/');
  const fileStubs = new Map(Object.entries(FILE_STUBS).map(([rel, code]) => [join(lighthouseRoot, rel), code]));
  const used = new Set();
  return {
    name: 'lighthouse-self-contained',
    setup(b) {
      const stubFilter = new RegExp(
        `^(${Object.keys(PACKAGE_STUBS)
          .map(n => n.replace(/[/.]/g, '\\$&'))
          .join('|')})$`,
      );
      b.onResolve({filter: stubFilter}, args => ({path: args.path, namespace: 'lighthouse-stub'}));
      b.onLoad({filter: /.*/, namespace: 'lighthouse-stub'}, args => ({
        contents: PACKAGE_STUBS[args.path],
        loader: 'js',
      }));
      // Lighthouse decides "am I bundled?" by whether require.resolve fails; make it fail always.
      b.onResolve({filter: /^(node:)?module$/}, args =>
        inLighthouse(args.importer) ? {path: 'module', namespace: 'lighthouse-module'} : undefined,
      );
      b.onLoad({filter: /.*/, namespace: 'lighthouse-module'}, () => ({
        contents: `export const createRequire = () => {
            const require = () => { throw new Error('require() is not available in bundled Lighthouse'); };
            require.resolve = () => { throw new Error('require.resolve() is not available in bundled Lighthouse'); };
            return require;
          };
          export default {createRequire};`,
        loader: 'js',
      }));
      const patches = new Map(
        DEPENDENCY_PATCHES.map(([name, file, text, replacement]) => [
          join(packageRoot(name), file),
          {text, replacement},
        ]),
      );
      b.onLoad({filter: /\.js$/}, args => {
        const patch = patches.get(args.path);
        if (patch) {
          patches.delete(args.path);
          const source = readFileSync(args.path, 'utf8');
          if (!source.includes(patch.text)) {
            warnings.push(`${args.path}: the text to patch was not found (did the package change?)`);
            return undefined;
          }
          return {
            contents: source.replace(patch.text, patch.replacement),
            loader: 'js',
            resolveDir: dirname(args.path),
          };
        }
        if (!inLighthouse(args.path)) {
          return undefined;
        }
        const stub = fileStubs.get(args.path);
        if (stub !== undefined) {
          used.add(args.path);
          return {contents: stub, loader: 'js'};
        }
        const rel = relative(lighthouseRoot, args.path);
        if (shimmed.has(rel)) {
          return {
            contents: rel.startsWith('core/audits/') ? auditShim(lighthouseRoot, rel) : gathererShim(lighthouseRoot),
            loader: 'js',
          };
        }
        let source = readFileSync(args.path, 'utf8');
        const virtualUrl = pathToFileURL(join(VIRTUAL_ROOT, relative(lighthouseRoot, args.path))).href;
        source = source.replace(/\bimport\.meta\b/g, `({url: ${JSON.stringify(virtualUrl)}})`);
        if (source.includes('/* BUILD_REPLACE_BUNDLED_MODULES */')) {
          source = source.replace('/* BUILD_REPLACE_BUNDLED_MODULES */', bundledModuleTable(lighthouseRoot));
        }
        if (/\bfs\.(readFileSync|readdirSync)\b/.test(source)) {
          source = inlineFs(source, args.path, lighthouseRoot, warnings);
        }
        return {contents: source, loader: 'js', resolveDir: dirname(args.path)};
      });
      b.onEnd(() => {
        for (const path of patches.keys()) {
          warnings.push(`${path} was not bundled: its patch is stale (did Lighthouse change dependencies?)`);
        }
        for (const path of fileStubs.keys()) {
          if (!used.has(path)) {
            warnings.push(`stub for ${relative(lighthouseRoot, path)} was not used (did Lighthouse move it?)`);
          }
        }
      });
    },
  };
}

/** The bundle's entry: the run and report functions, the device presets and the logger. */
function entrySource(lighthouseRoot) {
  const index = JSON.stringify(join(lighthouseRoot, 'core/index.js'));
  const root = JSON.stringify(join(lighthouseRoot, 'shared/root.js'));
  const constants = JSON.stringify(join(lighthouseRoot, 'core/config/constants.js'));
  return `export {navigation, snapshot, generateReport} from ${index};
export {lighthouseVersion} from ${root};
export {screenEmulationMetrics, userAgents} from ${constants};
export {default as lighthouseLogger} from 'lighthouse-logger';
`;
}

function licenseBanner(lighthouseRoot) {
  const version = JSON.parse(readFileSync(join(lighthouseRoot, 'package.json'), 'utf8')).version;
  return `/*! Lighthouse ${version} (Apache-2.0, Google LLC), bundled with axe-core (MPL-2.0) and other packages listed in THIRD_PARTY_NOTICES. Built by scripts/vendor/lighthouse.mjs. */`;
}

/**
 * Writes <outDir>/lighthouse.mjs. Returns its size, the warnings (stale
 * notices among them) and esbuild's metafile.
 */
export async function build({outDir = join(projectRoot, 'build/vendor')} = {}) {
  const lighthouseRoot = packageRoot('lighthouse');
  const outfile = join(outDir, OUTPUT_NAME);
  const esbuild = await import('esbuild');
  await mkdir(outDir, {recursive: true});
  const warnings = [];
  const started = Date.now();
  const shimmed = await unneededModules(lighthouseRoot);
  const result = await esbuild.build({
    stdin: {contents: entrySource(lighthouseRoot), resolveDir: lighthouseRoot, sourcefile: 'lighthouse-entry.js'},
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    // Lighthouse serialises page functions by name and re-creates esbuild's
    // name helper in the page; it supports exactly this setting.
    keepNames: true,
    legalComments: 'none',
    // CommonJS dependencies (debug, …) require Node built-ins; an ESM bundle needs a require for that.
    banner: {
      js: `${licenseBanner(lighthouseRoot)}\nimport {createRequire as __lhCreateRequire} from 'node:module';\nconst require = __lhCreateRequire(import.meta.url);`,
    },
    charset: 'utf8',
    metafile: true,
    logLevel: 'silent',
    plugins: [lighthousePlugin(lighthouseRoot, shimmed, warnings)],
  });
  warnings.push(...result.warnings.map(w => `${w.location?.file ?? ''}: ${w.text}`));
  const notices = existsSync(NOTICES_FILE) ? readFileSync(NOTICES_FILE, 'utf8') : '';
  for (const {name, version} of bundledPackages(result.metafile)) {
    if (!notices.includes(`${name} ${version} `)) {
      warnings.push(
        `THIRD_PARTY_NOTICES lacks ${name} ${version}: regenerate its Lighthouse section (node scripts/vendor/lighthouse.mjs --notices)`,
      );
    }
  }
  const bytes = statSync(outfile).size;
  return {
    outfile,
    skipped: false,
    warnings,
    bytes,
    shims: shimmed.size,
    ms: Date.now() - started,
    metafile: result.metafile,
  };
}

/** The npm packages whose code the bundle contains, from esbuild's metafile, plus the inlined ones. */
function bundledPackages(metafile) {
  const names = new Set(INLINED_PACKAGES);
  for (const output of Object.values(metafile.outputs)) {
    for (const input of Object.keys(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input);
      if (m?.[1]) {
        names.add(m[1]);
      }
    }
  }
  return [...names].sort().map(name => {
    const dir = packageRoot(name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenseFiles = readdirSync(dir)
      .filter(f => /^(licen[cs]e|copying|notice|copyrightnotice)/i.test(f))
      .sort();
    const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
    return {name, version: pkg.version, license: pkg.license, author, dir, licenseFiles};
  });
}

/**
 * The Lighthouse section of THIRD_PARTY_NOTICES: every package in the bundle
 * with its version and licence, and each distinct licence text once.
 */
async function notices() {
  const outDir = await mkdtemp(join(tmpdir(), 'lighthouse-notices-'));
  const result = await build({outDir}).finally(() => rm(outDir, {recursive: true, force: true}));
  const packages = bundledPackages(result.metafile);
  const texts = new Map();
  for (const p of packages) {
    for (const file of p.licenseFiles) {
      const text = readFileSync(join(p.dir, file), 'utf8').trim();
      texts.set(text, [...(texts.get(text) ?? []), `${p.name} (${file})`]);
    }
  }
  const rule = '='.repeat(78);
  const lighthouse = packages.find(p => p.name === 'lighthouse');
  const lines = [
    rule,
    `Lighthouse ${lighthouse?.version} and the packages bundled with it (npm)`,
    `Into: build/vendor/${OUTPUT_NAME} (scripts/vendor/lighthouse.mjs)`,
    'Packages (name, version, licence, author):',
    ...packages.map(
      p =>
        `- ${p.name} ${p.version} (${p.license})${p.author ? `, ${p.author}` : ''}${p.licenseFiles.length ? '' : ': no licence file in the package'}`,
    ),
  ];
  for (const [text, owners] of texts) {
    lines.push('', '-'.repeat(78), `Licence text of ${owners.join(', ')}:`, '', text);
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--notices')) {
    process.stdout.write(await notices());
    process.exit(0);
  }
  const result = await build();
  for (const warning of result.warnings) {
    console.error(`warning: ${warning}`);
  }
  console.error(
    `built ${relative(process.cwd(), result.outfile)} (${(result.bytes / 1e6).toFixed(2)} MB in ${result.ms} ms)`,
  );
}
