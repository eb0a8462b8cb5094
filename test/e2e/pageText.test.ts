import assert from 'node:assert/strict';
import {readFile, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {parseSections} from '../../src/response/sections.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {uidOf} from '../support/snapshotText.js';

const para = (n: number) =>
  `<p>Paragraph ${n} of the story, with enough words, commas, and clauses to look like real prose, which readers like.</p>`;

function articlePage(crossFrame: string): string {
  return `<!doctype html><html><head><title>The Story</title></head><body>
<header><a href="/">Site home</a><nav><a href="/a">Nav A</a></nav></header>
<main><article><h1>The Story</h1>${para(1)}${para(2)}
<h2>Details</h2><ul><li>First <a href="/rel/link">relative link</a></li><li>Second <strong>bold</strong></li></ul>
<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Apples</td><td>3</td></tr></table>
<img src="/pic.png" alt="A red apple">${para(3)}
<iframe src="/frame" title="same"></iframe>
<iframe src="${crossFrame}" title="cross"></iframe>
${para(4)}<div style="display:none">Hidden secret</div><div id="host"></div></article></main>
<aside><div class="ad">Buy now! Ad text</div></aside>
<footer>Copyright footer</footer>
<script>document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<p>Shadow paragraph text, inside the article.</p>';</script>
</body></html>`;
}

const APP_PAGE = `<!doctype html><title>App</title><nav>Menu</nav><main><h1>Dashboard</h1><p>Short.</p>
<table id="t"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><ol start="3"><li>three</li><li>four</li></ol></main><footer>f</footer>`;

describe('get_page_text', () => {
  let fixtures: FixtureServer;
  let other: FixtureServer;
  let mcp: TestServer;

  before(async () => {
    fixtures = await new FixtureServer().start();
    other = await new FixtureServer().start();
    fixtures.html('/article', articlePage(other.url('/cross').replace('127.0.0.1', 'localhost')));
    fixtures.html('/frame', '<!doctype html><p>Same-origin frame text, with <a href="/in-frame">a link</a>.</p>');
    other.html(
      '/cross',
      '<!doctype html><h3>Cross frame heading</h3><p>Cross-origin frame paragraph.</p><nav>frame nav</nav>',
    );
    fixtures.html('/app', APP_PAGE);
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await other?.stop();
  });

  it('returns the main content as markdown, frames and shadow roots included, page furniture left out', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/article')});
    const r = await mcp.call('get_page_text', {pageId: 1});
    assert.equal(r.isError, false, r.text);
    const section = parseSections(r.text).pageText?.join('\n') ?? '';
    const base = fixtures.url('');
    assert.equal(
      section.split('\n').slice(0, 5).join('\n'),
      `## Page text\nURL: ${fixtures.url('/article')}\nTitle: The Story\nContent: the main content, as Readability picks it, with 2 frames\n`,
    );
    for (const expected of [
      '# The Story',
      '## Details',
      `- First [relative link](${base}/rel/link)`,
      '- Second **bold**',
      '| Name | Qty |\n| --- | --- |\n| Apples | 3   |',
      `![A red apple](${base}/pic.png)`,
      `Same-origin frame text, with [a link](${base}/in-frame).`,
      '### Cross frame heading\n\nCross-origin frame paragraph.',
      'Shadow paragraph text, inside the article.',
    ]) {
      assert.ok(section.includes(expected), `missing ${JSON.stringify(expected)} in:\n${section}`);
    }
    for (const absent of ['Site home', 'Nav A', 'Buy now', 'Copyright footer', 'Hidden secret', 'frame nav']) {
      assert.ok(!section.includes(absent), `${absent} should be left out`);
    }
    const again = await mcp.call('get_page_text', {pageId: 1});
    assert.equal(again.text, r.text, 'the same DOM gives the same text');
  });

  it('gives plain text without markup', async () => {
    const r = await mcp.call('get_page_text', {pageId: 1, format: 'text'});
    const section = parseSections(r.text).pageText?.join('\n') ?? '';
    assert.match(section, /\n\nThe Story\n\nParagraph 1 /);
    assert.match(section, /\n- First relative link\n- Second bold\n/);
    assert.match(section, /\[image: A red apple\]/);
    assert.doesNotMatch(section.split('\n').slice(4).join('\n'), /\]\(http|\*\*|^#/m);
  });

  it('uses the main landmark of pages that are not articles, and one element by uid', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/app')});
    const r = await mcp.call('get_page_text', {pageId: 1});
    assert.equal(
      parseSections(r.text).pageText?.join('\n'),
      [
        '## Page text',
        `URL: ${fixtures.url('/app')}`,
        'Title: App',
        'Content: the main landmark',
        '',
        '# Dashboard',
        '',
        'Short.',
        '',
        '|     |     |',
        '| --- | --- |',
        '| a   | b   |',
        '| c   | d   |',
        '',
        '3. three',
        '4. four',
      ].join('\n'),
    );
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    const uid = uidOf(snapshot.text, /heading "Dashboard"/);
    const one = await mcp.call('get_page_text', {pageId: 1, uid});
    assert.equal(
      parseSections(one.text).pageText?.join('\n'),
      `## Page text\nURL: ${fixtures.url('/app')}\nTitle: App\nContent: one element (uid=${uid})\n\n# Dashboard`,
    );
  });

  it('saves to a file', async () => {
    const path = join(tmpdir(), `cdp-mcp-page-text-${process.pid}.txt`);
    const r = await mcp.call('get_page_text', {pageId: 1, filePath: path});
    const saved = path.replace(/\.txt$/, '.md');
    assert.match(r.text, new RegExp(`Saved the markdown \\(\\d+ characters\\) to ${saved.replace(/[.]/g, '\\.')}\\.`));
    assert.match(await readFile(saved, 'utf8'), /^# Dashboard\n/);
    await rm(saved, {force: true});
  });

  it('keeps the breaks of blank blocks and the spaces of blank inline elements', async () => {
    const buttons = '<li><button>Only a button</button></li>'.repeat(50);
    fixtures.html(
      '/blank',
      `<!doctype html><title>Blank</title><main>one<div><span> </span></div>two<span> </span>three<ul>${buttons}</ul><p>a<span><div> </div></span>b</p></main>`,
    );
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/blank')});
    const r = await mcp.call('get_page_text', {pageId: 1});
    assert.equal(parseSections(r.text).pageText?.slice(4).join('\n'), '\none\n\ntwo three\n\na\n\nb');
  });

  it('explains bad input', async () => {
    const unknown = await mcp.call('get_page_text', {pageId: 1, uid: '999_1'});
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /^Error: Element uid "999_1" not found on page 1\./);
    const format = await mcp.call('get_page_text', {pageId: 1, format: 'html'});
    assert.match(
      format.text,
      /Invalid arguments for tool "get_page_text": "format": Invalid type: Expected \("markdown" \| "text"\)/,
    );
    const outside = await mcp.call('get_page_text', {pageId: 1, filePath: '/etc/text.md'});
    assert.match(outside.text, /^Error: Access denied: path \/etc\/text\.md/);
  });
});
