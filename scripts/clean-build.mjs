#!/usr/bin/env node
// Removes compiled output before tsc runs, so files deleted or moved in the
// sources (a test file renamed, a module split) leave no stale copy in build/
// that the test runner would still pick up. The vendor bundles (build/vendor)
// are kept: scripts/build-vendor.mjs rebuilds them only when their inputs change.
// Usage: node scripts/clean-build.mjs [folder…] (default src test scripts protocol:
// what tsc compiles; `npm run build:server` compiles and so cleans src and protocol only)
import {rmSync} from 'node:fs';

const folders = process.argv.length > 2 ? process.argv.slice(2) : ['src', 'test', 'scripts', 'protocol'];
for (const folder of folders) {
  rmSync(`build/${folder}`, {recursive: true, force: true});
}
