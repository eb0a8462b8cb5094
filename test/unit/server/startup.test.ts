import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';

const BIN = fileURLToPath(new URL('../../../src/bin/cdp-mcp.js', import.meta.url));
const ANSWER_WAIT_MS = 60_000;

/**
 * Loaded into the server before its own code: when the server writes the
 * tools/list answer (id 2), the Node.js built-in modules loaded by then go to
 * stderr as one line.
 */
const REPORT_LOADED = `
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"id":2')) {
    const builtins = process.moduleLoadList.filter(m => m.startsWith('NativeModule ')).map(m => m.slice(13));
    process.stderr.write('LOADED ' + JSON.stringify(builtins) + '\\n');
  }
  return write(chunk, ...rest);
};`;

/** Starts the stdio server, asks initialize and tools/list, returns the built-in modules loaded when it answered. */
function builtinsAtToolsList(): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(REPORT_LOADED)}`, BIN, '--headless', '--isolated'],
    {stdio: ['pipe', 'pipe', 'pipe']},
  );
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'startup-test', version: '1'}},
  });
  send({jsonrpc: '2.0', method: 'notifications/initialized'});
  send({jsonrpc: '2.0', id: 2, method: 'tools/list'});
  let stderr = '';
  return new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no tools/list answer within ${ANSWER_WAIT_MS / 1000} s; stderr:\n${stderr}`)),
      ANSWER_WAIT_MS,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const line = /^LOADED (.*)$/m.exec(stderr);
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line[1]!) as string[]);
      }
    });
    child.on('exit', code => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before answering tools/list; stderr:\n${stderr}`));
    });
  }).finally(() => child.kill('SIGKILL'));
}

describe('start-up', () => {
  it('answers tools/list without loading what only some tools use (crypto, zlib, child processes)', async () => {
    const loaded = await builtinsAtToolsList();
    assert.ok(loaded.includes('net'), `the report works (stdio loads net): ${loaded.join(', ')}`);
    for (const module of ['crypto', 'zlib', 'child_process']) {
      assert.ok(!loaded.includes(module), `${module} is loaded at start-up: ${loaded.join(', ')}`);
    }
  });
});
