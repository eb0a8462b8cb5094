#!/usr/bin/env node
// The layers of src/: every import is resolved to the file it names and
// checked against the layer order. Static imports, re-exports, `import type`
// and dynamic `import('…')` all count, whatever path they take to get there
// (`../../src/server/x.js` from src/browser/ is still src/server/).
// Usage: node scripts/check-layers.mjs [root] (default src)
//        node scripts/check-layers.mjs --self-test (plants violations, expects them found)
//
// A layer may import only from layers below it and from the leaves; leaves
// import only the leaves they are allowed. `input`, `snapshot` and `devtools`
// (DevTools' own models: traces, CSS, heap snapshots, Lighthouse) sit side by
// side and do not import each other; so do `server` (the MCP server) and
// `client` (the `cdp-mcp start|status|stop|<tool>` commands, a small MCP
// client of the background server over fetch). Some packages belong to one layer.
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, relative, resolve, sep} from 'node:path';

import {requireTestDep} from './test-deps.mjs';

/** TypeScript's compiler API, from the test packages (test/deps), as for typescript-eslint. */
const ts = requireTestDep('typescript');

export const LAYERS = ['cdp', 'browser', 'input|snapshot|devtools', 'tools', 'server|client', 'bin'];
/** Imported by every layer; they import no layer. */
export const LEAVES = ['util', 'response', 'config'];
/** Leaf-to-leaf imports that are allowed (config and response use util). */
const LEAF_DEPS = {util: [], response: ['util'], config: ['util']};
/** The layers that may use the CDP layer directly. */
const CDP_USERS = ['browser', 'input', 'snapshot', 'devtools'];
/** Packages only one layer may import. */
const OWNED_PACKAGES = [
  {names: ['chrome-remote-interface', 'chrome-launcher', 'ws'], owner: 'cdp'},
  {names: ['@modelcontextprotocol/sdk'], owner: 'server'},
];
/** Folders outside src/ that src/ may import (generated protocol types). */
const OUTSIDE_ALLOWED = ['protocol'];

const rankOf = folder => LAYERS.findIndex(layer => layer.split('|').includes(folder));

/** Why `from` may not import `to` (two folders of src/), or undefined when it may. */
function layerViolation(from, to) {
  if (from === to) {
    return undefined;
  }
  if (LEAVES.includes(from)) {
    return LEAF_DEPS[from].includes(to)
      ? undefined
      : `src/${from}/ is a leaf: it may import only ${LEAF_DEPS[from].map(f => `src/${f}/`).join(', ') || 'other files of its own folder'}`;
  }
  if (LEAVES.includes(to)) {
    return undefined;
  }
  const [a, b] = [rankOf(from), rankOf(to)];
  if (a < 0 || b < 0) {
    return `src/${a < 0 ? from : to}/ is in no layer (add it to LAYERS or LEAVES in scripts/check-layers.mjs)`;
  }
  if (b > a) {
    return `src/${from}/ may not import the higher layer src/${to}/`;
  }
  if (b === a) {
    return `src/${from}/ and src/${to}/ sit side by side and do not import each other`;
  }
  if (to === 'cdp' && !CDP_USERS.includes(from)) {
    return `src/${from}/ talks to Chrome through the browser model, not src/cdp/`;
  }
  return undefined;
}

function packageViolation(from, specifier) {
  for (const {names, owner} of OWNED_PACKAGES) {
    if (owner !== from && names.some(name => specifier === name || specifier.startsWith(`${name}/`))) {
      return `only src/${owner}/ may import ${names[0]}`;
    }
  }
  return undefined;
}

function sourceFiles(root) {
  const files = [];
  const walk = dir => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) {
        files.push(path);
      }
    }
  };
  walk(root);
  return files;
}

/** Every violation under `root` (a src/ folder), as "file: specifier: why" lines. */
export function checkLayers(root) {
  const problems = [];
  for (const file of sourceFiles(root)) {
    const from = relative(root, file).split(sep)[0];
    if (from === relative(root, file)) {
      continue; // A file at the root of src/ (none today) belongs to no layer.
    }
    // preProcessFile finds static imports, re-exports and import('literal') calls, comments left out.
    const {importedFiles} = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const {fileName: specifier} of importedFiles) {
      let why;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        const inside = relative(root, target);
        if (inside.startsWith('..')) {
          const outside = relative(dirname(root), target).split(sep)[0];
          why = OUTSIDE_ALLOWED.includes(outside) ? undefined : `leaves src/ (${relative(process.cwd(), target)})`;
        } else {
          why = layerViolation(from, inside.split(sep)[0]);
        }
      } else if (!specifier.startsWith('node:')) {
        why = packageViolation(from, specifier);
      }
      if (why) {
        problems.push(`${relative(process.cwd(), file)}: '${specifier}': ${why}`);
      }
    }
  }
  return problems;
}

/** Plants an upward dynamic import and a detour path in a throwaway src/ and expects both found. */
function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), 'check-layers-'));
  try {
    const src = join(dir, 'src');
    const put = (path, text) => {
      mkdirSync(dirname(join(src, path)), {recursive: true});
      writeFileSync(join(src, path), text);
    };
    put('tools/registry.ts', 'export const tools = [];\n');
    put('server/pipeline.ts', 'export const run = 1;\n');
    put('browser/core/lazy.ts', "export async function late() {\n  return import('../../tools/registry.js');\n}\n");
    put('browser/detour.ts', "export {run} from '../../src/server/pipeline.js';\n");
    put(
      'browser/fine.ts',
      "// import('../tools/registry.js') in a comment is no import\nimport {x} from '../util/x.js';\n",
    );
    put('util/x.ts', 'export const x = 1;\n');
    const problems = checkLayers(src);
    const expected = [
      /lazy\.ts: '\.\.\/\.\.\/tools\/registry\.js'/,
      /detour\.ts: '\.\.\/\.\.\/src\/server\/pipeline\.js'/,
    ];
    const missing = expected.filter(pattern => !problems.some(line => pattern.test(line)));
    if (missing.length || problems.length !== expected.length) {
      console.error(
        `check-layers self-test failed: expected exactly the planted violations, got:\n${problems.join('\n') || '(none)'}`,
      );
      process.exit(1);
    }
    console.log('check-layers self-test: the planted upward dynamic import and detour path are both refused.');
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
}

if (process.argv[2] === '--self-test') {
  selfTest();
} else {
  const root = resolve(process.argv[2] ?? 'src');
  const problems = checkLayers(root);
  if (problems.length) {
    console.error(
      `${problems.length} import(s) break the layers (${LAYERS.join(' → ')}; leaves: ${LEAVES.join(', ')}):\n${problems.join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`Layers hold: every import under ${relative(process.cwd(), root) || '.'} goes down or to a leaf.`);
}
