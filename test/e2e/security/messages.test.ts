import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {readFile} from 'node:fs/promises';
import {after, before, describe, it} from 'node:test';

import {McpError} from '@modelcontextprotocol/sdk/types.js';

import {buttonsPage} from '../../support/fixtures.js';
import {FixtureServer} from '../../support/fixtureServer.js';
import {SERVER_BIN, startServer, TEST_FLAGS, type TestServer} from '../../support/mcpClient.js';

/** The stdio message limit (the MCP SDK's, which its clients share). */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** The default of --maxOutputChars. */
const DEFAULT_CAP = 30_000;
/** Generous bound for calls that move megabytes through a loaded Chrome. */
const BIG_CALL_MS = 180_000;

interface ToolResult {
  content: Array<{type: string; text?: string}>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function textOf(result: ToolResult): string {
  return result.content
    .filter(c => c.type === 'text')
    .map(c => c.text ?? '')
    .join('\n');
}

/** The file the output cap's note names, and the size it gives. */
function savedOutput(text: string): {path: string; chars: number} {
  const match = /The whole output \((\d+) characters\) is in (\S+)\. /.exec(text);
  assert.ok(match, `no saved-output note in: ${text.slice(-600)}`);
  return {chars: Number(match[1]), path: match[2] ?? ''};
}

describe('stdio messages over the limits', () => {
  let mcp: TestServer;

  before(async () => {
    mcp = await startServer({args: ['--no-page-id-routing', '--experimentalStructuredContent']});
  });

  after(async () => {
    await mcp?.close();
  });

  it('answers a request over 10 MB with an error naming the limit, and keeps reading', async () => {
    const big = 'x'.repeat(MAX_MESSAGE_BYTES + 1024);
    const refused = await mcp.client
      .callTool({name: 'evaluate_script', arguments: {function: `() => "${big}".length`}}, undefined, {
        timeout: BIG_CALL_MS,
      })
      .then(
        () => assert.fail('an 11 MB request was accepted'),
        (error: unknown) => error,
      );
    assert.ok(refused instanceof McpError, String(refused));
    assert.equal(refused.code, -32600);
    assert.match(
      refused.message,
      new RegExp(`Message too large: \\d+ bytes, over the server's limit of ${MAX_MESSAGE_BYTES} bytes \\(10 MB\\)`),
    );
    const after = await mcp.call('evaluate_script', {function: '() => 6 * 7'});
    assert.equal(after.isError, false, after.text);
    assert.match(after.text, /```json\n42\n```/);
  });

  it('caps a reply over 10 MB: the client lives, the whole text is in the file the response names', async () => {
    const chars = MAX_MESSAGE_BYTES + 512 * 1024;
    const result = (await mcp.client.callTool(
      {name: 'evaluate_script', arguments: {function: `() => "y".repeat(${chars})`}},
      undefined,
      {timeout: BIG_CALL_MS},
    )) as ToolResult;
    const text = textOf(result);
    assert.equal(result.isError, undefined, text.slice(0, 500));
    assert.ok(text.length <= DEFAULT_CAP, `${text.length} characters`);
    assert.match(text, /^Script ran on page and returned:\n```json\n\[Output cut at 30000 characters: /);
    assert.match(text, /left out\. The whole output \(\d+ characters\) is in \S+\. Return less from the function/);
    const saved = savedOutput(text);
    const whole = await readFile(saved.path, 'utf8');
    assert.equal(whole.length, saved.chars);
    assert.ok(whole.includes(`"${'y'.repeat(chars)}"`), 'the file holds the whole result');
    // The structured content repeats the text: it is cut too, never the whole result.
    const structured = JSON.stringify(result.structuredContent);
    assert.ok(structured.length <= DEFAULT_CAP + 100, `structured content of ${structured.length} characters`);
    assert.equal(result.structuredContent?.['message'], text);
    const next = await mcp.call('list_pages');
    assert.match(next.text, /^## Pages\n1: /);
  });

  it('caps an error text the same way', async () => {
    const r = await mcp.call('evaluate_script', {function: '() => { throw new Error("z".repeat(100000)); }'});
    assert.equal(r.isError, true);
    assert.ok(r.text.length <= DEFAULT_CAP, `${r.text.length} characters`);
    const saved = savedOutput(r.text);
    assert.ok((await readFile(saved.path, 'utf8')).includes('z'.repeat(100000)));
  });

  it('refuses a line that is not JSON and one over the limit without an id, then answers the next request', async () => {
    const child = spawn(process.execPath, [SERVER_BIN, ...TEST_FLAGS], {stdio: ['pipe', 'pipe', 'ignore']});
    try {
      const lines: string[] = [];
      let buffer = '';
      let notify = () => {};
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        lines.push(...parts);
        notify();
      });
      const answer = (test: (message: Record<string, unknown>) => boolean, what: string) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`never answered: ${what}`)), BIG_CALL_MS);
          notify = () => {
            const found = lines.map(l => JSON.parse(l) as Record<string, unknown>).find(test);
            if (found) {
              clearTimeout(timer);
              resolve(found);
            }
          };
          notify();
        });
      const send = (text: string) => child.stdin.write(`${text}\n`);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'raw', version: '1'}},
        }),
      );
      await answer(m => m['id'] === 1, 'initialize');
      send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      send('this is not JSON');
      const parseError = await answer(m => m['id'] === null, 'the parse error');
      assert.deepEqual(parseError['error'], {
        code: -32700,
        message: 'Parse error: the line is not valid JSON. Send one JSON-RPC message per line.',
      });
      // An id deep in the middle of the message cannot be found: the error has a null id.
      lines.length = 0;
      send(`{"method":"tools/list","params":{"junk":"${'j'.repeat(MAX_MESSAGE_BYTES)}"},"id":2,"jsonrpc":"2.0","x":1}`);
      const tooLarge = await answer(m => m['id'] === null, 'the oversized message');
      assert.match(JSON.stringify(tooLarge['error']), /Message too large/);
      send(JSON.stringify({jsonrpc: '2.0', id: 3, method: 'tools/list'}));
      const listed = await answer(m => m['id'] === 3, 'tools/list after the refusals');
      assert.ok(Array.isArray((listed['result'] as {tools?: unknown[]}).tools));
    } finally {
      child.stdin.end();
      await new Promise(resolve => child.once('exit', resolve));
    }
  });
});

describe('output cap on pages', () => {
  let fixtures: FixtureServer;
  let capped: TestServer;
  let uncapped: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/items', buttonsPage(1500));
    [capped, uncapped] = await Promise.all([
      startServer({args: ['--no-page-id-routing']}),
      startServer({args: ['--no-page-id-routing', '--maxOutputChars', '0']}),
    ]);
    await Promise.all([capped, uncapped].map(s => s.call('navigate_page', {url: fixtures.url('/items')})));
  });

  after(async () => {
    await capped?.close();
    await uncapped?.close();
    await fixtures?.stop();
  });

  it("cuts a 1,500-item page's snapshot, saying where the whole one is and how to ask for less", async () => {
    const whole = await uncapped.call('take_snapshot');
    assert.ok(whole.text.length > 1.5 * DEFAULT_CAP, `${whole.text.length} characters with --maxOutputChars 0`);
    assert.doesNotMatch(whole.text, /Output cut/);
    const r = await capped.call('take_snapshot');
    assert.ok(r.text.length <= DEFAULT_CAP, `${r.text.length} characters`);
    assert.match(r.text, /^## Latest page snapshot\nuid=1_0 RootWebArea/);
    assert.match(
      r.text,
      /\[Output cut at 30000 characters: \d+ more lines \(\d+ characters\) left out\. The whole output \(\d+ characters\) is in \S+\. Call take_snapshot with sinceLast=true for only what changed, with maxChars for a shorter cut, or with filePath to save the whole snapshot to a file\.\]$/,
    );
    const saved = savedOutput(r.text);
    const file = await readFile(saved.path, 'utf8');
    assert.equal(file.length, saved.chars);
    assert.equal(file.split('\n').filter(l => / button "Button \d+"/.test(l)).length, 1500);
  });
});
