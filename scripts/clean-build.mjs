#!/usr/bin/env node
// Removes compiled output before tsc runs, so files deleted or moved in the
// sources (a test file renamed, a module split) leave no stale copy in build/
// that the test runner would still pick up. The vendor bundles (build/vendor)
// are kept: scripts/build-vendor.mjs rebuilds them only when their inputs change.
import {rmSync} from 'node:fs';

for (const dir of ['build/src', 'build/test', 'build/scripts', 'build/protocol']) {
  rmSync(dir, {recursive: true, force: true});
}
