#!/usr/bin/env node
// Fails when the modules under src/ (or the folders given) import each other
// in a circle, counting `import type` too: a type that travels both ways
// between two files still ties their concepts together. ESLint's
// import-x/no-cycle sees only .js/.mjs files here (its ExportMap skips .ts
// without an import-x/extensions setting, and reading every import a second
// time would cost lint seconds), so this is the cycle check of the .ts files.
// Usage: node scripts/check-cycles.mjs [dir...] (default src); npm run lint
// passes src test scripts (one graph; node_modules folders are skipped).
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';

const roots = (process.argv.length > 2 ? process.argv.slice(2) : ['src']).map(dir => resolve(dir));
const files = [];
const walk = dir => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') {
        walk(path);
      }
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
};
roots.forEach(walk);
const known = new Set(files);

// Static imports and re-exports with a relative specifier (dynamic import()
// is a deliberate lazy edge and does not count).
const IMPORT = /^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm;
const graph = new Map();
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const edges = new Set();
  for (const match of source.matchAll(IMPORT)) {
    const target = resolve(dirname(file), match[1].replace(/\.js$/, '.ts'));
    if (known.has(target)) {
      edges.add(target);
    }
  }
  graph.set(file, [...edges]);
}

// Tarjan's strongly connected components: every component of more than one
// file is a circle.
let index = 0;
const stack = [];
const state = new Map();
const circles = [];
const visit = file => {
  const entry = {index, low: index, onStack: true};
  index++;
  state.set(file, entry);
  stack.push(file);
  for (const next of graph.get(file)) {
    const seen = state.get(next);
    if (!seen) {
      visit(next);
      entry.low = Math.min(entry.low, state.get(next).low);
    } else if (seen.onStack) {
      entry.low = Math.min(entry.low, seen.index);
    }
  }
  if (entry.low === entry.index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) {
      circles.push(component);
    }
  }
};
for (const file of files) {
  if (!state.has(file)) {
    visit(file);
  }
}

if (circles.length) {
  console.error(
    `Import circles under ${roots.map(r => relative(process.cwd(), r) + '/').join(', ')} (type-only imports included):`,
  );
  for (const circle of circles) {
    console.error(
      `- ${circle
        .map(f => relative(process.cwd(), f))
        .sort()
        .join(' ↔ ')}`,
    );
  }
  console.error('Move the shared piece into the lower module (or a new one both import), so imports go one way.');
  process.exit(1);
}
console.log(`No import circles among ${files.length} modules.`);
