#!/usr/bin/env node
// Runs every compiled test file (build/test/**/*.test.js), each in its own
// `node --test` process, a few at a time, every file bounded in time.
// Usage: node scripts/run-tests.mjs [unit|e2e|smoke|all] (default all).
// `smoke` is the unit tests plus SMOKE_E2E: one end-to-end suite per layer a
// Node.js upgrade can break (stdio, process lifecycle and attach, pages, script
// and screenshots, input, network), and the packed package installed and run
// through its bin (every lazily loaded bundle, worker and child process), for a
// second Node.js version in CI.
//
// Why not one `node --test` over all files: a file that never ends (a test
// that hangs, or a handle that keeps its process alive) then stalls the whole
// run until CI's limit kills it, and the log does not say which file it was.
// Here a file over TEST_FILE_TIMEOUT_S is killed with its children and named,
// its output so far is printed, and the run goes on. Each file's output is
// printed whole when it ends (never interleaved), with its duration, and the
// run ends with a summary: failed and timed-out files, the slowest files,
// the wall time.
import {Buffer} from 'node:buffer';
import {spawn} from 'node:child_process';
import {appendFileSync, existsSync, readdirSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {clearTimeout, setTimeout} from 'node:timers';

const SMOKE_E2E = ['lifecycle', 'pages', 'script', 'input', 'network', 'install'].map(
  name => `build/test/e2e/${name}.test.js`,
);

const tier = process.argv[2] ?? 'all';
if (!['all', 'smoke', 'unit', 'e2e'].includes(tier)) {
  console.error(`Unknown test tier "${tier}": use all, smoke, unit or e2e.`);
  process.exit(2);
}
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

const positive = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a whole number of at least 1, got "${raw}".`);
    process.exit(2);
  }
  return value;
};
// Two files at a time: most of an end-to-end test's time is spent waiting on
// Chrome, so two overlap well on two cores. TEST_CONCURRENCY overrides it (1
// for a serial run when chasing a flake).
const concurrency = positive('TEST_CONCURRENCY', 2);
// The longest file takes about 1.5 min on a loaded 2-core machine; 10 min
// means it hangs.
const fileTimeoutS = positive('TEST_FILE_TIMEOUT_S', 600);

/** Lines of each failed file's output repeated in the summary. */
const DETAIL_LINES = 40;

const started = Date.now();
const results = [];
const seconds = ms => (ms / 1000).toFixed(1);

/** Runs one file; resolves with its outcome once its process (group) is gone. */
function runFile(file) {
  return new Promise(resolve => {
    const begun = Date.now();
    const chunks = [];
    // Its own process group, so a timeout kills the test's Chromes and
    // servers too, not only the runner.
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout.on('data', chunk => chunks.push(chunk));
    child.stderr.on('data', chunk => chunks.push(chunk));
    let timedOut = false;
    const killGroup = signal => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5000).unref();
    }, fileTimeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever the file left running (a Chrome it did not close) goes too.
      killGroup('SIGKILL');
      resolve({file, code, signal, timedOut, ms: Date.now() - begun, output: Buffer.concat(chunks).toString()});
    });
  });
}

function report(result) {
  const name = relative('build/test', result.file);
  process.stdout.write(result.output.endsWith('\n') || result.output === '' ? result.output : `${result.output}\n`);
  const verdict = result.timedOut
    ? `TIMED OUT after ${fileTimeoutS} s (killed; TEST_FILE_TIMEOUT_S sets the limit)`
    : result.code === 0
      ? 'passed'
      : `FAILED (exit ${result.code ?? result.signal})`;
  console.log(`=== ${name}: ${verdict} in ${seconds(result.ms)} s\n`);
}

// Files start in order and are reported in order, each as soon as it and
// every file before it have ended.
const pending = files.map(() => undefined);
let nextToReport = 0;
const flush = () => {
  while (nextToReport < files.length && pending[nextToReport]) {
    report(pending[nextToReport]);
    nextToReport++;
  }
};
let nextToStart = 0;
const worker = async () => {
  while (nextToStart < files.length) {
    const index = nextToStart++;
    const result = await runFile(files[index]);
    results.push(result);
    pending[index] = result;
    flush();
  }
};

const stop = signal => () => {
  console.error(`\nTest run interrupted (${signal}).`);
  process.exit(130);
};
process.on('SIGINT', stop('SIGINT'));
process.on('SIGTERM', stop('SIGTERM'));

await Promise.all(Array.from({length: Math.min(concurrency, files.length)}, worker));

const failed = results.filter(result => result.code !== 0 || result.timedOut);
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
const summary = [
  `=== ${files.length} test files (${tier}, Node.js ${process.version}), ${concurrency} at a time, in ${seconds(Date.now() - started)} s`,
  `=== slowest: ${slowest.map(r => `${relative('build/test', r.file)} ${seconds(r.ms)} s`).join(', ')}`,
];
if (failed.length) {
  summary.push(`=== ${failed.length} file(s) failed:`);
  for (const result of failed) {
    summary.push(
      `--- ${relative('build/test', result.file)}${result.timedOut ? ' (timed out; its last lines:)' : ':'}`,
    );
    // The reporter's own list of failures with their errors, else (a file
    // killed, or one that crashed) the last lines it printed.
    const lines = result.output.split('\n');
    const list = lines.findIndex(line => /✖ failing tests:/.test(line));
    const detail = list >= 0 ? lines.slice(list + 1) : lines.slice(-DETAIL_LINES);
    summary.push(...detail.filter(line => line.trim() !== '').slice(0, DETAIL_LINES));
  }
} else {
  summary.push('=== all test files passed');
}
console.log(summary.join('\n'));
// .ci/run prints every run's summary again at its very end.
if (process.env.TEST_SUMMARY_FILE) {
  appendFileSync(process.env.TEST_SUMMARY_FILE, `${summary.join('\n')}\n`);
}
process.exit(failed.length ? 1 : 0);
