import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {CdpConnection} from '../../../src/cdp/CdpConnection.js';
import {CdpTimeoutError, TargetClosedError} from '../../../src/cdp/errors.js';
import type {RawClient, RawEvent} from '../../../src/cdp/rawClient.js';

/** A peer that keeps every command's callback, to answer (or not) when the test says. */
function silentPeer() {
  const sent: Array<{
    method: string;
    sessionId: string | undefined;
    answer: (error: unknown, result: unknown) => void;
  }> = [];
  const listeners: Array<(message: RawEvent) => void> = [];
  const client: RawClient = {
    send(method, _params, sessionId, callback) {
      sent.push({method, sessionId, answer: callback});
    },
    on(event: string, listener: (message: RawEvent) => void) {
      if (event === 'event') {
        listeners.push(listener);
      }
      return client;
    },
    close: async () => undefined,
  };
  return {client, sent, emit: (message: RawEvent) => listeners.forEach(listener => listener(message))};
}

describe('CdpConnection pending calls', () => {
  // The command timers are unref'd (a pending command must not keep a process alive), so
  // nothing else would keep the event loop running while a test awaits one: Node 22's test
  // runner then cancels the test as "still pending but the event loop has already resolved".
  let keepAlive: NodeJS.Timeout | undefined;
  before(() => {
    keepAlive = setInterval(() => undefined, 60_000);
  });
  after(() => clearInterval(keepAlive));

  it("times out with an error whose stack shows the command's caller", async () => {
    const peer = silentPeer();
    const connection = new CdpConnection(peer.client);
    async function theCallerOfTheCommand() {
      return connection.send('Browser.getVersion', {}, undefined, 20);
    }
    const error = await theCallerOfTheCommand().catch((e: unknown) => e);
    assert.ok(error instanceof CdpTimeoutError, String(error));
    assert.match(error.message, /Browser\.getVersion got no answer from Chrome within 20 ms\./);
    assert.match(error.stack ?? '', /theCallerOfTheCommand/);
    assert.equal(connection.stats.pending, 0);
    // A late answer is dropped.
    peer.sent[0]?.answer(false, {product: 'late'});
    assert.equal(connection.stats.pending, 0);
  });

  it("fails only the detached session's commands, and answers the others", async () => {
    const peer = silentPeer();
    const connection = new CdpConnection(peer.client);
    connection.session('A', 'target-a', 'page');
    connection.session('B', 'target-b', 'page');
    const a = connection.send('Runtime.evaluate', {expression: '1'}, 'A');
    const b = connection.send('Runtime.evaluate', {expression: '2'}, 'B');
    assert.equal(connection.stats.pending, 2);
    peer.emit({method: 'Target.detachedFromTarget', params: {sessionId: 'A'}});
    await assert.rejects(a, TargetClosedError);
    assert.equal(connection.stats.pending, 1);
    peer.sent[1]?.answer(false, {result: {type: 'number', value: 2}});
    assert.deepEqual(await b, {result: {type: 'number', value: 2}});
    assert.equal(connection.stats.pending, 0);
  });
});
