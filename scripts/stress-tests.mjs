#!/usr/bin/env node
// `npm run test:stress`: the whole test suite (scripts/run-tests.mjs, same
// arguments) with two CPU-burning processes beside it, as on a shared 2-core
// machine where other work runs. A test that passes here waits for the state
// it asserts instead of for a time; one that fails depends on the machine's speed.
// STRESS_BURNERS sets how many burners run (default 2).
import {spawn} from 'node:child_process';

const raw = process.env.STRESS_BURNERS ?? '2';
const count = Number(raw);
if (!Number.isInteger(count) || count < 0) {
  console.error(`STRESS_BURNERS must be a whole number, got "${raw}".`);
  process.exit(2);
}
// Each burner spins on one core until it is killed.
const burners = Array.from({length: count}, () => spawn(process.execPath, ['-e', 'for (;;) {}'], {stdio: 'ignore'}));
const stopBurners = () => {
  for (const burner of burners) {
    burner.kill('SIGKILL');
  }
};
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => process.exit(130));
}
// Two burners on a 2-core machine make every file slower: a file gets 25 min
// before it counts as hung, unless TEST_FILE_TIMEOUT_S says otherwise.
process.env.TEST_FILE_TIMEOUT_S ??= '1500';
console.log(`=== test:stress: ${count} CPU-burning processes beside the suite`);
const started = Date.now();
const tests = spawn(process.execPath, ['scripts/run-tests.mjs', ...process.argv.slice(2)], {stdio: 'inherit'});
tests.on('exit', (code, signal) => {
  stopBurners();
  console.log(
    `=== test:stress: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exit(code ?? (signal ? 1 : 0));
});
