import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {pathToFileURL} from 'node:url';

import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';

describe('evaluate_script, take_screenshot, resize_page', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let workspace: string;

  before(async () => {
    workspace = mkdtempSync(join(process.cwd(), '.ws-'));
    fixtures = await new FixtureServer().start();
    fixtures.html(
      '/app',
      `<title>App</title><style>body{margin:0} #tall{height:3000px;background:linear-gradient(red,blue)}</style>
       <h1 id="h">Hello</h1><a id="go" href="/next">go</a><div id="tall"></div>`,
    );
    fixtures.html('/next', '<title>Next</title><p>next</p>');
    mcp = await startServer({args: ['--no-page-id-routing'], roots: [pathToFileURL(workspace).href]});
    await mcp.call('navigate_page', {url: fixtures.url('/app')});
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(workspace, {recursive: true, force: true});
  });

  it('returns JSON of sync and async functions', async () => {
    const r = await mcp.call('evaluate_script', {function: '() => ({a: 1, b: [document.title]})'});
    assert.equal(r.text, 'Script ran on page and returned:\n```json\n{"a":1,"b":["App"]}\n```');
    const a = await mcp.call('evaluate_script', {
      function: 'async () => { await new Promise(r => setTimeout(r, 10)); return 7; }',
    });
    assert.match(a.text, /```json\n7\n```/);
  });

  it('evaluates scripts with format=script and code from sourcePath', async () => {
    const r = await mcp.call('evaluate_script', {function: 'const x = 20; x + 22', format: 'script'});
    assert.match(r.text, /```json\n42\n```/);
    const file = join(workspace, 'fn.js');
    writeFileSync(file, '() => document.querySelector("#h").textContent');
    const f = await mcp.call('evaluate_script', {sourcePath: file});
    assert.match(f.text, /```json\n"Hello"\n```/);
  });

  it('turns page exceptions and bad code into errors', async () => {
    const r = await mcp.call('evaluate_script', {function: '() => { throw new Error("kaput") }'});
    assert.equal(r.isError, true);
    assert.equal(r.text, 'Error: kaput');
    const syntax = await mcp.call('evaluate_script', {function: '() => {'});
    assert.equal(syntax.isError, true);
    assert.match(syntax.text, /^Error: SyntaxError/);
    const none = await mcp.call('evaluate_script', {});
    assert.match(none.text, /Give the code to run/);
  });

  it('reports a navigation the script caused', async () => {
    const r = await mcp.call('evaluate_script', {
      function: '() => { document.querySelector("#go").click(); return 1; }',
    });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Page navigated to http:\/\/127\.0\.0\.1:\d+\/next\./);
    const title = await mcp.call('evaluate_script', {function: '() => document.title'});
    assert.match(title.text, /"Next"/);
    await mcp.call('navigate_page', {url: fixtures.url('/app')});
  });

  it('waits for DOM changes the script starts to settle', async () => {
    const r = await mcp.call('evaluate_script', {
      function:
        '() => { let i = 0; const t = setInterval(() => { document.body.append(String(i)); if (++i === 5) clearInterval(t); }, 10); return "started"; }',
    });
    assert.match(r.text, /"started"/);
    const count = await mcp.call('evaluate_script', {function: '() => document.body.lastChild.textContent'});
    assert.match(count.text, /"4"/);
  });

  it('saves results to a file inside the roots and refuses paths outside', async () => {
    const r = await mcp.call('evaluate_script', {function: '() => [1,2]', filePath: join(workspace, 'out.txt')});
    assert.equal(r.text, `Script ran on page. Output saved to ${join(workspace, 'out.json')}.`);
    assert.equal(readFileSync(join(workspace, 'out.json'), 'utf8'), '[1,2]');
    const denied = await mcp.call('evaluate_script', {function: '() => 1', filePath: '/etc/cdp-mcp-test.json'});
    assert.equal(denied.isError, true);
    assert.match(denied.text, /Access denied: path \/etc\/cdp-mcp-test\.json/);
  });

  it('takes viewport, full-page and saved screenshots in every format', async () => {
    const png = await mcp.call('take_screenshot', {});
    assert.equal(png.text, "Took a screenshot of the current page's viewport.");
    assert.equal(png.images[0]?.mimeType, 'image/png');
    assert.equal(
      Buffer.from(png.images[0]?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
      'PNG',
    );
    const full = await mcp.call('take_screenshot', {fullPage: true, format: 'jpeg', quality: 50});
    assert.equal(full.text, 'Took a screenshot of the full current page.');
    const jpeg = Buffer.from(full.images[0]?.data ?? '', 'base64');
    assert.equal(jpeg[0], 0xff);
    // A JPEG's SOF0 segment carries the height: the full page is taller than the viewport.
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    assert.ok(jpeg.readUInt16BE(sof + 5) >= 3000);
    const saved = await mcp.call('take_screenshot', {format: 'webp', filePath: join(workspace, 'shot.png')});
    assert.match(saved.text, /Saved screenshot to .*shot\.webp\.$/);
    assert.equal(readFileSync(join(workspace, 'shot.webp')).subarray(8, 12).toString(), 'WEBP');
    const both = await mcp.call('take_screenshot', {fullPage: true, uid: '1_1'});
    assert.equal(both.text, 'Error: Providing both "uid" and "fullPage" is not allowed.');
  });

  it('resizes the page content area', async () => {
    const r = await mcp.call('resize_page', {width: 700, height: 500});
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^## Pages/);
    const size = await mcp.call('evaluate_script', {function: '() => [innerWidth, innerHeight]'});
    assert.match(size.text, /\[700,500\]/);
  });
});
