import assert from 'node:assert/strict';
import {PassThrough} from 'node:stream';
import {describe, it} from 'node:test';

import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';

import {requestHint, StdioTransport} from '../../../src/server/stdioTransport.js';

describe('requestHint', () => {
  it('finds the id at the start (id written early) or at the end (the SDK writes it last)', () => {
    assert.deepEqual(requestHint('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"', 'xx"}}'), {
      request: true,
      id: 7,
    });
    assert.deepEqual(
      requestHint('{"method":"tools/call","params":{"id":1,"a":"', 'xx"}},"jsonrpc":"2.0","id":"k-1"}'),
      {
        request: true,
        id: 'k-1',
      },
    );
  });

  it('ignores ids and methods nested in the params, and tells a response from a request', () => {
    assert.deepEqual(requestHint('{"params":{"id":3,"method":"x","a":"', 'xx"}}'), {request: false});
    assert.deepEqual(requestHint('{"result":{"roots":[{"uri":"', '"}]},"jsonrpc":"2.0","id":0}'), {
      request: false,
      id: 0,
    });
  });
});

describe('StdioTransport', () => {
  function open(maxMessageBytes: number) {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StdioTransport(input, output, maxMessageBytes);
    const received: JSONRPCMessage[] = [];
    const sent: unknown[] = [];
    let closed = 0;
    transport.onmessage = message => received.push(message);
    transport.onerror = () => {};
    transport.onclose = () => closed++;
    output.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        sent.push(JSON.parse(line));
      }
    });
    return {input, transport, received, sent, closed: () => closed};
  }

  it('writes a large message in pieces (one block of its size in the C allocator otherwise), whole on the wire', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const writes: number[] = [];
    const write = output.write.bind(output);
    output.write = ((chunk: string, ...rest: never[]) => {
      writes.push(chunk.length);
      return write(chunk, ...rest);
    }) as typeof output.write;
    const chunks: Buffer[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk));
    const transport = new StdioTransport(input, output);
    await transport.start();
    const text = `${'long answer 😀 '.repeat(20_000)}end`;
    const message = {jsonrpc: '2.0', id: 3, result: {content: [{type: 'text', text}]}} as JSONRPCMessage;
    await transport.send(message);
    await transport.close();
    assert.ok(writes.length > 1, `one write of ${writes[0]} characters`);
    assert.ok(writes.every(length => length <= 32 * 1024));
    const line = Buffer.concat(chunks).toString('utf8');
    assert.ok(line.endsWith('\n'));
    assert.deepEqual(JSON.parse(line), message);
  });

  it('reads on after a message over the limit, answering it with the limit and its id', async () => {
    const t = open(100);
    await t.transport.start();
    t.input.write(`{"method":"tools/call","params":{"a":"${'x'.repeat(80)}`);
    t.input.write(`${'x'.repeat(80)}"},"jsonrpc":"2.0","id":5}\n{"jsonrpc":"2.0","id":6,"method":"ping"}\n`);
    await new Promise(resolve => setImmediate(resolve));
    assert.deepEqual(t.received, [{jsonrpc: '2.0', id: 6, method: 'ping'}]);
    assert.equal(t.sent.length, 1);
    const [answer] = t.sent as Array<{id: unknown; error: {code: number; message: string}}>;
    assert.equal(answer?.id, 5);
    assert.equal(answer?.error.code, -32600);
    assert.match(
      answer?.error.message ?? '',
      /^Message too large: \d+ bytes, over the server's limit of 100 bytes for one message/,
    );
    assert.equal(t.closed(), 0);
  });

  it('closes when its input ends, and only then', async () => {
    const t = open(100);
    await t.transport.start();
    t.input.write('not json\n');
    await new Promise(resolve => setImmediate(resolve));
    assert.equal(t.closed(), 0);
    t.input.end();
    await new Promise(resolve => setImmediate(resolve));
    assert.equal(t.closed(), 1);
  });
});
