/**
 * Issue 25 (speed): commands sent in one turn of the server's work reach
 * Chrome's debugging pipe in one write (each write wakes Chrome, which on a
 * busy machine takes the core before the next command goes).
 * Issue 25 (memory): what Chrome sends is read chunk by chunk as text, never
 * joined into one buffer of a message's size.
 */
import assert from 'node:assert/strict';
import {PassThrough, Writable} from 'node:stream';
import {describe, it} from 'node:test';

import {PipeClient} from '../../../src/cdp/pipeClient.js';
import type {RawEvent} from '../../../src/cdp/rawClient.js';

/** A pipe end that records each write it is handed (a writev counts once). */
function recordingPipe(): {stream: Writable; writes: string[][]} {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      writes.push(chunks.map(c => (c.chunk as Buffer).toString()));
      callback();
    },
  });
  return {stream, writes};
}

const methods = (write: string[]) => write.map(m => (JSON.parse(m.replace(/\0$/, '')) as {method: string}).method);

/** A client over two in-memory pipes; `feed` writes what Chrome would send. */
function pipePeer() {
  const incoming = new PassThrough();
  const outgoing = new PassThrough();
  const client = new PipeClient(incoming, outgoing);
  const events: RawEvent[] = [];
  client.on('event', event => events.push(event));
  return {client, events, feed: (bytes: Buffer) => incoming.write(bytes)};
}

const untilEvents = async (events: RawEvent[], n: number) => {
  for (let i = 0; i < 1000 && events.length < n; i++) {
    await new Promise(resolve => setImmediate(resolve));
  }
  assert.equal(events.length, n, `expected ${n} events, got ${events.length}`);
};

describe('PipeClient', () => {
  it('writes the commands of one turn together, in order, each ended by a NUL, and a later one on its own', async () => {
    const {stream, writes} = recordingPipe();
    const client = new PipeClient(new PassThrough(), stream);
    const noop = () => {};
    client.send('Runtime.evaluate', {expression: '1'}, 'S1', noop);
    client.send('DOM.getContentQuads', {objectId: 'o'}, 'S1', noop);
    // Promise callbacks of the same turn go with them.
    void Promise.resolve()
      .then(() => client.send('Runtime.callFunctionOn', {functionDeclaration: 'f'}, 'S1', noop))
      .then(() => client.send('Page.getLayoutMetrics', {}, 'S1', noop));
    await new Promise(resolve => setImmediate(resolve));
    client.send('Input.dispatchMouseEvent', {type: 'mouseMoved', x: 1, y: 2}, 'S1', noop);
    await new Promise(resolve => setImmediate(resolve));
    assert.deepEqual(writes.map(methods), [
      ['Runtime.evaluate', 'DOM.getContentQuads', 'Runtime.callFunctionOn', 'Page.getLayoutMetrics'],
      ['Input.dispatchMouseEvent'],
    ]);
    assert.ok(writes.flat().every(m => m.endsWith('\0') && !m.slice(0, -1).includes('\0')));
    await client.close();
  });

  it('answers each command by its id', async () => {
    const incoming = new PassThrough();
    const {stream} = recordingPipe();
    const client = new PipeClient(incoming, stream);
    const answers: unknown[] = [];
    client.send('A.one', {}, undefined, (_error, result) => answers.push(result));
    client.send('A.two', {}, undefined, (_error, result) => answers.push(result));
    incoming.write('{"id":2,"result":{"n":2}}\0{"id":1,"result":{"n":1}}\0');
    await new Promise(resolve => setImmediate(resolve));
    assert.deepEqual(answers, [{n: 2}, {n: 1}]);
    await client.close();
  });

  it('reads messages cut anywhere, a multi-byte character included, and several in one chunk', async () => {
    const {client, events, feed} = pipePeer();
    const text = `é😀中 ${'x'.repeat(70_000)} ü`;
    const one = Buffer.from(`${JSON.stringify({method: 'A.big', params: {text}})}\0`);
    const two = Buffer.from(`${JSON.stringify({method: 'A.small', params: {n: 1}})}\0`);
    const three = Buffer.from(`${JSON.stringify({method: 'A.last', params: {s: '€'}})}\0`);
    // Cuts inside "é" and inside "😀" (4 bytes), then one chunk ending message one and holding two and part of three.
    const all = Buffer.concat([one, two, three]);
    const cuts = [one.indexOf('é') + 1, one.indexOf(Buffer.from('😀')) + 2, 40_000, one.length - 5, all.length - 3];
    let from = 0;
    for (const cut of [...cuts, all.length]) {
      feed(all.subarray(from, cut));
      from = cut;
    }
    await untilEvents(events, 3);
    assert.deepEqual(
      events.map(e => e.method),
      ['A.big', 'A.small', 'A.last'],
    );
    assert.equal((events[0]?.params as {text: string}).text, text);
    assert.deepEqual(events[1]?.params, {n: 1});
    assert.deepEqual(events[2]?.params, {s: '€'});
    await client.close();
  });

  it('never joins a message into one buffer of its size (the C allocator would keep that much)', async t => {
    const {client, events, feed} = pipePeer();
    const message = Buffer.from(`${JSON.stringify({method: 'A.big', params: {text: 'y'.repeat(1_000_000)}})}\0`);
    const concat = t.mock.method(Buffer, 'concat');
    for (let at = 0; at < message.length; at += 65_536) {
      feed(message.subarray(at, at + 65_536));
    }
    await untilEvents(events, 1);
    concat.mock.restore();
    assert.equal((events[0]?.params as {text: string}).text.length, 1_000_000);
    assert.deepEqual(
      concat.mock.calls.map(call => call.result?.length ?? 0).filter(n => n >= 65_536),
      [],
      'a buffer of the whole message was made',
    );
    await client.close();
  });
});
