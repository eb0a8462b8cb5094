#!/usr/bin/env node
// Runs every compiled test file (build/test/**/*.test.js), each in its own
// `node --test` process, several at a time, every file bounded in time.
// Usage: node scripts/run-tests.mjs [--lint] [unit|e2e|smoke|reference|all] (default all),
// or node scripts/run-tests.mjs build/test/e2e/a.test.js … (those files only).
// It first installs the test packages (test/deps: the corpus's apps,
// chrome-devtools-mcp, the linters) when missing or older than their lockfile
// (scripts/test-deps.mjs); the root package.json holds only what the build needs.
// --lint (npm test) runs `npm run lint` as one more job beside the test files:
// ESLint keeps one core busy for a minute or more while end-to-end files
// mostly wait on Chrome, so run side by side they end sooner than one after
// the other; a lint failure fails the run like a failed file.
// `smoke` is the unit tests plus SMOKE_E2E: one end-to-end suite per layer a
// Node.js upgrade can break (stdio, process lifecycle and attach, pages, script
// and screenshots, input, network). `reference` is the files that compare
// with chrome-devtools-mcp (test/support/referenceRecord.ts): `npm run
// record-reference` runs them with the live reference and writes its records.
//
// Why not one `node --test` over all files: a file that never ends (a test
// that hangs, or a handle that keeps its process alive) then stalls the whole
// run until CI's limit kills it, and the log does not say which file it was.
// Here a file over TEST_FILE_TIMEOUT_S is killed with its children and named,
// its output so far is printed, and the run goes on. Each file's output is
// printed whole when it ends (never interleaved), with its duration and the
// CPU time it and its children used, and the run ends with a summary:
// failed and timed-out files, the slowest files, the wall time.
//
// Scheduling: files run in slots (TEST_CONCURRENCY, default 3). An end-to-end
// file takes one slot, a unit file a quarter of one, a file in HEAVY (it keeps
// both cores busy on its own) two. The longest files start first: the
// durations of the last run are kept in build/.test-times.json.
import {Buffer} from 'node:buffer';
import {spawn, spawnSync} from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {clearTimeout, setTimeout} from 'node:timers';

import {ensureTestDeps} from './test-deps.mjs';

const SMOKE_E2E = ['lifecycle', 'pages', 'script', 'input', 'network'].map(name => `build/test/e2e/${name}.test.js`);
/** Files that keep two cores busy on their own (heap snapshots, Lighthouse, many sessions at once). */
const HEAVY = ['httpLeaks', 'memory', 'lighthouse', 'leaks'].map(name => `build/test/e2e/${name}.test.js`);
const TIMES_FILE = 'build/.test-times.json';
/**
 * The longest files, longest first (after lint): the order of a first run (a
 * fresh clone, CI), before any times are kept. From a quiet 2-core run (2026-12-04); a
 * file missing here starts with the other end-to-end files, unit files last.
 */
const LONGEST = [
  'corpus',
  'httpSessions',
  'corpusDefaultWindow',
  'lanes',
  'lighthouse',
  'cli',
  'memory',
  'performance',
  'http',
  'lanesHungTools',
  'snapshotViews',
  'lanesHung',
  'install',
  'autoConnect',
  'downloads',
  'pageToolsCancel',
  'spec',
  'fidelity',
  'reliability',
  'screencast',
].map(name => `build/test/e2e/${name}.test.js`);

const LINT = 'lint';
const argv = process.argv.slice(2).filter(arg => arg !== '--lint');
const withLint = argv.length < process.argv.length - 2;
// Compiled test files named on the command line run alone (e.g. while working on them).
const named = argv.filter(arg => arg.endsWith('.test.js'));
const tier = named.length ? 'named' : (argv[0] ?? 'all');
if (!['all', 'smoke', 'unit', 'e2e', 'reference', 'named'].includes(tier)) {
  console.error(`Unknown test tier "${tier}": use all, smoke, unit, e2e or reference.`);
  process.exit(2);
}
const roots =
  tier === 'named'
    ? []
    : ['all', 'smoke'].includes(tier)
      ? ['build/test/unit', ...(tier === 'all' ? ['build/test/e2e'] : [])]
      : tier === 'reference'
        ? ['build/test/e2e']
        : [`build/test/${tier}`];
