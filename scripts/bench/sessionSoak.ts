/**
 * HTTP session leak check from the command line: many sessions opened and
 * closed against one server, a few at a time (the test suite runs 24).
 *
 *   npm run soak:sessions -- [--sessions 200] [--max-growth 10]
 *
 * Exits 1 when a leak is found.
 */
import {sessionLeakCheck} from '../../test/support/sessionLeaks.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const sessions = arg('sessions', 200);
const started = Date.now();
const result = await sessionLeakCheck(sessions, 16, arg('max-growth', 10));
console.log(`sessions: ${sessions} after 16 warm-up ones, ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`heap after GC: ${result.growth >= 0 ? '+' : ''}${result.growth.toFixed(1)}%`);
console.log(result.figures);
if (result.leaks.length) {
  console.log(`LEAK: ${result.leaks.join('; ')}`);
  process.exit(1);
}
console.log('no leak found');
