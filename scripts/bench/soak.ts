/**
 * Leak check from the command line (issue: 300 navigate + snapshot + evaluate
 * cycles, heap growth after GC under 10%, no accumulating targets/sessions).
 *
 *   npm run soak -- [--cycles 300] [--max-growth 10]
 *
 * Exits 1 when a leak is found.
 */
import {soak} from '../../test/support/soak.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const result = await soak(arg('cycles', 300), arg('max-growth', 10));
for (const line of result.lines) {
  console.log(line);
}
if (result.leaks.length) {
  console.log(`LEAK: ${result.leaks.join('; ')}`);
  process.exit(1);
}
console.log('no leak found');