let files = [];
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
files.push(...named);
if (tier === 'smoke') {
  const missing = SMOKE_E2E.filter(file => !existsSync(file));
  if (missing.length) {
    console.error(`SMOKE_E2E in scripts/run-tests.mjs names missing suites (${missing.join(', ')}): update the list.`);
    process.exit(1);
  }
  files.push(...SMOKE_E2E);
}
if (tier === 'reference') {
  // The files that start chrome-devtools-mcp, through the record or live.
  files = files.filter(file => /\b(startOraclePair|startReference|referenceServer)\(/.test(readFileSync(file, 'utf8')));
}
if (files.length === 0) {
  console.error(`No test files under ${roots.join(', ')}. Run "npm run build" first.`);
  process.exit(1);
}
if (!process.env.CHROME_PATH && existsSync('/usr/bin/chromium')) {
  process.env.CHROME_PATH = '/usr/bin/chromium';
}
// The test packages (corpus apps, chrome-devtools-mcp, linters: test/deps), when missing or older
// than their lockfile; the build needs only the root's, which scripts/start.sh installs.
ensureTestDeps();
// The end-to-end files spawn the packed bundle's bin (dist/cdp-mcp.js, what
// users run; test/support/mcpClient.ts): made here from build/, once, before
// any file runs. Files never bundle again during the run (packedInstall reads
// CDP_MCP_TEST_BUNDLED): bundling empties dist/ under the servers of the
// files running beside them. A run inside a test file (test/e2e/testRunner)
// uses what its run bundled.
if (process.env.CDP_MCP_TEST_BUNDLED !== '1') {
  const bundled = spawnSync(process.execPath, ['scripts/bundle.mjs', '--quiet'], {stdio: 'inherit'});
  if (bundled.status !== 0) {
    console.error('scripts/bundle.mjs failed: the tests need the packed bundle (dist/). Run "npm run build" first.');
    process.exit(1);
  }
  process.env.CDP_MCP_TEST_BUNDLED = '1';
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
// Three slots: most of an end-to-end test's time is spent waiting on Chrome
// (a page to load, a renderer to start), so three files overlap well on two
// cores. TEST_CONCURRENCY overrides it (1 for a serial run when chasing a flake).
const slots = positive('TEST_CONCURRENCY', 3);
// The longest file takes about 2 min on a loaded 2-core machine; 10 min
// means it hangs.
const fileTimeoutS = positive('TEST_FILE_TIMEOUT_S', 600);

/** Lines of each failed file's output repeated in the summary. */
const DETAIL_LINES = 40;

// Lint is one ESLint process: one core.
const weightOf = file => Math.min(slots, file.includes('/unit/') ? 0.25 : HEAVY.includes(file) ? 2 : 1);
// Lint never waits on anything: on a loaded machine it is merely slow (10 min
// and more beside other work), so its bound is three files' worth.
const timeoutSOf = file => (file === LINT ? fileTimeoutS * 3 : fileTimeoutS);
const label = file => (file === LINT ? 'npm run lint' : relative('build/test', file));
let lastTimes = {};
try {
  lastTimes = JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
} catch {
  // First run: alphabetical, end-to-end files first (they are the long ones).
}
const expected = file =>
  lastTimes[file] ??
  (file === LINT || LONGEST.includes(file)
    ? 1_000_000 - LONGEST.indexOf(file)
    : file.includes('/e2e/')
      ? 30_000
      : 1_000);
// Longest first, so the last files to end are short ones.
const queue = [...files, ...(withLint ? [LINT] : [])].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b));

const started = Date.now();
const results = [];
const seconds = ms => (ms / 1000).toFixed(1);
// GNU time reports the CPU time of a file's process and the children it
// waited for (its servers, their Chromes): where the time goes.
const TIME_BIN = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const cpuDir = mkdtempSync(join(tmpdir(), 'cdp-mcp-test-run-'));
/**
 * The files' temp folder (TMPDIR), removed with cpuDir at the end: what the
 * servers write there (outputs too large to answer, saved like the
 * reference's, which are the user's to keep), the tests' own folders and
 * profiles of killed Chromes, about 500 folders a run, would otherwise pile
 * up in the system's. What must outlive a run (packedInstall's install,
 * reused by the next run) goes to CDP_MCP_TEST_CACHE_DIR, the system's.
 */
const filesTmp = join(cpuDir, 'tmp');
mkdirSync(filesTmp);
/**
 * GNU time misses the processes nobody waited for: a Chrome's zygote and
 * renderers outlive the wait of the browser process that started them, and
 * they are most of an end-to-end file's CPU (half and more). Where this
 * process may make cgroup v1 cpuacct groups (root on most Linux machines with
 * them), each file runs in a group of its own, which counts the CPU of every
 * process the file started however it ended; elsewhere, GNU time's figure.
 */
