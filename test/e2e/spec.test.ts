/**
 * What a spec-checking MCP client expects, over the real transports: an
 * unknown tool is a JSON-RPC error (-32602), every tool has a title, all four
 * hints and a closed JSON Schema 2020-12 input, the server declares `logging`
 * and sends its warnings as notifications/message (honouring
 * logging/setLevel); and what a person at a terminal sees: `--version`
 * without loading the server, one line when stdio is a terminal.
 */
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {request as httpRequest} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, describe, it} from 'node:test';

import {LoggingMessageNotificationSchema} from '@modelcontextprotocol/sdk/types.js';
import {Ajv2020} from 'ajv/dist/2020.js';

import {type HttpTestServer, startHttpServer} from '../support/httpClient.js';
import {BUILD_SERVER_BIN, SERVER_BIN, startServer, type TestServer} from '../support/mcpClient.js';

/** Every flag that offers more tools: the check covers all of them. */
const ALL_TOOLS = [
  '--categoryExtensions',
  '--categoryPwa',
  '--categoryExperimentalWebmcp',
  '--categoryExperimentalThirdParty',
  '--memoryDebugging',
  '--experimentalVision',
  '--experimentalInteropTools',
  '--experimentalScreencast',
];
const SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';
/** A --chromeArg that makes the launch warn (a DevTools port anyone local could use). */
const WARNING_ARG = '--chromeArg=--remote-debugging-port=0';
const PORT_WARNING = /A --chromeArg opens a DevTools port/;

/**
 * Servers shared by the tests that need nothing of their own (the stdio one
 * with the default flags, the HTTP one with --allowedHost for the Host
 * check): started once, when first asked for.
 */
let stdio: Promise<TestServer> | undefined;
let http: Promise<HttpTestServer> | undefined;
const stdioServer = () => (stdio ??= startServer());
const httpServer = () => (http ??= startHttpServer({args: ['--allowedHost', 'mcp.internal.test']}));

after(async () => {
  await Promise.all([stdio?.then(server => server.close()), http?.then(server => server.close())]);
});

describe('unknown tools', () => {
  it('are a JSON-RPC error -32602 naming close tools, and the session goes on', async () => {
    const server = await stdioServer();
    await assert.rejects(
      server.client.callTool({name: 'navigate_to', arguments: {}}),
      (error: Error & {code?: number}) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /Unknown tool "navigate_to"\. Did you mean "navigate_page"/);
        assert.doesNotMatch(error.message, /MCP error -32602: MCP error/);
        return true;
      },
    );
    const pages = await server.call('list_pages');
    assert.equal(pages.isError, false, pages.text);
  });
});

describe('unknown tools over HTTP', () => {
  it('are the same -32602 error', async () => {
    const session = await (await httpServer()).connect();
    await assert.rejects(session.client.callTool({name: 'nope', arguments: {}}), {code: -32602});
    await session.close();
  });
});

describe('HTTP 401 as RFC 6750 says', () => {
  it('challenges a request without a token, and says invalid_token for a wrong one', async () => {
    const server = await httpServer();
    const body = JSON.stringify({jsonrpc: '2.0', id: 1, method: 'ping'});
    const headers = {'content-type': 'application/json', accept: 'application/json, text/event-stream'};
    const none = await fetch(server.url, {method: 'POST', headers, body});
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="cdp-mcp"');
    assert.match(((await none.json()) as {error: {message: string}}).error.message, /^Missing token\./);
    const wrong = await fetch(server.url, {
      method: 'POST',
      headers: {...headers, authorization: 'Bearer not-the-token-at-all'},
      body,
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Bearer realm="cdp-mcp", error="invalid_token"/);
    assert.match(((await wrong.json()) as {error: {message: string}}).error.message, /^Wrong token/);
  });
});

describe('HTTP Host header check', () => {
  /** POSTs a ping with the token and this Host header (fetch may not set Host: node:http does). */
  function postWithHost(url: string, token: string, host: string): Promise<{status: number; body: string}> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            host,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        res => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({status: res.statusCode ?? 0, body}));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({jsonrpc: '2.0', id: 1, method: 'ping'}));
    });
  }

  it('refuses a name the server does not answer to, and takes one given with --allowedHost', async () => {
    const server = await httpServer();
    const port = new URL(server.url).port;
    const evil = await postWithHost(server.url, server.token, `evil.example:${port}`);
    assert.equal(evil.status, 403);
    assert.match(
      evil.body,
      /Host \\"evil\.example:\d+\\" is not a name this server answers to.*--allowedHost evil\.example/,
    );
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `mcp.internal.test:${port}`]) {
      const ok = await postWithHost(server.url, server.token, host);
      assert.notEqual(ok.status, 403, host);
    }
    // The SDK client (Host: 127.0.0.1) still works.
    const session = await server.connect();
    assert.equal((await session.call('list_pages')).isError, false);
    await session.close();
  });
});

