import assert from 'node:assert/strict';
import {describe, it, mock} from 'node:test';

import {abortable, CancelledError} from '../../../src/util/async.js';
import {throttleProgress} from '../../../src/util/progress.js';

describe('progress throttle', () => {
  it('sends the first report at once and folds the rest of each interval into its last one', () => {
    mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0});
    try {
      const sent: Array<[number, string]> = [];
      const {report, end} = throttleProgress(message => sent.push([Date.now(), message]), 500);
      report('a');
      report('b');
      mock.timers.tick(100);
      report('c');
      assert.deepEqual(sent, [[0, 'a']]);
      mock.timers.tick(400);
      assert.deepEqual(sent, [
        [0, 'a'],
        [500, 'c'],
      ]);
      mock.timers.tick(200);
      report('d');
      mock.timers.tick(299);
      assert.equal(sent.length, 2);
      mock.timers.tick(1);
      assert.deepEqual(sent.at(-1), [1000, 'd']);
      mock.timers.tick(2000);
      report('e');
      assert.deepEqual(sent.at(-1), [3000, 'e']);
      assert.equal(sent.length, 4);
      end();
      report('f');
      mock.timers.tick(1000);
      assert.equal(sent.length, 4);
    } finally {
      mock.timers.reset();
    }
  });

  it('sends a held report when its interval is over, even if its timer runs late (a busy event loop)', () => {
    mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0});
    try {
      const sent: Array<[number, string]> = [];
      const {report} = throttleProgress(message => sent.push([Date.now(), message]), 500);
      report('Loading');
      report('Running');
      // The clock passes the interval's end without the timer having run.
      mock.timers.setTime(700);
      report('Gathering');
      assert.deepEqual(sent, [
        [0, 'Loading'],
        [700, 'Running'],
      ]);
      mock.timers.tick(500);
      assert.deepEqual(sent.at(-1), [1200, 'Gathering']);
      assert.equal(sent.length, 3);
    } finally {
      mock.timers.reset();
    }
  });

  it('drops a held report when the call ends', () => {
    mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0});
    try {
      const sent: string[] = [];
      const {report, end} = throttleProgress(message => sent.push(message), 500);
      report('a');
      report('held');
      end();
      mock.timers.tick(1000);
      assert.deepEqual(sent, ['a']);
    } finally {
      mock.timers.reset();
    }
  });
});

describe('abortable', () => {
  it('rejects with a CancelledError when the signal aborts, and passes results through otherwise', async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => {});
    const waiting = abortable(never, controller.signal);
    controller.abort();
    await assert.rejects(waiting, CancelledError);
    await assert.rejects(abortable(Promise.resolve(1), controller.signal), CancelledError);
    assert.equal(await abortable(Promise.resolve(2), new AbortController().signal), 2);
    await assert.rejects(abortable(Promise.reject(new Error('x')), undefined), /x/);
  });
});
