/**
 * --secrets: a page that prints the secret back everywhere it can (DOM, title,
 * console, request bodies and URLs, storage, the JS heap) and every tool that
 * reads it: the value reaches the page, never an output of the server.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {gunzipSync} from 'node:zlib';

import {FixtureServer} from '../../support/fixtureServer.js';
import {startServer, type TestServer} from '../../support/mcpClient.js';

const PASSWORD = 'Zq9"vT!4427&pass word';
const TOKEN = 'tok_live_8c1e5f0a9d';
/** Every form of a value a reader could recognise it by. */
const forms = (value: string) => [
  value,
  JSON.stringify(value).slice(1, -1),
  encodeURIComponent(value),
  encodeURIComponent(value).replace(/%20/g, '+'),
  Buffer.from(value).toString('base64').replace(/=+$/, ''),
];
const LEAKS = [...forms(PASSWORD), ...forms(TOKEN)];

const PAGE = `<!doctype html><title>login</title>
<label>User <input id=user></label>
<label>Password <input id=pw></label>
<label>Pin <input id=pin></label>
<select aria-label=Plan><option>free</option></select>
<button id=done>Done</button>
<p id=echo></p>
<script>
  document.getElementById('pw').addEventListener('keydown', e => {
    if (e.key.length > 1) console.log('key:' + e.key);
  });
  document.getElementById('done').addEventListener('click', async () => {
    const pw = document.getElementById('pw').value;
    const pin = document.getElementById('pin').value;
    window.lastPw = pw;
    document.getElementById('echo').textContent = 'You typed ' + pw + ' and ' + pin;
    document.title = 'pw:' + pw;
    console.log('typed password', pw, {pin});
    console.warn(JSON.stringify({password: pw}));
    localStorage.setItem('pw', pw);
    sessionStorage.setItem('pin', btoa(pin));
    await fetch('/submit', {method: 'POST', headers: {'content-type': 'application/json'},
      body: JSON.stringify({password: pw, pin, b64: btoa(pw)})});
    await fetch('/echo?p=' + encodeURIComponent(pw) + '&t=' + pin);
    document.getElementById('echo').dataset.sent = 'yes';
  });
</script>`;