describe('tools/list for a spec-checking client', () => {
  for (const flags of [ALL_TOOLS, ['--slim']]) {
    it(`gives every tool a title, all four hints and a closed 2020-12 schema (${flags.join(' ')})`, async () => {
      const server = await startServer({args: flags});
      try {
        const {tools} = await server.client.listTools();
        assert.ok(tools.length >= (flags.includes('--slim') ? 3 : 60), `${tools.length} tools`);
        const ajv = new Ajv2020({strict: false});
        for (const tool of tools) {
          assert.ok(
            tool.title && tool.title !== tool.name && /^[A-Z]/.test(tool.title),
            `${tool.name}: title ${tool.title}`,
          );
          const a = tool.annotations ?? {};
          // The display name is the top-level title (MCP 2025-06-18 precedence: title, annotations.title, name).
          assert.equal(a.title, undefined, `${tool.name}: annotations.title repeats the title`);
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
            assert.equal(typeof a[hint], 'boolean', `${tool.name}: ${hint}`);
          }
          if (a.readOnlyHint) {
            assert.equal(a.destructiveHint, false, `${tool.name} is read-only, so not destructive`);
          }
          assert.equal(tool.inputSchema['$schema'], SCHEMA_2020, tool.name);
          assert.equal(tool.inputSchema['additionalProperties'], false, tool.name);
          assert.ok(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText()}`);
        }
        if (!flags.includes('--slim')) {
          const byName = new Map(tools.map(t => [t.name, t.annotations]));
          // Reading the page or moving the mouse is nothing a client should ask twice about.
          assert.equal(byName.get('take_snapshot')?.destructiveHint, false);
          assert.equal(byName.get('hover')?.destructiveHint, false);
          assert.equal(byName.get('click')?.destructiveHint, true);
          assert.equal(byName.get('close_page')?.destructiveHint, true);
        }
      } finally {
        await server.close();
      }
    });
  }

  it('refuses the unknown argument the schema closes out', async () => {
    const result = await (await stdioServer()).call('list_pages', {bogus: 1});
    assert.equal(result.isError, true);
    assert.match(result.text, /Unknown argument for tool "list_pages": "bogus"/);
  });
});

describe('logging', () => {
  async function withLog(
    args: string[],
    level?: 'error',
    nodeArgs: string[] = [],
  ): Promise<{server: TestServer; messages: LogMessages}> {
    const messages = new LogMessages();
    const server = await startServer({
      args,
      nodeArgs,
      setup: client =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, n => {
          messages.add(`${n.params.level} ${n.params.logger ?? ''} ${String(n.params.data)}`);
        }),
    });
    if (level) {
      await server.client.setLoggingLevel(level);
    }
    return {server, messages};
  }

  it('declares the capability and sends warnings as notifications/message', async () => {
    const {server, messages} = await withLog(['--bogusFlag', WARNING_ARG]);
    try {
      assert.ok(server.client.getServerCapabilities()?.logging, 'logging capability');
      // The startup warning came before the client was there: it gets it once initialized.
      await messages.waitFor(/^warning cdp-mcp Unknown arguments ignored: --bogusFlag/);
      const pages = await server.call('list_pages');
      assert.equal(pages.isError, false, pages.text);
      // The launch warned during the call: stdio keeps order, so it is here before the result.
      assert.ok(
        messages.all.some(m => m.startsWith('warning cdp-mcp ') && PORT_WARNING.test(m)),
        messages.all.join('\n'),
      );
    } finally {
      await server.close();
    }
  });

  it('tracks no call through async hooks, which slow every promise of the process', async () => {
    // On Node 20 an AsyncLocalStorage or an async hook turns on V8's promise hooks for every promise.
    const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-hooks-'));
    try {
      const log = join(dir, 'hooks.txt');
      const preload = join(dir, 'preload.mjs');
      writeFileSync(
        preload,
        `import hooks from 'node:async_hooks';
import {appendFileSync} from 'node:fs';
import {syncBuiltinESMExports} from 'node:module';
const note = what => appendFileSync(${JSON.stringify(log)}, what + '\\n');
for (const name of ['run', 'enterWith', 'getStore']) {
  const own = hooks.AsyncLocalStorage.prototype[name];
  hooks.AsyncLocalStorage.prototype[name] = function (...args) { note('AsyncLocalStorage.' + name); return own.apply(this, args); };
}
const createHook = hooks.createHook;
hooks.createHook = (...args) => { note('createHook'); return createHook(...args); };
syncBuiltinESMExports();
note('loaded');
`,
      );
      const {server, messages} = await withLog([WARNING_ARG], undefined, ['--import', preload]);
      try {
        const pages = await server.call('list_pages');
        assert.equal(pages.isError, false, pages.text);
        // The launch warned during the call, which still reaches the client.
        await messages.waitFor(PORT_WARNING);
      } finally {
        await server.close();
      }
      assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean), ['loaded']);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  it('honours logging/setLevel', async () => {
    const {server, messages} = await withLog([WARNING_ARG], 'error');
    try {
      const pages = await server.call('list_pages');
      assert.equal(pages.isError, false, pages.text);
      assert.match(server.stderr(), PORT_WARNING, 'the operator still gets it');
      assert.deepEqual(messages.all, []);
    } finally {
      await server.close();
    }
  });
});

describe('a person at a terminal', () => {
  it('gets --version without the server being loaded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-version-'));
    try {
      const log = join(dir, 'modules.txt');
      const register = join(dir, 'register.mjs');
      writeHooks(dir, log);
      const run = spawnSync(process.execPath, ['--import', register, BUILD_SERVER_BIN, '--version'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, `${JSON.parse(readFileSync('package.json', 'utf8')).version}\n`);
      const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      assert.ok(
        loaded.some(url => url.endsWith('/bin/cdp-mcp.js')),
        'the hook saw the entry',
      );
      const heavy = loaded.filter(url => /@modelcontextprotocol|\/src\/server\/|\/src\/tools\/|valibot/.test(url));
      assert.deepEqual(heavy, []);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  it('says what it is when stdin is a terminal', () => {
    // script(1) (util-linux's bsdutils, essential on Debian: always there) gives the server a pseudo-terminal; with no input it sees end of file and exits.
    const run = spawnSync('/usr/bin/script', ['-qfec', `${process.execPath} ${SERVER_BIN} --headless`, '/dev/null'], {
      encoding: 'utf8',
      timeout: 60_000,
      input: '',
    });
    assert.match(run.stdout, /cdp-mcp: an MCP server for Chrome, waiting for an MCP client on stdin\/stdout\./);
    assert.match(run.stdout, /Use it from an MCP client/);
  });

  it('stays silent for an MCP client (stdin is a pipe)', async () => {
    const server = await stdioServer();
    await server.client.listTools();
    assert.doesNotMatch(server.stderr(), /waiting for an MCP client/);
  });
});

/** A module-resolution hook that writes every module URL the process loads to `log`. */
function writeHooks(dir: string, log: string): void {
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import {appendFileSync} from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import {register} from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
}

/** The log messages a client got, and a wait for one that matches. */
class LogMessages {
  readonly all: string[] = [];
  readonly #waiters = new Set<() => void>();

  add(message: string): void {
    this.all.push(message);
    for (const waiter of this.#waiters) {
      waiter();
    }
  }

  /** Resolves once a message matches `pattern`; rejects after `ms`. */
  waitFor(pattern: RegExp, ms = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.all.some(m => pattern.test(m))) {
          clearTimeout(timer);
          this.#waiters.delete(check);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no log message matched ${pattern}; got:\n${this.all.join('\n')}`));
      }, ms);
      this.#waiters.add(check);
      check();
    });
  }
}
