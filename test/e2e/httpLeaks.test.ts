import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {sessionLeakCheck} from '../support/sessionLeaks.js';

/**
 * Sessions opened and closed, a few at a time. Each costs Chrome a context
 * and a renderer. The live object counts fail on one session's objects left
 * behind, so two rounds of four at once (two of them loading a document)
 * prove what hundreds would; `npm run soak:sessions` runs 200, for the heap figures.
 */
const SESSIONS = 8;
const WARMUP = 8;
/** Heap growth allowed after GC (as the soak check): what is left is noise, not per-session state. */
const HEAP_GROWTH_LIMIT_PERCENT = 10;

describe('HTTP session leaks', () => {
  it(`opens and closes ${SESSIONS} sessions with Chrome targets, contexts and server heap back to baseline`, async () => {
    const result = await sessionLeakCheck(SESSIONS, WARMUP, HEAP_GROWTH_LIMIT_PERCENT);
    assert.deepEqual(result.leaks, [], result.figures);
    process.stderr.write(`# session leak check: ${result.figures}\n`);
  });
});
