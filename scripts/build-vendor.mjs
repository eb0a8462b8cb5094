#!/usr/bin/env node
// Builds the vendored bundles in build/vendor/ that tools load lazily. Each
// scripts/vendor/<name>.mjs exports build({outDir, force}) and skips the work
// when its inputs are unchanged. Usage: node scripts/build-vendor.mjs [--force]
import {relative} from 'node:path';

import * as lighthouse from './vendor/lighthouse.mjs';

const force = process.argv.includes('--force');
for (const [name, builder] of Object.entries({lighthouse})) {
  const result = await builder.build({force});
  for (const warning of result.warnings) {
    console.error(`${name}: warning: ${warning}`);
  }
  if (!result.skipped) {
    console.error(`${name}: built ${relative(process.cwd(), result.outfile)} (${(result.bytes / 1e6).toFixed(2)} MB)`);
  }
}
