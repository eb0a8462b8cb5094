#!/usr/bin/env node
// Fails when the modules under src/ import each other in a circle, counting
// `import type` too: import-x/no-cycle ignores type-only imports, but a type
// that travels both ways between two files still ties their concepts together.
// Usage: node scripts/check-cycles.mjs [dir] (default src).
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';

const root = resolve(process.argv[2] ?? 'src');
const files = [];
const walk = dir => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
};
walk(root);

// Static imports and re-exports with a relative specifier (dynamic import()
// is a deliberate lazy edge and does not count).
const IMPORT = /^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm;
const graph = new Map();
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const edges = new Set();
  for (const match of source.matchAll(IMPORT)) {
    const target = resolve(dirname(file), match[1].replace(/\.js$/, '.ts'));
    if (target.startsWith(root) && files.includes(target)) {
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
  console.error(`Import circles under ${relative(process.cwd(), root)}/ (type-only imports included):`);
  for (const circle of circles) {
    console.error(
      `- ${circle
        .map(f => relative(root, f))
        .sort()
        .join(' ↔ ')}`,
    );
  }
  console.error('Move the shared piece into the lower module (or a new one both import), so imports go one way.');
  process.exit(1);
}
console.log(`No import circles among ${files.length} modules.`);
