/**
 * Issue 25 (speed): commands sent in one turn of the server's work reach
 * Chrome's debugging pipe in one write (each write wakes Chrome, which on a
 * busy machine takes the core before the next command goes).
 */
import assert from 'node:assert/strict';
import {PassThrough, Writable} from 'node:stream';
import {describe, it} from 'node:test';

import {PipeClient} from '../../../src/cdp/pipeClient.js';

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
});
