import assert from 'node:assert/strict';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import ws from 'ws';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

/** The reqid of the first listed request whose line matches. */
function reqid(list: string, pattern: RegExp): number {
  const line = list.split('\n').find(l => pattern.test(l));
  assert.ok(line, `no request matching ${pattern} in:\n${list}`);
  return Number(/reqid=(\d+)/.exec(line)?.[1]);
}

describe('network requests', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let sockets: InstanceType<typeof ws.Server>;
  const outDir = join(tmpdir(), `cdp-mcp-network-test-${process.pid}`);

  before(async () => {
    fixtures = await new FixtureServer().start();
    sockets = new ws.Server({port: 0, host: '127.0.0.1'});
    await new Promise(resolve => sockets.once('listening', resolve));
    sockets.on('connection', socket =>
      socket.on('message', message => socket.send(`echo ${(message as Buffer).toString()}`)),
    );
    const wsPort = (sockets.address() as {port: number}).port;
    fixtures.route('/api/items', {headers: {'content-type': 'application/json'}, body: '{"items":[1,2,3]}'});
    fixtures.route('/api/echo', (req, res, body) => {
      res.writeHead(201, {'content-type': 'text/plain'});
      res.end(`received ${body.toString()}`);
    });
    fixtures.route('/hop1', {status: 302, headers: {location: '/hop2'}});
    fixtures.route('/hop2', {status: 301, headers: {location: '/final'}});
    fixtures.route('/final', {headers: {'content-type': 'text/plain'}, body: 'arrived'});
    fixtures.route('/large', {headers: {'content-type': 'text/plain'}, body: 'L'.repeat(30_000)});
    fixtures.route('/binary', {
      headers: {'content-type': 'application/octet-stream'},
      body: Buffer.from([0xff, 0xfe, 0x00, 0x81]),
    });
    fixtures.route('/events', (_req, res) => {
      res.writeHead(200, {'content-type': 'text/event-stream'});
      res.end('data: tick\n\n');
    });
    fixtures.html(
      '/traffic',
      `<!doctype html><title>traffic</title><script>
      window.done = (async () => {
        await fetch('/api/items').then(r => r.text());
        await fetch('/api/echo', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({name: 'fetch-post'})}).then(r => r.text());
        await new Promise(resolve => { const x = new XMLHttpRequest(); x.open('GET', '/api/items?via=xhr'); x.onload = resolve; x.send(); });
        await new Promise(resolve => { const x = new XMLHttpRequest(); x.open('POST', '/api/echo?via=xhr'); x.onload = resolve; x.send('xhr-body=1'); });
        await fetch('/hop1').then(r => r.text());
        await fetch('http://127.0.0.1:9/refused').catch(() => {});
        await fetch('/large').then(r => r.text());
        await fetch('/binary').then(r => r.arrayBuffer());
        await new Promise(resolve => { const es = new EventSource('/events'); es.onmessage = () => { es.close(); resolve(); }; });
        await new Promise(resolve => { const s = new WebSocket('ws://127.0.0.1:${wsPort}/live'); s.onopen = () => s.send('ping'); s.onmessage = () => { s.close(); resolve(); }; });
        return 'ok';
      })();
      </script>`,
    );
    fixtures.html('/second', '<!doctype html><title>second</title><script>fetch("/api/items?page=2")</script>');
    fixtures.html('/third', '<!doctype html><title>third</title>');
    mcp = await startServer();
    const nav = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/traffic')});
    assert.equal(nav.isError, false, nav.text);
    const done = await mcp.call('evaluate_script', {pageId: 1, function: '() => window.done'});
    assert.match(done.text, /"ok"/);
  });

  after(async () => {
    await mcp?.close();
    sockets?.close();
    await fixtures?.stop();
    rmSync(outDir, {recursive: true, force: true});
  });

  it('lists every request of the page with method and status', async () => {
    const r = await mcp.call('list_network_requests', {pageId: 1});
    assert.equal(r.isError, false, r.text);
    const base = fixtures.url('');
    assert.match(r.text, /^## Network requests\nShowing 1-\d+ of \d+ \(Page 1 of 1\)\.\n/);
    assert.match(r.text, new RegExp(`reqid=1 GET ${base}/traffic \\[200\\]`));
    assert.match(r.text, new RegExp(`reqid=\\d+ POST ${base}/api/echo \\[201\\]`));
    assert.match(r.text, new RegExp(`reqid=\\d+ GET ${base}/api/items\\?via=xhr \\[200\\]`));
    assert.match(r.text, /reqid=\d+ GET http:\/\/127\.0\.0\.1:9\/refused \[net::ERR_[A-Z_]+\]/);
    assert.match(r.text, new RegExp(`GET ${base}/events \\[200\\]`));
    assert.match(r.text, /GET ws:\/\/127\.0\.0\.1:\d+\/live \[101\]/);
  });

  it('filters by resource type', async () => {
    const r = await mcp.call('list_network_requests', {pageId: 1, resourceTypes: ['xhr']});
    const lines = r.text.split('\n').filter(l => l.startsWith('reqid='));
    assert.equal(lines.length, 2, r.text);
    assert.ok(
      lines.every(l => l.includes('via=xhr')),
      r.text,
    );
    const sse = await mcp.call('list_network_requests', {pageId: 1, resourceTypes: ['eventsource', 'websocket']});
    assert.equal(sse.text.split('\n').filter(l => l.startsWith('reqid=')).length, 2, sse.text);
  });

  it('shows a GET with headers and its JSON response body', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const r = await mcp.call('get_network_request', {pageId: 1, reqid: reqid(list, /\/api\/items \[/)});
    assert.equal(r.isError, false, r.text);
    assert.match(
      r.text,
      new RegExp(
        `^## Request ${fixtures.url('/api/items').replace(/[.?]/g, '\\$&')}\nStatus: 200\n### Request Headers\n`,
      ),
    );
    assert.match(r.text, /\n- host:127\.0\.0\.1:\d+\n/);
    assert.match(r.text, /\n### Response Headers\n(- .*\n)*- content-type:application\/json\n/);
    assert.match(r.text, /\n### Response Body\n\{"items":\[1,2,3\]\}$/);
    assert.doesNotMatch(r.text, /### Request Body/);
  });

  it('shows the bodies of fetch and XHR POSTs', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const fetchPost = await mcp.call('get_network_request', {pageId: 1, reqid: reqid(list, /POST .*\/api\/echo \[/)});
    assert.match(fetchPost.text, /\n### Request Body\n\{"name":"fetch-post"\}\n### Response Headers\n/);
    assert.match(fetchPost.text, /\n### Response Body\nreceived \{"name":"fetch-post"\}$/);
    const xhrPost = await mcp.call('get_network_request', {
      pageId: 1,
      reqid: reqid(list, /POST .*\/api\/echo\?via=xhr/),
    });
    assert.match(xhrPost.text, /\n### Request Body\nxhr-body=1\n/);
    assert.match(xhrPost.text, /\n### Response Body\nreceived xhr-body=1$/);
  });

  it('lists each redirect hop and shows the chain, most recent first', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const hop1 = reqid(list, /\/hop1 \[302\]/);
    const hop2 = reqid(list, /\/hop2 \[301\]/);
    const final = reqid(list, /\/final \[200\]/);
    assert.ok(hop1 < hop2 && hop2 < final);
    const r = await mcp.call('get_network_request', {pageId: 1, reqid: final});
    assert.match(r.text, /\n### Response Body\narrived\n### Redirect chain\n/);
    assert.match(
      r.text,
      new RegExp(`### Redirect chain\nreqid=${hop2} GET \\S+/hop2 \\[301\\]\n  reqid=${hop1} GET \\S+/hop1 \\[302\\]$`),
    );
    const first = await mcp.call('get_network_request', {pageId: 1, reqid: hop1});
    assert.match(first.text, /\n- location:\/hop2\n/);
    assert.doesNotMatch(first.text, /### Redirect chain/);
    assert.doesNotMatch(first.text, /arrived/);
  });

  it('reports a failed request', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const r = await mcp.call('get_network_request', {pageId: 1, reqid: reqid(list, /\/refused/)});
    assert.match(r.text, /^## Request http:\/\/127\.0\.0\.1:9\/refused\nStatus: (net::ERR_[A-Z_]+)\n/);
    assert.match(r.text, /\n### Request failed with\nnet::ERR_[A-Z_]+$/);
    assert.doesNotMatch(r.text, /### Response Headers/);
  });

  it('cuts a large body inline and says so, and saves it whole to a file', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const id = reqid(list, /\/large \[/);
    const r = await mcp.call('get_network_request', {pageId: 1, reqid: id});
    assert.match(r.text, new RegExp(`\\n### Response Body\\nL{10000}\\.\\.\\. <truncated>$`));
    const saved = await mcp.call('get_network_request', {
      pageId: 1,
      reqid: id,
      responseFilePath: join(outDir, 'large.txt'),
    });
    const path = join(outDir, 'large.network-response');
    assert.match(saved.text, new RegExp(`\\n### Response Body\\nSaved to ${path.replace(/[.]/g, '\\.')}\\.$`));
    assert.equal(readFileSync(path, 'utf8'), 'L'.repeat(30_000));
    const binary = await mcp.call('get_network_request', {pageId: 1, reqid: reqid(list, /\/binary \[/)});
    assert.match(binary.text, /\n### Response Body\n<binary data>$/);
  });

  it('saves a request body to a file', async () => {
    const list = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const r = await mcp.call('get_network_request', {
      pageId: 1,
      reqid: reqid(list, /POST .*\/api\/echo \[/),
      requestFilePath: join(outDir, 'req'),
    });
    const path = join(outDir, 'req.network-request');
    assert.match(r.text, /\n### Request Body\nSaved to .*req\.network-request\.\n/);
    assert.equal(readFileSync(path, 'utf8'), '{"name":"fetch-post"}');
  });

  it('refuses file paths outside the sandbox', async () => {
    const r = await mcp.call('get_network_request', {pageId: 1, reqid: 1, responseFilePath: '/proc/forbidden/x'});
    assert.equal(r.isError, true);
    assert.match(r.text, /Access denied/);
    assert.equal(existsSync('/proc/forbidden'), false);
  });

  it('paginates: pages, last page, out of range', async () => {
    const all = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const total = Number(/ of (\d+) \(/.exec(all)?.[1]);
    assert.ok(total >= 12, all);
    const first = await mcp.call('list_network_requests', {pageId: 1, pageSize: 5});
    assert.match(
      first.text,
      new RegExp(
        `^## Network requests\\nShowing 1-5 of ${total} \\(Page 1 of ${Math.ceil(total / 5)}\\)\\.\\nNext page: 1\\nreqid=1 `,
      ),
    );
    const lastIdx = Math.ceil(total / 5) - 1;
    const last = await mcp.call('list_network_requests', {pageId: 1, pageSize: 5, pageIdx: lastIdx});
    assert.match(
      last.text,
      new RegExp(
        `Showing ${lastIdx * 5 + 1}-${total} of ${total} \\(Page ${lastIdx + 1} of ${lastIdx + 1}\\)\\.\\nPrevious page: ${lastIdx - 1}\\n`,
      ),
    );
    assert.doesNotMatch(last.text, /Next page/);
    const out = await mcp.call('list_network_requests', {pageId: 1, pageSize: 5, pageIdx: 99});
    assert.match(
      out.text,
      /^## Network requests\nInvalid page number provided\. Showing first page\.\nShowing 1-5 of /,
    );
    const empty = await mcp.call('list_network_requests', {
      pageId: 1,
      resourceTypes: ['manifest'],
      pageSize: 5,
      pageIdx: 3,
    });
    assert.equal(empty.text, '## Network requests\nNo requests found.');
  });

  it('keeps the last three navigations and their bodies, with stable reqids', async () => {
    const before = (await mcp.call('list_network_requests', {pageId: 1})).text;
    const itemsId = reqid(before, /\/api\/items \[/);
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/second')});
    await mcp.call('evaluate_script', {pageId: 1, function: '() => new Promise(r => setTimeout(r, 100))'});
    const current = (await mcp.call('list_network_requests', {pageId: 1})).text;
    assert.match(current, /reqid=\d+ GET \S+\/second \[200\]/);
    assert.doesNotMatch(current, /\/traffic/);
    const preserved = (await mcp.call('list_network_requests', {pageId: 1, includePreservedRequests: true})).text;
    assert.ok(preserved.indexOf('/traffic') < preserved.indexOf('/second'), preserved);
    assert.equal(reqid(preserved, /\/api\/items \[/), itemsId);
    const old = await mcp.call('get_network_request', {pageId: 1, reqid: itemsId});
    assert.match(old.text, /\n### Response Body\n\{"items":\[1,2,3\]\}$/);
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/third')});
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/second')});
    const trimmed = (await mcp.call('list_network_requests', {pageId: 1, includePreservedRequests: true})).text;
    assert.doesNotMatch(trimmed, /\/traffic/);
    assert.match(trimmed, /\/third/);
    const gone = await mcp.call('get_network_request', {pageId: 1, reqid: itemsId});
    assert.equal(gone.isError, true);
    assert.match(gone.text, /No request with reqid \d+ on page 1\. Call list_network_requests/);
  });
});
