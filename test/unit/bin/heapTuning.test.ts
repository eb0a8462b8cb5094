import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {describe, it} from 'node:test';

const MODULE = new URL('../../../src/bin/heapTuning.js', import.meta.url).href;

/**
 * Runs tuneHeap in a fresh node (flags are per process) with the given node
 * arguments as if they were the command line, then asks V8 to optimize a
 * function and says whether it did.
 */
function tuneAndOptimize(userArgs: string[]): {tuned: boolean; optimized: boolean} {
  const script = `
    import(${JSON.stringify(MODULE)}).then(({tuneHeap}) => {
      const tuned = tuneHeap(${JSON.stringify(userArgs)}, '');
      function f(x) { return x * 2 + 1; }
      %PrepareFunctionForOptimization(f); f(1); f(2); %OptimizeFunctionOnNextCall(f); f(3);
      // Bit 16 of V8's optimization status: the function runs optimized code.
      console.log(JSON.stringify({tuned, optimized: (%GetOptimizationStatus(f) & 16) !== 0}));
    });`;
  const env = {...process.env};
  delete env['NODE_OPTIONS'];
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', script], {env, encoding: 'utf8'});
  return JSON.parse(out) as {tuned: boolean; optimized: boolean};
}

describe('tuneHeap', () => {
  it("turns V8's optimizing compiler off when node got no heap or compiler flags", () => {
    assert.deepEqual(tuneAndOptimize([]), {tuned: true, optimized: false});
  });

  it('leaves V8 alone when the user gave node such a flag', () => {
    assert.deepEqual(tuneAndOptimize(['--opt']), {tuned: false, optimized: true});
    assert.deepEqual(tuneAndOptimize(['--max-old-space-size=512']), {tuned: false, optimized: true});
  });
});
