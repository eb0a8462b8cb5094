import assert from 'node:assert/strict';
import {mkdtemp, readFile, rm, stat} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';
import {pathToFileURL} from 'node:url';

import {parseSections} from '../../src/response/sections.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {startServer, type TestServer} from '../support/mcpClient.js';
import {type HeapReport, heapReport} from '../support/soak.js';

/**
 * A small shop page with the two classic failures (no `lang`, an image
 * without `alt`). It reports the viewport and user agent it loaded with, so
 * the test can see what Lighthouse emulated.
 */
const SHOP = `<!doctype html><html><head><title>Shop</title></head><body>
<h1>Big sale</h1>
<img src="/img.svg" width="600" height="300">
<button onclick="this.textContent = 'Bought'">Buy</button>
<script>
  window.loadedAt = performance.timeOrigin;
  new Image().src = '/beacon?' + new URLSearchParams({w: innerWidth, sw: screen.width, dpr: devicePixelRatio, ua: navigator.userAgent});
</script>
</body></html>`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300"/></svg>';

interface Lhr {
  configSettings: {formFactor: string; screenEmulation: {width: number; mobile: boolean}; emulatedUserAgent: string};
  categories: Record<string, {score: number | null}>;
  audits: Record<string, {score: number | null}>;
  finalDisplayedUrl: string;
}

function reportPaths(text: string): string[] {
  return (
    parseSections(text)
      .lighthouse?.filter(line => /^- \/.*report\.(json|html)$/.test(line))
      .map(l => l.slice(2)) ?? []
  );
}

function json(text: string): unknown {
  const m = /```json\n([\s\S]*)\n```/.exec(text);
  assert.ok(m, text);
  return JSON.parse(m[1] ?? 'null');
}