const CPUACCT = '/sys/fs/cgroup/cpuacct';
const cgroupDir = (() => {
  try {
    // Inside the group this run is in (a run started by a test file counts in that file's group).
    const own = /^\d+:(?:[^:]*,)?cpuacct(?:,[^:]*)?:(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
    if (own === undefined) {
      return undefined;
    }
    const dir = join(CPUACCT, own, `cdp-mcp-tests-${process.pid}`);
    mkdirSync(dir);
    return dir;
  } catch {
    return undefined;
  }
})();
/** Groups of files that ended, removed once their last process is gone (at the latest at the end of the run). */
const endedGroups = [];
const removeEndedGroups = () => {
  for (const dir of endedGroups.splice(0)) {
    try {
      rmdirSync(dir);
    } catch {
      endedGroups.push(dir); // A process of the file is still exiting.
    }
  }
};
const recording = process.env.CDP_MCP_REFERENCE === 'record';

/**
 * Kills the process groups a file recorded in `reapFile` (one id a line) that
 * still have a member. A group is killed only while its leader runs the
 * process that was recorded (its command line names the recorded profile), so
 * an id reused by an unrelated process is left alone.
 */
function reapGroups(reapFile) {
  let lines;
  try {
    lines = readFileSync(reapFile, 'utf8').split('\n').filter(Boolean);
  } catch {
    return; // The file started none.
  }
  for (const line of lines) {
    const space = line.indexOf(' ');
    const [pgid, mark] = space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)];
    let cmdline;
    try {
      cmdline = readFileSync(`/proc/${pgid}/cmdline`, 'utf8');
    } catch {
      continue; // The leader is gone; its renderers end with it.
    }
    if (mark && !cmdline.includes(mark)) {
      continue;
    }
    try {
      process.kill(-Number(pgid), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  rmSync(reapFile, {force: true});
}

/** Runs one file; resolves with its outcome once its process (group) is gone. */
function runFile(file, index) {
  return new Promise(resolve => {
    const begun = Date.now();
    const chunks = [];
    const cpuFile = join(cpuDir, `${index}.txt`);
    // npm as this run was started with (npm test), else the one on PATH.
    const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
    const command =
      file === LINT ? [...npm, 'run', 'lint'] : [process.execPath, '--test', '--test-reporter=spec', file];
    // Recording the reference: the file's records go to a folder of their own,
    // copied into test/records below only when the file passed.
    const recordOut = recording ? join(cpuDir, `records-${index}`) : undefined;
    // Process groups the file starts of its own (test/support/chromium.ts: an
    // attachable Chromium, detached so that its kill takes its renderers too)
    // are not in the file's group: the file writes their ids here, and they
    // go when the file ends, however it ended (a killed file never closes them).
    const reapFile = join(cpuDir, `reap-${index}.txt`);
    const env = {
      ...process.env,
      TMPDIR: filesTmp,
      CDP_MCP_TEST_CACHE_DIR: process.env.CDP_MCP_TEST_CACHE_DIR ?? tmpdir(),
      CDP_MCP_TEST_REAP_FILE: reapFile,
      ...(recordOut ? {CDP_MCP_RECORD_OUT: recordOut} : {}),
    };
    const timed = TIME_BIN ? [TIME_BIN, '-q', '-f', '%U %S', '-o', cpuFile, ...command] : command;
    // Its cgroup (when there are): a shell moves itself in, then becomes the file's command.
    let cgroup;
    if (cgroupDir) {
      try {
        cgroup = join(cgroupDir, String(index));
        mkdirSync(cgroup);
      } catch {
        cgroup = undefined;
      }
    }
    const argv = cgroup
      ? ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" 2>/dev/null; exec "$@"', cgroup, ...timed]
      : timed;
    // Its own process group, so a timeout kills the test's Chromes and
    // servers too, not only the runner.
    const child = spawn(argv[0], argv.slice(1), {env, stdio: ['ignore', 'pipe', 'pipe'], detached: true});
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
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup('SIGTERM');
        setTimeout(() => killGroup('SIGKILL'), 5000).unref();
      },
      timeoutSOf(file) * 1000,
    );
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever the file left running (a Chrome it did not close) goes too.
      killGroup('SIGKILL');
      reapGroups(reapFile);
      if (recordOut && existsSync(recordOut)) {
        if (code === 0 && !timedOut) {
          cpSync(recordOut, 'test/records', {recursive: true});
          chunks.push(
            Buffer.from(`# reference records written: ${readdirSync(recordOut, {recursive: true}).join(', ')}\n`),
          );
        } else {
          chunks.push(Buffer.from('# the file failed: its reference records were not written\n'));
        }
      }
      let cpuMs;
      try {
        // The last line: GNU time writes "Command terminated by signal …" first for a killed file.
        const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(/\s+/).map(Number);
        cpuMs = Number.isFinite(user + sys) ? (user + sys) * 1000 : undefined;
      } catch {
        // No GNU time, or it was killed.
      }
      if (cgroup) {
        try {
          const ns = Number(readFileSync(join(cgroup, 'cpuacct.usage'), 'utf8'));
          // 0: the shell could not move into the group; GNU time's figure stands.
          cpuMs = ns > 0 ? ns / 1e6 : cpuMs;
        } catch {
          // Keep GNU time's.
        }
        endedGroups.push(cgroup);
        removeEndedGroups();
      }
      resolve({
        file,
        code,
        signal,
        timedOut,
        ms: Date.now() - begun,
        cpuMs,
        output: Buffer.concat(chunks).toString(),
      });
    });
  });
}

