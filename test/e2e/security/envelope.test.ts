/**
 * The guards' envelope (issue 24): one --config file states what the operator
 * forbids (tools turned off, secrets the agent types but never reads, an
 * allow-list of URLs, page text marked as untrusted), and an agent and its
 * pages try every hidden way around it: the turned-off tools over stdio, HTTP
 * and the CLI; the secret echoed back through every output (console, network
 * bodies, evaluate, snapshots, saved files, traces, heap snapshots, logs);
 * blocked URLs reached by fetch, XHR, WebSocket, EventSource, workers,
 * window.open, frames, redirects, the page navigating itself, navigate_page and
 * new_page; text that tries to close the marked block. Every attempt is
 * counted, every answer is judged against every guard, and the last test
 * asserts that none of at least 50 got through.
 */
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {gunzipSync} from 'node:zlib';

import {readState} from '../../../src/config/daemonState.js';
import {FAKE_ID, leakForms, Ledger} from '../../support/envelope.js';
import {ATTEMPTS_SCRIPT, envelopePages} from '../../support/envelopePages.js';
import {FixtureServer} from '../../support/fixtureServer.js';
import {startHttpServer} from '../../support/httpClient.js';
import {CALL_TIMEOUT_MS, SERVER_BIN, startServer, TEST_FLAGS, type TestServer} from '../../support/mcpClient.js';
import {TrapHost} from '../../support/trapHost.js';

const PASSWORD = 'Zq9"vT!4427&pass word';
const TOKEN = 'tok_live_8c1e5f0a9d';
const DISABLED = ['upload_file', 'load_storage_state', 'mock_network_request'];
const NOT_ENABLED = (tool: string) =>
  new RegExp(`^Tool ${tool} is not enabled: it is turned off by --disabledTools\\.`);

interface Answer {
  text: string;
  isError: boolean;
  /** Everything the client got, as JSON: text parts and structured content. */
  raw: string;
  /** Whether a text part right before each image says it is page content. */
  imagesMarked: boolean;
  images: number;
}

