#!/usr/bin/env node
// Runs every compiled test file (build/test/**/*.test.js) with node --test.
// Usage: node scripts/run-tests.mjs [unit|e2e|all] (default all).
import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';

const tier = process.argv[2] ?? 'all';
const roots = tier === 'all' ? ['build/test/unit', 'build/test/e2e'] : [`build/test/${tier}`];
const files = [];
const walk = dir => {
  if (!existsSync(dir)) {
    return;
  }
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (name.endsWith('.test.js')) {
      files.push(path);
    }
  }
};
roots.forEach(walk);
if (files.length === 0) {
  console.error(`No test files under ${roots.join(', ')}. Run "npm run build" first.`);
  process.exit(1);
}
if (!process.env.CHROME_PATH && existsSync('/usr/bin/chromium')) {
  process.env.CHROME_PATH = '/usr/bin/chromium';
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
