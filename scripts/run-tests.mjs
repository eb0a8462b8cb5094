#!/usr/bin/env node
// Runs every compiled test file (build/test/**/*.test.js) with node --test.
// Usage: node scripts/run-tests.mjs [unit|e2e|smoke|all] (default all).
// `smoke` is the unit tests plus SMOKE_E2E: one end-to-end suite per layer a
// Node.js upgrade can break (stdio, process lifecycle and attach, pages, script
// and screenshots, input, network), for a second Node.js version in CI.
import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';

const SMOKE_E2E = ['lifecycle', 'pages', 'script', 'input', 'network'].map(name => `build/test/e2e/${name}.test.js`);

const tier = process.argv[2] ?? 'all';
const roots = ['all', 'smoke'].includes(tier)
  ? ['build/test/unit', ...(tier === 'all' ? ['build/test/e2e'] : [])]
  : [`build/test/${tier}`];
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
if (tier === 'smoke') {
  const missing = SMOKE_E2E.filter(file => !existsSync(file));
  if (missing.length) {
    console.error(`SMOKE_E2E in scripts/run-tests.mjs names missing suites (${missing.join(', ')}): update the list.`);
    process.exit(1);
  }
  files.push(...SMOKE_E2E);
}
if (files.length === 0) {
  console.error(`No test files under ${roots.join(', ')}. Run "npm run build" first.`);
  process.exit(1);
}
if (!process.env.CHROME_PATH && existsSync('/usr/bin/chromium')) {
  process.env.CHROME_PATH = '/usr/bin/chromium';
}
// Two files at a time: most of an end-to-end test's time is spent waiting on
// Chrome, so two overlap well on two cores (node's default there is one).
// TEST_CONCURRENCY overrides it (1 for a serial run when chasing a flake).
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  {
    stdio: 'inherit',
    env: process.env,
  },
);
process.exit(result.status ?? 1);
