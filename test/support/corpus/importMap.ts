/**
 * Import maps for pages built from ES-module packages with bare imports
 * (ProseMirror, CodeMirror, Material Web + Lit): every package and its
 * dependencies, resolved as a browser resolves package exports, pointing into
 * the served node_modules. No bundler: the browser loads the packages' own files.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';

import {NODE_MODULES} from '../fixtureServer.js';

/** Export conditions a browser loading ES modules matches, in the order the package lists them. */
const CONDITIONS = new Set(['browser', 'import', 'module', 'default']);

type Exports = string | {[key: string]: Exports} | null | undefined;

function pickCondition(entry: Exports): string | undefined {
  if (typeof entry === 'string') {
    return entry;
  }
  if (!entry) {
    return undefined;
  }
  for (const [key, value] of Object.entries(entry)) {
    if (CONDITIONS.has(key)) {
      const picked = pickCondition(value);
      if (picked) {
        return picked;
      }
    }
  }
  return undefined;
}

interface Manifest {
  module?: string;
  main?: string;
  exports?: Exports | {'.'?: Exports};
  dependencies?: Record<string, string>;
}

function manifest(name: string): Manifest {
  return JSON.parse(readFileSync(join(NODE_MODULES, name, 'package.json'), 'utf8')) as Manifest;
}

/** The ES module entry of a package, relative to its folder. */
function entryOf(pkg: Manifest): string | undefined {
  const exports = pkg.exports;
  if (exports && typeof exports === 'object' && '.' in exports) {
    return pickCondition(exports['.']);
  }
  if (typeof exports === 'string') {
    return exports;
  }
  return pkg.module ?? pkg.main;
}

/** `<script type="importmap">` for `roots` and everything they depend on. */
export function importMapScript(roots: string[]): string {
  const imports: Record<string, string> = {};
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) {
      return;
    }
    seen.add(name);
    let pkg: Manifest;
    try {
      pkg = manifest(name);
    } catch {
      return;
    }
    const entry = entryOf(pkg);
    if (entry) {
      imports[name] = `/node_modules/${name}/${entry.replace(/^\.\//, '')}`;
    }
    imports[`${name}/`] = `/node_modules/${name}/`;
    for (const dep of Object.keys(pkg.dependencies ?? {})) {
      visit(dep);
    }
  };
  roots.forEach(visit);
  return `<script type="importmap">${JSON.stringify({imports})}</script>`;
}
