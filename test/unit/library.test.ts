import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {InMemoryTransport} from '@modelcontextprotocol/sdk/inMemory.js';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import {createServer, type McpTransport, startServer} from '../../src/index.js';

// Compile-time: the SDK's own transports are McpTransports (the library's types name no SDK type).
const transports: McpTransport[] = [
  new StdioServerTransport(),
  new StreamableHTTPServerTransport({sessionIdGenerator: undefined}),
];

describe('library API', () => {
  it('accepts the SDK transports', () => {
    assert.equal(transports.length, 2);
  });

  it('serves a transport it is given, and sends logs to onLog', async () => {
    const lines: string[] = [];
    const server = createServer({
      headless: true,
      isolated: true,
      onLog: (level, message) => lines.push(`${level} ${message}`),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({name: 'embedder', version: '1.0.0'});
    await client.connect(clientSide);
    const {tools} = await client.listTools();
    assert.ok(tools.some(t => t.name === 'navigate_page'));
    await client.close();
    await server.close();
    assert.ok(
      lines.some(line => /^debug The client has no roots/.test(line)),
      lines.join('\n'),
    );
  });

  it('starts on HTTP on a free port with a generated token', async () => {
    const running = await startServer({transport: 'http', onLog: () => {}});
    try {
      assert.equal(running.transport, 'http');
      assert.match(running.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const response = await fetch(running.url ?? '', {method: 'POST'});
      assert.equal(response.status, 401);
      assert.equal(running.token?.length, 32);
    } finally {
      await running.close();
    }
  });
});
