/**
 * The test runner (scripts/run-tests.mjs) leaves nothing running behind a
 * test file that dies: an attachable Chromium a file starts runs in a process
 * group of its own, so killing the file's group does not reach it; the runner
 * reaps it from the ids the file recorded. And the files' temp folder is the
 * run's own, removed with what they left there.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {after, describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CHROMIUM_MODULE = join(ROOT, 'build/test/support/chromium.js');

/** The process's state letter (R, S, Z, …), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  } catch {
    return undefined;
  }
}

/** Runs the runner on one file; resolves with its exit code once it is gone. */
function runRunner(file: string, env: NodeJS.ProcessEnv): Promise<{code: number | null; output: string}> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['scripts/run-tests.mjs', file], {cwd: ROOT, env, stdio: 'pipe'});
    let output = '';
    child.stdout.on('data', chunk => (output += String(chunk)));
    child.stderr.on('data', chunk => (output += String(chunk)));
    child.on('error', reject);
    child.on('close', code => resolveRun({code, output}));
  });
}

/** The environment of a run inside this one. */
function nestedEnv(): NodeJS.ProcessEnv {
  const env = {...process.env};
  // The nested run's summary must not land in this run's.
  delete env.TEST_SUMMARY_FILE;
  // A node --test inside this one would report to it, not run on its own.
  delete env.NODE_TEST_CONTEXT;
  return env;
}

describe('the test runner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-runner-'));
  let chromePid: number | undefined;
  after(() => {
    // If the runner did not reap it, the test does (and fails above).
    if (chromePid && stateOf(chromePid) && stateOf(chromePid) !== 'Z') {
      try {
        process.kill(-chromePid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    rmSync(dir, {recursive: true, force: true});
  });

  it('kills the Chromium a file started of its own when the file is killed', async () => {
    const pidFile = join(dir, 'chrome.pid');
    const file = join(dir, 'killed.test.js');
    writeFileSync(
      file,
      `import {writeFileSync} from 'node:fs';
import {startChromium} from ${JSON.stringify(CHROMIUM_MODULE)};
const chrome = await startChromium();
writeFileSync(${JSON.stringify(pidFile)}, String(chrome.process.pid));
process.kill(process.pid, 'SIGKILL');
`,
    );
    const {code, output} = await runRunner(file, nestedEnv());
    assert.notEqual(code, 0, output);
    chromePid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(chromePid > 0, output);
    // The runner has sent SIGKILL before it reported the file; the kernel ends
    // the process when it next runs (a zombie if nobody waits for it).
    const end = Date.now() + 15_000;
    let state = stateOf(chromePid);
    while (state !== undefined && state !== 'Z' && Date.now() < end) {
      await new Promise(done => setTimeout(done, 50));
      state = stateOf(chromePid);
    }
    assert.ok(state === undefined || state === 'Z', `Chromium ${chromePid} still runs (state ${state})`);
  });

  it('gives the files a temp folder of the run, removed with whatever they left there', async () => {
    const record = join(dir, 'left.txt');
    const file = join(dir, 'leaves.test.js');
    writeFileSync(
      file,
      `import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
const left = mkdtempSync(join(tmpdir(), 'cdp-mcp-left-'));
writeFileSync(join(left, 'take_snapshot-output.txt'), 'a file nobody removes');
writeFileSync(${JSON.stringify(record)}, left);
`,
    );
    const {code, output} = await runRunner(file, nestedEnv());
    assert.equal(code, 0, output);
    const left = readFileSync(record, 'utf8');
    assert.notEqual(dirname(left), tmpdir(), 'the file wrote into the temp folder the run was started with');
    assert.equal(existsSync(left), false, `${left} outlived the run`);
  });
});