function report(result) {
  const name = label(result.file);
  process.stdout.write(result.output.endsWith('\n') || result.output === '' ? result.output : `${result.output}\n`);
  const verdict = result.timedOut
    ? `TIMED OUT after ${timeoutSOf(result.file)} s (killed; TEST_FILE_TIMEOUT_S sets the limit)`
    : result.code === 0
      ? 'passed'
      : `FAILED (exit ${result.code ?? result.signal})`;
  const cpu = result.cpuMs === undefined ? '' : ` (CPU ${seconds(result.cpuMs)} s)`;
  console.log(`=== ${name}: ${verdict} in ${seconds(result.ms)} s${cpu}\n`);
}

const stop = signal => () => {
  console.error(`\nTest run interrupted (${signal}).`);
  process.exit(130);
};
process.on('SIGINT', stop('SIGINT'));
process.on('SIGTERM', stop('SIGTERM'));

// Starts the next queued files, in order, while their weights fit in the free
// slots (a file always starts when nothing runs, whatever its weight).
await new Promise(resolveAll => {
  let busy = 0;
  let running = 0;
  let nextIndex = 0;
  const fill = () => {
    while (queue.length && (running === 0 || busy + weightOf(queue[0]) <= slots + 1e-9)) {
      const file = queue.shift();
      const fileWeight = weightOf(file);
      busy += fileWeight;
      running++;
      void runFile(file, nextIndex++).then(result => {
        busy -= fileWeight;
        running--;
        results.push(result);
        report(result);
        if (queue.length === 0 && running === 0) {
          resolveAll();
        } else {
          fill();
        }
      });
    }
  };
  fill();
});
if (cgroupDir) {
  // The last files' processes were killed as they ended: give them a moment to go.
  for (let tries = 0; endedGroups.length && tries < 20; tries++) {
    removeEndedGroups();
    if (endedGroups.length) {
      await new Promise(resolve => setTimeout(resolve, 100));
    }
  }
  try {
    rmdirSync(cgroupDir);
  } catch {
    // A process outlived its file (it is named by its group's cgroup.procs); the group stays.
  }
}

// After the groups' processes went: a Chrome killed with its file may still have been writing its
// profile there. Its removal never fails the run (what failed is the files' to say): a folder
// left behind is named, and the system's temp cleaning takes it.
try {
  rmSync(cpuDir, {recursive: true, force: true, maxRetries: 5, retryDelay: 200});
} catch (error) {
  console.log(`=== the run's temp folder ${cpuDir} was left behind: ${error.message}`);
}

if (tier === 'all') {
  // Durations of every file, for the order of the next run.
  writeFileSync(TIMES_FILE, `${JSON.stringify(Object.fromEntries(results.map(r => [r.file, r.ms])), null, 1)}\n`);
}

const failed = results.filter(result => result.code !== 0 || result.timedOut);
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 8);
const cpuTotal = results.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0);
const summary = [
  `=== ${files.length} test files${withLint ? ' and lint' : ''} (${tier}, Node.js ${process.version}), ${slots} slots, in ${seconds(Date.now() - started)} s` +
    (TIME_BIN || cgroupDir ? ` (CPU ${seconds(cpuTotal)} s${cgroupDir ? '' : ', what GNU time sees'})` : ''),
  `=== slowest: ${slowest.map(r => `${label(r.file)} ${seconds(r.ms)} s`).join(', ')}`,
];
if (failed.length) {
  summary.push(`=== ${failed.length} file(s) failed:`);
  for (const result of failed) {
    summary.push(`--- ${label(result.file)}${result.timedOut ? ' (timed out; its last lines:)' : ':'}`);
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