describe('the guards envelope: one config file, every hidden attempt counted', () => {
  const ledger = new Ledger(
    [...leakForms(PASSWORD), ...leakForms(TOKEN)],
    [FAKE_ID, 'ignore previous instructions', '<secret>'],
  );
  let fixtures: FixtureServer;
  let trap: TrapHost;
  let mcp: TestServer;
  let dir: string;
  let config: string;

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const result = await mcp.client.callTool({name, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS});
    const content = result.content as Array<{type: string; text?: string}>;
    const texts = content.filter(c => c.type === 'text');
    return {
      text: texts.map(c => c.text ?? '').join('\n'),
      isError: result.isError === true,
      raw: JSON.stringify({texts, structured: result.structuredContent}),
      images: content.filter(c => c.type === 'image').length,
      imagesMarked: content.every(
        (c, i) => c.type !== 'image' || /^<<<PAGE IMAGE \(untrusted/.test(content[i - 1]?.text ?? ''),
      ),
    };
  }
  /** An answer's own problem with every guard (its text and its JSON). */
  const problemOf = (answer: Answer) => ledger.problem(answer.text) ?? ledger.problem(answer.raw, false);
  /** Calls a tool as one attempt: it got through if its answer breaks a guard or `through` says so. */
  async function attempt(
    guard: Parameters<Ledger['record']>[0],
    name: string,
    args: Record<string, unknown> = {},
    through?: (answer: Answer) => string | undefined,
  ): Promise<Answer> {
    const answer = await call(name, args);
    ledger.record(guard, `${name} ${JSON.stringify(args).slice(0, 120)}`, problemOf(answer) ?? through?.(answer));
    return answer;
  }
  const uidOf = (snapshot: string, pattern: RegExp) => {
    const uid = new RegExp(`uid=(\\S+) ${pattern.source}`).exec(snapshot)?.[1];
    assert.ok(uid, `no ${pattern} in:\n${snapshot}`);
    return uid;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-envelope-'));
    fixtures = await new FixtureServer().start();
    trap = await new TrapHost().start();
    envelopePages(fixtures, trap);
    writeFileSync(join(dir, 'secrets.env'), `PASSWORD='${PASSWORD}'\nexport TOKEN=${TOKEN}\n`);
    config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        disabledTools: DISABLED,
        secrets: join(dir, 'secrets.env'),
        allowedUrlPattern: [fixtures.url('/*')],
        untrustedContentMarkers: true,
        memoryDebugging: true,
        experimentalStructuredContent: true,
      }),
    );
    mcp = await startServer({args: ['--config', config], env: {CDP_MCP_DEBUG: '1'}});
    // The SDK client checks structured content against the tools' outputSchema once it has listed them.
    const names = (await mcp.client.listTools()).tools.map(t => t.name);
    assert.ok(names.includes('evaluate_script') && !names.some(n => DISABLED.includes(n)), names.join(' '));
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await trap?.stop();
    rmSync(dir, {recursive: true, force: true});
  });

  it('types the secrets into a page that echoes them everywhere, then reads every output', async () => {
    const nav = await attempt('blocked URL', 'navigate_page', {pageId: 1, url: fixtures.url('/login')});
    assert.equal(nav.isError, false, nav.text);
    const snapshot = (await call('take_snapshot', {pageId: 1})).text;
    const pw = uidOf(snapshot, /textbox "Password"/);
    const filled = await attempt('secret', 'fill_form', {
      pageId: 1,
      elements: [
        {uid: uidOf(snapshot, /textbox "User"/), value: 'alice'},
        {uid: pw, value: 'PASSWORD'},
      ],
      includeSnapshot: true,
    });
    assert.equal(filled.isError, false, filled.text);
    await attempt('secret', 'fill', {pageId: 1, uid: pw, value: '<secret>PASSWORD</secret>', effect: true});
    await call('click', {pageId: 1, uid: uidOf(snapshot, /textbox "Pin"/)});
    await attempt('secret', 'type_text', {pageId: 1, text: 'TOKEN', effect: true});
    // Done: the page echoes both into its DOM, title, console, storage, two requests and a blocked host.
    const done = await attempt('blocked URL', 'click', {pageId: 1, uid: uidOf(snapshot, /button "Done"/)});
    assert.equal(done.isError, false, done.text);
    const sent = await call('evaluate_script', {
      pageId: 1,
      function: `async () => { while (!document.getElementById('echo').dataset.sent) await new Promise(r => setTimeout(r, 20));
        return [window.lastPw === atob(${JSON.stringify(Buffer.from(PASSWORD).toString('base64'))}), document.getElementById('pin').value.length, window.exfil]; }`,
    });
    assert.match(sent.text, /\[true,19,"failed"\]/, 'the page got the values, and its exfiltration failed');
    assert.ok(fixtures.requests.find(r => r.url === '/submit')?.body.includes(TOKEN), 'the page sent the token');
    const exfil = sent.text.includes('## Blocked by the URL policy') ? sent.text : done.text;
    assert.match(exfil, /- fetch http:\/\/localhost:\d+\/exfil\?p=<secret>PASSWORD<\/secret>/, 'reported, redacted');

    // Every reading tool.
    await attempt('secret', 'take_snapshot', {pageId: 1});
    await attempt('secret', 'take_snapshot', {pageId: 1, verbose: true});
    await attempt('secret', 'find_elements', {pageId: 1, query: 'typed'});
    await attempt('secret', 'get_page_text', {pageId: 1});
    await attempt('secret', 'get_page_text', {pageId: 1, format: 'text'});
    await attempt('secret', 'list_pages');
    await attempt('secret', 'wait_for', {pageId: 1, text: ['You typed']});
    const consoleList = await attempt('secret', 'list_console_messages', {pageId: 1});
    for (const [, id] of consoleList.text.matchAll(/msgid=(\d+)/g)) {
      await attempt('secret', 'get_console_message', {pageId: 1, msgid: Number(id)});
    }
    const requests = await attempt('secret', 'list_network_requests', {pageId: 1});
    for (const [, id] of requests.text.matchAll(/reqid=(\d+) (?:GET|POST) \S+\/(?:submit|echo)/g)) {
      await attempt('secret', 'get_network_request', {pageId: 1, reqid: Number(id)});
    }
    for (const fn of [
      '() => [window.lastPw, document.title, localStorage.pw, sessionStorage.pin]',
      '() => [btoa(window.lastPw), encodeURIComponent(window.lastPw), JSON.stringify(JSON.stringify(window.lastPw))]',
      '() => { throw new Error("the password is " + window.lastPw); }',
      '() => { console.log(window.lastPw); return document.body.innerHTML; }',
    ]) {
      await attempt('secret', 'evaluate_script', {pageId: 1, function: fn});
    }
    // A dialog that shows the secret.
    const shout = await attempt('secret', 'click', {pageId: 1, uid: uidOf(snapshot, /button "Shout"/)});
    assert.match(shout.text, /# Open dialog\n.*<secret>PASSWORD<\/secret>/, shout.text);
    await attempt('secret', 'handle_dialog', {pageId: 1, action: 'accept'});
  });

  it('keeps the secrets out of every file, trace, heap snapshot and log', async () => {
    const file = (label: string, path: string, text = readFileSync(path, 'utf8')) =>
      ledger.record('secret', label, ledger.problem(text, false));
    await attempt('secret', 'take_snapshot', {pageId: 1, filePath: join(dir, 'snap.txt')});
    file('snapshot file', join(dir, 'snap.txt'));
    await attempt('secret', 'get_page_text', {pageId: 1, filePath: join(dir, 'text.md')});
    file('page text file', join(dir, 'text.md'));
    await attempt('secret', 'evaluate_script', {
      pageId: 1,
      function: '() => window.lastPw',
      filePath: join(dir, 'eval.json'),
    });
    file('evaluate file', join(dir, 'eval.json'));
    await attempt('secret', 'save_storage_state', {pageId: 1, filePath: join(dir, 'state.json')});
    file('storage state file', join(dir, 'state.json'));
    const requests = (await call('list_network_requests', {pageId: 1})).text;
    await attempt('secret', 'get_network_request', {
      pageId: 1,
      reqid: Number(/reqid=(\d+) POST \S+\/submit/.exec(requests)?.[1]),
      requestFilePath: join(dir, 'req'),
      responseFilePath: join(dir, 'res'),
    });
    file('request body file', join(dir, 'req.network-request'));
    file('response body file', join(dir, 'res.network-response'));
    const long = await attempt('secret', 'evaluate_script', {
      pageId: 1,
      function: '() => (window.lastPw + " ").repeat(3000)',
    });
    const whole = /The whole output \(\d+ characters\) is in (\S+)\./.exec(long.text)?.[1];
    assert.ok(whole, long.text.slice(-500));
    file('capped output file', whole);
    const heap = join(dir, 'page.heapsnapshot');
    await attempt('secret', 'take_heapsnapshot', {pageId: 1, filePath: heap});
    file('heap snapshot file', heap);
    await attempt('secret', 'get_heapsnapshot_summary', {filePath: heap});
    await attempt('secret', 'get_heapsnapshot_duplicate_strings', {filePath: heap, maxNameLength: 1000});
    await attempt('secret', 'query_heapsnapshot_objects', {
      filePath: heap,
      nodeType: 'string',
      pageSize: 2000,
      maxNameLength: 1000,
    });
    await call('performance_start_trace', {pageId: 1, reload: false, autoStop: false});
    const snapshot = (await call('take_snapshot', {pageId: 1})).text;
    await call('click', {pageId: 1, uid: uidOf(snapshot, /button "Done"/)});
    await attempt('secret', 'performance_stop_trace', {pageId: 1, filePath: join(dir, 'trace.json.gz')});
    file('trace file', '', gunzipSync(readFileSync(join(dir, 'trace.json.gz'))).toString('utf8'));
    file('server log (CDP_MCP_DEBUG)', '', mcp.stderr());
  });

  it('keeps the page inside the allow-list, whatever it starts', async () => {
    const nav = await call('navigate_page', {pageId: 1, url: fixtures.url('/starts')});
    assert.equal(nav.isError, false, nav.text);
    const reached = (path: string) => trap.requests.some(r => r.includes(path));
    // Each runs in the page and ends when the page saw it fail (or succeed).
    for (const [name, path, kind] of ATTEMPTS_SCRIPT) {
      await attempt(
        'blocked URL',
        'evaluate_script',
        {pageId: 1, function: `() => attempt(${JSON.stringify(name)})`},
        a => {
          if (reached(path) || !a.text.includes('"failed"')) {
            return `reached ${path}: ${a.text.slice(0, 300)}`;
          }
          return new RegExp(`^- ${kind} \\S+${path.replace(/[?]/g, '\\?')}`, 'm').test(a.text)
            ? undefined
            : `not reported as ${kind} ${path}:\n${a.text}`;
        },
      );
    }
    const snapshot = (await call('take_snapshot', {pageId: 1})).text;
    const byClick = async (label: RegExp, path: string, kind: string) =>
      attempt('blocked URL', 'click', {pageId: 1, uid: uidOf(snapshot, label)}, a =>
        reached(path) || !a.text.includes(`- ${kind} ${trap.url(path)}`) ? `${path}:\n${a.text}` : undefined,
      );
    await byClick(/link "new window"/, '/anchor', 'window');
    await byClick(/button "submit"/, '/form', 'navigation');
    const back = await call('navigate_page', {pageId: 1, url: fixtures.url('/starts')});
    assert.equal(back.isError, false, back.text);
    const again = (await call('take_snapshot', {pageId: 1})).text;
    await attempt('blocked URL', 'click', {pageId: 1, uid: uidOf(again, /button "leave"/)}, a =>
      reached('/self') || !a.text.includes(`- navigation ${trap.url('/self')}`) ? a.text : undefined,
    );
    // The agent asks for it itself.
    const refused = (path: string) => (a: Answer) =>
      reached(path) || !/is blocked by blocklist\/allowlist rules/.test(a.text) ? a.text : undefined;
    await attempt('blocked URL', 'navigate_page', {pageId: 1, url: trap.url('/navigate')}, refused('/navigate'));
    await attempt(
      'blocked URL',
      'navigate_page',
      {pageId: 1, url: fixtures.url(`/redirect?to=${encodeURIComponent(trap.url('/nav-redirect'))}`)},
      a =>
        reached('/nav-redirect') || !a.text.includes(`- navigation ${trap.url('/nav-redirect')}`) ? a.text : undefined,
    );
    await attempt('blocked URL', 'new_page', {url: trap.url('/new-page')}, refused('/new-page'));
    await attempt(
      'blocked URL',
      'new_page',
      {url: fixtures.url(`/redirect?to=${encodeURIComponent(trap.url('/new-redirect'))}`)},
      a => (reached('/new-redirect') ? a.text : undefined),
    );
    await attempt(
      'blocked URL',
      'navigate_page',
      {pageId: 1, url: 'data:text/html,<script>location="' + trap.url('/data') + '"</script>'},
      a => (reached('/data') ? a.text : undefined),
    );
    // The page preconnected to the trap host when it loaded: not even a connection.
    ledger.record(
      'blocked URL',
      '<link rel=preconnect> and dns-prefetch',
      trap.connections ? `${trap.connections} connections` : undefined,
    );
  });

  it('keeps what a page writes to close the marked block inside it', async () => {
    const nav = await attempt('injected marker', 'navigate_page', {pageId: 1, url: fixtures.url('/evil')});
    assert.equal(nav.isError, false, nav.text);
    await call('evaluate_script', {
      pageId: 1,
      function: `async () => { while (document.body.dataset.fetched !== 'yes') await new Promise(r => setTimeout(r, 20)); }`,
    });
    const seen = (a: Answer) => (a.text.includes(FAKE_ID) ? undefined : `the page's text is missing:\n${a.text}`);
    const snapshot = await attempt('injected marker', 'take_snapshot', {pageId: 1}, seen);
    await attempt('injected marker', 'take_snapshot', {pageId: 1, verbose: true}, seen);
    await attempt('injected marker', 'find_elements', {pageId: 1, query: 'ignore'}, seen);
    await attempt('injected marker', 'get_page_text', {pageId: 1}, seen);
    await attempt('injected marker', 'list_pages', {}, seen);
    const consoleList = await attempt('injected marker', 'list_console_messages', {pageId: 1}, seen);
    const msgid = Number(/msgid=(\d+) [^\n]*\(console\)/.exec(consoleList.text)?.[1]);
    await attempt('injected marker', 'get_console_message', {pageId: 1, msgid}, seen);
    const requests = await call('list_network_requests', {pageId: 1});
    const reqid = Number(/reqid=(\d+) GET \S+\/body/.exec(requests.text)?.[1]);
    await attempt('injected marker', 'get_network_request', {pageId: 1, reqid}, seen);
    await attempt('injected marker', 'evaluate_script', {pageId: 1, function: '() => document.title'}, seen);
    await attempt(
      'injected marker',
      'evaluate_script',
      {pageId: 1, function: `() => { throw new Error(document.title); }`},
      seen,
    );
    await attempt('injected marker', 'wait_for', {pageId: 1, text: ['ignore previous']}, seen);
    const heading = uidOf(snapshot.text, /heading/);
    await attempt('injected marker', 'hover', {pageId: 1, uid: heading, includeSnapshot: true}, seen);
    await attempt('injected marker', 'get_css_styles', {pageId: 1, uid: heading}, seen);
    const alert = await attempt(
      'injected marker',
      'click',
      {pageId: 1, uid: uidOf(snapshot.text, /button "Alert"/)},
      seen,
    );
    assert.match(alert.text, /# Open dialog/);
    await attempt('injected marker', 'take_screenshot', {pageId: 1}, seen);
    await attempt('injected marker', 'handle_dialog', {pageId: 1, action: 'accept'});
    await attempt('injected marker', 'take_screenshot', {pageId: 1}, a =>
      a.images === 1 && a.imagesMarked
        ? undefined
        : `the screenshot is not marked as page content: ${a.raw.slice(0, 500)}`,
    );
  });

  it('refuses the turned-off tools over stdio, HTTP and the CLI', async () => {
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['upload_file', {pageId: 1, uid: '1_1', filePaths: [join(dir, 'secrets.env')]}],
      ['upload_file', {}],
      ['load_storage_state', {pageId: 1, filePath: join(dir, 'state.json')}],
      ['mock_network_request', {pageId: 1, urlPattern: trap.url('/*'), status: 200, body: 'mocked'}],
      ['mock_network_request', {pageId: 1, urlPattern: '*://*/*', status: 200, body: 'mocked', extra: 1}],
    ];
    const refusedBy = (name: string) => (a: {isError: boolean; text: string}) =>
      a.isError && NOT_ENABLED(name).test(a.text) ? undefined : a.text;
    for (const [name, args] of attempts) {
      await attempt('disabled tool', name, args, refusedBy(name));
    }
    for (const name of ['Upload_File', 'mock-network-request']) {
      await assert.rejects(call(name, {pageId: 1}), {code: -32602, message: /Unknown tool "/});
      ledger.record('disabled tool', `stdio ${name}`, undefined);
    }
    const http = await startHttpServer({args: ['--config', config]});
    try {
      for (let i = 0; i < 2; i++) {
        const session = await http.connect();
        try {
          for (const [name, args] of attempts.slice(i * 2, i * 2 + 3)) {
            ledger.record(
              'disabled tool',
              `HTTP session ${i + 1} ${name}`,
              refusedBy(name)(await session.call(name, args)),
            );
          }
        } finally {
          await session.close();
        }
      }
    } finally {
      await http.close();
    }
    const stateDir = mkdtempSync(join(tmpdir(), 'cdp-mcp-envelope-cli-'));
    const cli = (args: string[]) =>
      new Promise<{isError: boolean; text: string}>(resolve => {
        execFile(
          process.execPath,
          [SERVER_BIN, ...args],
          {env: {...process.env, CDP_MCP_STATE_DIR: stateDir}, timeout: 90_000, killSignal: 'SIGKILL'},
          (error, stdout, stderr) => resolve({isError: Boolean(error), text: `${stdout.trim()}${stderr}`}),
        );
      });
    try {
      const started = await cli(['start', ...TEST_FLAGS, '--config', config]);
      assert.equal(started.isError, false, started.text);
      for (const [name, args] of [
        ['upload_file', ['--uid', '1_1', '--filePaths', join(dir, 'secrets.env')]],
        ['load_storage_state', ['--filePath', join(dir, 'state.json')]],
        ['mock_network_request', ['--urlPattern', '*://*/*', '--status', '200', '--body', 'mocked']],
      ] as const) {
        ledger.record('disabled tool', `CLI ${name}`, refusedBy(name)(await cli([name, ...args])));
      }
    } finally {
      await cli(['stop']);
      const state = readState(stateDir);
      if (state) {
        process.kill(state.pid, 'SIGKILL');
      }
      rmSync(stateDir, {recursive: true, force: true});
    }
    // Nothing ran: no mock answers, no file was chosen.
    const after = await call('evaluate_script', {
      pageId: 1,
      function: `async () => (await fetch(${JSON.stringify(fixtures.url('/body'))})).text()`,
    });
    assert.doesNotMatch(after.text, /mocked/);
  });

  it('lets none of them through', t => {
    const counts = ledger.counts();
    t.diagnostic(`attempts: ${ledger.attempts.length} (${JSON.stringify(counts)})`);
    const through = ledger.through.map(a => `- ${a.guard}: ${a.label}\n  ${a.through?.slice(0, 600)}`);
    assert.equal(
      through.length,
      0,
      `${through.length} of ${ledger.attempts.length} got through:\n${through.join('\n')}`,
    );
    assert.ok(ledger.attempts.length >= 50, `${ledger.attempts.length} attempts`);
    for (const [guard, n] of Object.entries(counts)) {
      assert.ok(n >= 10, `${n} attempts at the ${guard} guard`);
    }
    assert.deepEqual(trap.requests, [], 'nothing reached the blocked host');
    assert.equal(trap.connections, 0, 'not even a connection');
  });
});