describe('--secrets: typed by name, never read back', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let dir: string;
  /** Every output checked, by what produced it. */
  const outputs: Array<{label: string; text: string}> = [];

  const check = (label: string, text: string) => {
    outputs.push({label, text});
    for (const leak of LEAKS) {
      assert.ok(!text.includes(leak), `${label} shows ${JSON.stringify(leak)}:\n${text.slice(0, 3000)}`);
    }
    return text;
  };
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await mcp.call(name, args);
    check(`${name} ${JSON.stringify(args)}`, result.text);
    return result;
  };
  const uidOf = (snapshot: string, pattern: RegExp) => {
    const uid = new RegExp(`uid=(\\S+) ${pattern.source}`).exec(snapshot)?.[1];
    assert.ok(uid, `no ${pattern} in:\n${snapshot}`);
    return uid;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cdp-mcp-secrets-e2e-'));
    writeFileSync(
      join(dir, 'secrets.env'),
      `# test secrets\nPASSWORD='${PASSWORD}'\nexport TOKEN=${TOKEN}\nSUBMIT_KEY=Enter\n`,
    );
    writeFileSync(join(dir, 'config.json'), JSON.stringify({secrets: join(dir, 'secrets.env'), memoryDebugging: true}));
    fixtures = await new FixtureServer().start();
    fixtures.html('/login', PAGE);
    fixtures.route('/submit', (_req, res, body) => {
      res.writeHead(200, {'content-type': 'application/json'}).end(body);
    });
    fixtures.route('/echo', (req, res) => {
      res.writeHead(200, {'content-type': 'text/plain'}).end(`echo ${req.url}`);
    });
    mcp = await startServer({args: ['--config', join(dir, 'config.json')], env: {CDP_MCP_DEBUG: '1'}});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(dir, {recursive: true, force: true});
  });

  it('types the values given by name into the page', async () => {
    const tools = (await mcp.client.listTools()).tools;
    for (const name of ['fill', 'fill_form', 'type_text', 'press_key']) {
      assert.match(tools.find(t => t.name === name)?.description ?? '', /PASSWORD, TOKEN, SUBMIT_KEY/);
    }
    assert.equal((await call('navigate_page', {pageId: 1, url: fixtures.url('/login')})).isError, false);
    const snapshot = (await call('take_snapshot', {pageId: 1})).text;
    const pw = uidOf(snapshot, /textbox "Password"/);
    const filled = await call('fill_form', {
      pageId: 1,
      elements: [
        {uid: uidOf(snapshot, /textbox "User"/), value: 'alice'},
        {uid: pw, value: 'PASSWORD'},
      ],
    });
    assert.equal(filled.isError, false, filled.text);
    assert.equal((await call('fill', {pageId: 1, uid: pw, value: '<secret>PASSWORD</secret>'})).isError, false);
    const pressed = await call('press_key', {pageId: 1, key: 'SUBMIT_KEY'});
    assert.match(pressed.text, /Successfully pressed key: SUBMIT_KEY/);
    await call('click', {pageId: 1, uid: uidOf(snapshot, /textbox "Pin"/)});
    const typed = await call('type_text', {pageId: 1, text: 'TOKEN'});
    assert.match(typed.text, /Typed text "TOKEN"/);
    await call('click', {pageId: 1, uid: uidOf(snapshot, /button "Done"/)});
    await call('wait_for', {pageId: 1, text: ['You typed']});
    const sent = await call('evaluate_script', {
      pageId: 1,
      function: `async () => { while (!document.getElementById('echo').dataset.sent) await new Promise(r => setTimeout(r, 20));
        return [window.lastPw === atob(${JSON.stringify(Buffer.from(PASSWORD).toString('base64'))}), document.getElementById('pin').value.length]; }`,
    });
    assert.match(sent.text, /\[true,19\]/);
    const submit = fixtures.requests.find(r => r.url === '/submit');
    assert.ok(submit?.body.includes(JSON.stringify(PASSWORD).slice(1, -1)), 'the page got the value');
    assert.ok(submit?.body.includes(TOKEN));
    const console = (await call('list_console_messages', {pageId: 1})).text;
    assert.match(console, /key:<secret>SUBMIT_KEY<\/secret>/, 'press_key pressed the secret key');
  });

  it('shows the names in place of the values in every reading tool', async () => {
    const marker = /<secret>PASSWORD<\/secret>/;
    assert.match((await call('take_snapshot', {pageId: 1})).text, marker);
    await call('take_snapshot', {pageId: 1, verbose: true});
    assert.match((await call('get_page_text', {pageId: 1})).text, marker);
    await call('get_page_text', {pageId: 1, format: 'text'});
    await call('list_pages');
    const consoleList = (await call('list_console_messages', {pageId: 1})).text;
    assert.match(consoleList, marker);
    for (const [, id] of consoleList.matchAll(/msgid=(\d+)/g)) {
      await call('get_console_message', {pageId: 1, msgid: Number(id)});
    }
    const requests = (await call('list_network_requests', {pageId: 1})).text;
    assert.match(requests, /\/echo\?p=<secret>PASSWORD<\/secret>&t=<secret>TOKEN<\/secret>/);
    for (const [, id] of requests.matchAll(/reqid=(\d+)/g)) {
      await call('get_network_request', {pageId: 1, reqid: Number(id)});
    }
    const evaluated = await call('evaluate_script', {
      pageId: 1,
      function:
        '() => [window.lastPw, document.title, localStorage.pw, btoa(window.lastPw), sessionStorage.pin, encodeURIComponent(window.lastPw)]',
    });
    assert.match(evaluated.text, marker);
    await call('evaluate_script', {pageId: 1, format: 'script', function: 'document.body.innerHTML'});
    const refused = await call('fill', {
      pageId: 1,
      uid: uidOf((await call('take_snapshot', {pageId: 1})).text, /combobox "Plan"/),
      value: 'PASSWORD',
    });
    assert.equal(refused.isError, true, 'no such option');
  });

  it('writes files without the values', async () => {
    const read = (label: string, path: string) => check(label, readFileSync(path, 'utf8'));
    await call('take_snapshot', {pageId: 1, filePath: join(dir, 'snap.txt')});
    assert.match(read('snapshot file', join(dir, 'snap.txt')), /<secret>PASSWORD<\/secret>/);
    await call('get_page_text', {pageId: 1, filePath: join(dir, 'text.md')});
    read('page text file', join(dir, 'text.md'));
    await call('evaluate_script', {pageId: 1, function: '() => window.lastPw', filePath: join(dir, 'eval.json')});
    read('evaluate file', join(dir, 'eval.json'));
    await call('save_storage_state', {pageId: 1, filePath: join(dir, 'state.json')});
    assert.match(read('storage state', join(dir, 'state.json')), /<secret>PASSWORD<\/secret>/);
    const requests = (await call('list_network_requests', {pageId: 1})).text;
    const submit = Number(/reqid=(\d+) POST \S+\/submit/.exec(requests)?.[1]);
    await call('get_network_request', {
      pageId: 1,
      reqid: submit,
      requestFilePath: join(dir, 'req'),
      responseFilePath: join(dir, 'res'),
    });
    read('request body file', join(dir, 'req.network-request'));
    read('response body file', join(dir, 'res.network-response'));
    // An answer over the output cap is written whole to a file.
    const long = await call('evaluate_script', {pageId: 1, function: '() => (window.lastPw + " ").repeat(3000)'});
    const whole = /The whole output \(\d+ characters\) is in (\S+)\./.exec(long.text)?.[1];
    assert.ok(whole, long.text.slice(-500));
    assert.match(read('capped output file', whole), /<secret>PASSWORD<\/secret>/);
  });

  it('keeps them out of heap snapshots, their analysis, traces and logs', async () => {
    const heap = join(dir, 'page.heapsnapshot');
    await call('take_heapsnapshot', {pageId: 1, filePath: heap});
    assert.match(check('heap snapshot file', readFileSync(heap, 'utf8')), /<secret>PASSWORD<\/secret>/);
    await call('get_heapsnapshot_summary', {filePath: heap});
    await call('get_heapsnapshot_duplicate_strings', {filePath: heap, maxNameLength: 1000});
    await call('query_heapsnapshot_objects', {filePath: heap, nodeType: 'string', pageSize: 2000, maxNameLength: 1000});
    await call('performance_start_trace', {pageId: 1, reload: false, autoStop: false});
    await call('click', {pageId: 1, uid: uidOf((await call('take_snapshot', {pageId: 1})).text, /button "Done"/)});
    await call('performance_stop_trace', {pageId: 1, filePath: join(dir, 'trace.json.gz')});
    check('trace file', gunzipSync(readFileSync(join(dir, 'trace.json.gz'))).toString('utf8'));
    check('server log (CDP_MCP_DEBUG)', mcp.stderr());
    assert.ok(outputs.length >= 50, `${outputs.length} outputs checked`);
  });
});