describe('lighthouse_audit', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let workspace: string;
  let url: string;
  let baseline: HeapReport;

  before(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'lighthouse-test-'));
    fixtures = await new FixtureServer().start();
    url = fixtures.html('/', SHOP);
    fixtures.route('/img.svg', {body: SVG, headers: {'content-type': 'image/svg+xml'}});
    fixtures.route('/beacon', {status: 204});
    // Content, so that the page paints (Lighthouse would otherwise wait for a first paint).
    fixtures.route('/broken', {status: 500, body: '<title>Broken</title><h1>Internal error</h1>'});
    mcp = await startServer({roots: [pathToFileURL(workspace).href], env: {CDP_MCP_HEAP_REPORT: '1'}});
    await mcp.call('navigate_page', {pageId: 1, url});
    baseline = await heapReport(mcp);
  });

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    await rm(workspace, {recursive: true, force: true});
  });

  const beacons = () => fixtures.requests.filter(r => r.url.startsWith('/beacon')).map(r => new URL(r.url, url));

  it('audits a navigation on desktop: missing lang and alt, with their nodes, reports where asked', async () => {
    const outputDirPath = join(workspace, 'reports', 'desktop');
    const seen = beacons().length;
    const progress: string[] = [];
    const result = await mcp.client.callTool(
      {name: 'lighthouse_audit', arguments: {pageId: 1, outputDirPath}},
      undefined,
      {timeout: 120_000, onprogress: p => progress.push(p.message ?? '')},
    );
    const text = (result.content as Array<{text: string}>)[0]?.text ?? '';
    assert.equal(result.isError, undefined, text);
    const section = parseSections(text).lighthouse ?? [];
    assert.deepEqual(section.slice(0, 5), [
      '## Lighthouse audit results',
      'Mode: navigation',
      'Device: desktop',
      `URL: ${url}`,
      '### Category scores',
    ]);
    for (const id of ['accessibility', 'best-practices', 'seo', 'agentic-browsing']) {
      assert.ok(
        section.some(line => new RegExp(`^- [A-Z][\\w ]+: \\d+ \\(${id}\\)$`).test(line)),
        `${id}: ${text}`,
      );
    }
    assert.match(text, /\n### Audit summary\nPassed: \d+\nFailed: \d+\nTotal timing: [\d.]+ms\n### Failed audits\n/);
    assert.match(
      text,
      /\n- html-has-lang \[accessibility\]: `<html>` element does not have a `\[lang\]` attribute \(score: 0\)\n {2}If a page .*\n {2}Nodes \(1\):\n {2}- selector="html" label="html" snippet="<html>"\n {4}Fix any of the following: The <html> element does not have a lang attribute\n/,
    );
    assert.match(
      text,
      /\n- image-alt \[accessibility, seo\]: Image elements do not have `\[alt\]` attributes \(score: 0\)\n.*\n {2}Nodes \(1\):\n {2}- selector="body > img" label="body > img" snippet="<img src=\\"\/img\.svg\\" width=\\"600\\" height=\\"300\\">"\n/,
    );
    const paths = reportPaths(text);
    assert.deepEqual(paths, [join(outputDirPath, 'report.json'), join(outputDirPath, 'report.html')]);
    const lhr = JSON.parse(await readFile(paths[0] ?? '', 'utf8')) as Lhr;
    assert.equal(lhr.configSettings.formFactor, 'desktop');
    assert.equal(lhr.configSettings.screenEmulation.width, 1350);
    assert.equal(lhr.audits['image-alt']?.score, 0);
    const html = await readFile(paths[1] ?? '', 'utf8');
    assert.ok(html.includes('<!doctype html>') && html.includes('__LIGHTHOUSE_JSON__'), 'not a Lighthouse HTML report');
    // The page was loaded again, at the desktop preset, over Lighthouse's own session.
    const load = beacons().slice(seen).at(-1);
    assert.equal(load?.searchParams.get('w'), '1350');
    // Lighthouse's desktop user agent, with the running Chrome's version put in.
    assert.match(load?.searchParams.get('ua') ?? '', /^Mozilla\/5\.0 \(Macintosh; .* Chrome\/\d+/);
    assert.match(section.at(-1) ?? '', /^Lighthouse reloaded the page to audit it \(now http:.*\): call take_snapshot/);
    assert.ok(progress.includes('Loading Lighthouse'), progress.join(' | '));
    assert.ok(progress.includes('Running Lighthouse (navigation, desktop)'), progress.join(' | '));
  });

  it('audits the page as it is (snapshot, mobile) without reloading it', async () => {
    const before = json((await mcp.call('evaluate_script', {pageId: 1, function: '() => window.loadedAt'})).text);
    const seen = beacons().length;
    const r = await mcp.call('lighthouse_audit', {pageId: 1, mode: 'snapshot', device: 'mobile'});
    assert.equal(r.isError, false, r.text);
    const section = parseSections(r.text).lighthouse ?? [];
    assert.deepEqual(section.slice(1, 4), ['Mode: snapshot', 'Device: mobile', `URL: ${url}`]);
    assert.match(r.text, /\n- html-has-lang \[accessibility\]: /);
    assert.match(r.text, /\n- image-alt \[accessibility, seo\]: /);
    assert.doesNotMatch(r.text, /reloaded the page/);
    const paths = reportPaths(r.text);
    assert.equal(paths.length, 2);
    for (const path of paths) {
      assert.match(path, new RegExp(`^${tmpdir()}/cdp-mcp-[^/]+/report\\.(json|html)$`));
    }
    const lhr = JSON.parse(await readFile(paths[0] ?? '', 'utf8')) as Lhr;
    assert.equal(lhr.configSettings.formFactor, 'mobile');
    assert.equal(lhr.configSettings.screenEmulation.mobile, true);
    const after = json((await mcp.call('evaluate_script', {pageId: 1, function: '() => window.loadedAt'})).text);
    assert.equal(after, before);
    assert.equal(beacons().length, seen);
  });

  it("restores the page's own emulation and keeps the page usable", async () => {
    const emulated = await mcp.call('emulate', {
      pageId: 1,
      viewport: '800x600x2',
      userAgent: 'cdp-mcp-test-agent',
      colorScheme: 'dark',
    });
    assert.equal(emulated.isError, false, emulated.text);
    const seen = beacons().length;
    const r = await mcp.call('lighthouse_audit', {pageId: 1, mode: 'navigation', device: 'mobile'});
    assert.equal(r.isError, false, r.text);
    // During the audit: the mobile preset (Lighthouse's own emulation).
    const load = beacons().slice(seen).at(-1);
    assert.equal(load?.searchParams.get('sw'), '412');
    assert.equal(load?.searchParams.get('dpr'), '1.75');
    assert.match(load?.searchParams.get('ua') ?? '', /\(Linux; Android .* Mobile Safari/);
    // Afterwards: ours again, and the response says so.
    assert.match(r.text, /(^|\n)Emulating viewport: \{"deviceScaleFactor":2,.*"width":800,"height":600\}\n/);
    const state = json(
      (
        await mcp.call('evaluate_script', {
          pageId: 1,
          function:
            '() => [innerWidth, devicePixelRatio, navigator.userAgent, matchMedia("(prefers-color-scheme: dark)").matches]',
        })
      ).text,
    );
    assert.deepEqual(state, [800, 2, 'cdp-mcp-test-agent', true]);
    await mcp.call('emulate', {pageId: 1});
    // Our own collectors saw the audited load (with Lighthouse's emulation).
    const requests = await mcp.call('list_network_requests', {pageId: 1});
    assert.match(requests.text, /\nreqid=\d+ GET http:\/\/127\.0\.0\.1:\d+\/img\.svg \[200\]\n/);
    assert.match(requests.text, /\nreqid=\d+ GET http:\/\/127\.0\.0\.1:\d+\/beacon\?w=\d+&sw=412&/);
    // Snapshot and input work as before.
    const snapshot = await mcp.call('take_snapshot', {pageId: 1});
    const uid = /uid=(\S+) button "Buy"/.exec(snapshot.text)?.[1];
    assert.ok(uid, snapshot.text);
    const click = await mcp.call('click', {pageId: 1, uid, includeSnapshot: true});
    assert.equal(click.isError, false, click.text);
    assert.match(click.text, /button "Bought"/);
    await mcp.call('navigate_page', {pageId: 1, type: 'reload'});
  });

  it('reports a page that fails to load, and refuses report folders outside the roots', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/broken')});
    const broken = await mcp.call('lighthouse_audit', {pageId: 1, mode: 'navigation'});
    assert.equal(broken.isError, false, broken.text);
    assert.match(broken.text, /\nRuntime error: ERRORED_DOCUMENT_REQUEST: .*\(Status code: 500\)/);
    assert.match(broken.text, /\n- Accessibility: n\/a \(accessibility\)\n/);
    await mcp.call('navigate_page', {pageId: 1, url});

    const outside = await mcp.call('lighthouse_audit', {pageId: 1, outputDirPath: '/proc/lighthouse'});
    assert.equal(outside.isError, true);
    assert.match(outside.text, /^Error: Access denied: path \/proc\/lighthouse .*not within any of the configured/);
    await assert.rejects(stat('/proc/lighthouse/report.json'));
    const bad = await mcp.call('lighthouse_audit', {pageId: 1, mode: 'timespan'});
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^Invalid arguments for tool "lighthouse_audit": "mode": /);
  });

  it('stops with a clear error when the page closes during the audit', async () => {
    // Closes itself once it loads at Lighthouse's desktop width: mid-audit, every time.
    const closing = fixtures.html(
      '/closing',
      '<title>Closing</title><h1>Bye</h1><script>if (innerWidth === 1350) setTimeout(() => window.close(), 100);</script>',
    );
    await mcp.call('evaluate_script', {
      pageId: 1,
      function: `() => { window.open(${JSON.stringify(closing)}); return 1; }`,
    });
    let id: number | undefined;
    for (const end = Date.now() + 30_000; id === undefined && Date.now() < end;) {
      id = Number(/^(\d+): Closing /m.exec((await mcp.call('list_pages')).text)?.[1]) || undefined;
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    assert.ok(id, 'the popup did not open');
    const r = await mcp.call('lighthouse_audit', {pageId: id});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /Error: The page closed during the Lighthouse audit; nothing was audited\.$/);
    const after = await mcp.call('lighthouse_audit', {pageId: 1, mode: 'snapshot'});
    assert.equal(after.isError, false, after.text);
  });

  it("leaves no session of Lighthouse's behind", async () => {
    const end = await heapReport(mcp);
    assert.equal(end.pending, 0);
    assert.equal(end.targets, baseline.targets);
    assert.ok(end.sessions <= baseline.sessions, `CDP sessions ${baseline.sessions} -> ${end.sessions}`);
    assert.ok(end.listeners <= baseline.listeners, `listeners ${baseline.listeners} -> ${end.listeners}`);
  });
});
