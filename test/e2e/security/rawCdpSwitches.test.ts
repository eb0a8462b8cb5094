/**
 * Threat: an agent (or a token holder) uses raw CDP to do what the
 * operator's switches forbid or the file sandbox keeps out of reach: navigate
 * to `file:` URLs under `--no-file-navigations`, run its own JavaScript under
 * `--no-javascript-evaluation`, hand a page files outside the allowed roots,
 * send downloads elsewhere, drive a category that is off. Each switch and
 * the sandbox apply to raw commands that do the same thing as the tools they
 * govern; the refusal says which switch or root and what to use instead.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {FixtureServer} from '../../support/fixtureServer.js';
import {type CallResult, startServer, type TestServer} from '../../support/mcpClient.js';

function raw(
  mcp: TestServer,
  method: string,
  params: Record<string, unknown> = {},
  target: 'page' | 'browser' = 'page',
): Promise<CallResult> {
  return mcp.call('send_cdp_command', {pageId: 1, method, params: JSON.stringify(params), target});
}

async function result<T>(mcp: TestServer, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const r = await raw(mcp, method, params);
  assert.equal(r.isError, false, `${method}: ${r.text}`);
  return JSON.parse(/```json\n([\s\S]*)\n```/.exec(r.text)?.[1] ?? 'null') as T;
}

interface DomNode {
  nodeId: number;
  nodeType: number;
  nodeValue: string;
  children?: DomNode[];
}

/** The id of the text node holding `value` (from a DOM.getDocument with depth -1). */
function textNode(node: DomNode, value: string): number {
  if (node.nodeType === 3 && node.nodeValue === value) {
    return node.nodeId;
  }
  for (const child of node.children ?? []) {
    const found = textNode(child, value);
    if (found) {
      return found;
    }
  }
  return 0;
}

const FORM = `<!doctype html><title>Form</title>
<input type="file" id="f"><button onclick="document.title = 'clicked'">Go</button>
<div id="code">document.title = "pwned"</div><script id="empty"></script>`;

describe('security: raw CDP obeys --no-file-navigations, --no-javascript-evaluation and the file sandbox', () => {
  let fixtures: FixtureServer;
  let mcp: TestServer;
  let root: string;
  let inside: string;

  before(async () => {
    fixtures = await new FixtureServer().start();
    fixtures.html('/form', FORM);
    root = mkdtempSync(join(tmpdir(), 'security-raw-'));
    inside = join(root, 'upload.txt');
    writeFileSync(inside, 'inside the roots');
    mcp = await startServer({
      args: [
        '--experimentalRawCdp',
        '--no-file-navigations',
        '--no-javascript-evaluation',
        '--categoryInput=false',
        '--filesystemRoot',
        root,
      ],
    });
    const navigated = await mcp.call('navigate_page', {pageId: 1, url: fixtures.url('/form')});
    assert.equal(navigated.isError, false, navigated.text);
  });

  /** The node id of the file input (DOM.getDocument renumbers nodes: asked again each time). */
  async function fileInput(): Promise<number> {
    const {root: document} = await result<{root: {nodeId: number}}>(mcp, 'DOM.getDocument');
    const {nodeId} = await result<{nodeId: number}>(mcp, 'DOM.querySelector', {
      nodeId: document.nodeId,
      selector: '#f',
    });
    return nodeId;
  }

  after(async () => {
    await mcp?.close();
    await fixtures?.stop();
    rmSync(root, {recursive: true, force: true});
  });

  async function refused(method: string, params: Record<string, unknown>, why: RegExp, target?: 'browser') {
    const r = await raw(mcp, method, params, target);
    assert.equal(r.isError, true, `${method} ${JSON.stringify(params).slice(0, 120)} went through: ${r.text}`);
    assert.match(r.text, new RegExp(`^Error: send_cdp_command refuses ${method.replace('.', '\\.')}: `), r.text);
    assert.match(r.text, why, r.text);
  }

  it('refuses file: navigations, also of new targets and inside view-source:', async () => {
    await refused('Page.navigate', {url: 'file:///etc/passwd'}, /--file-navigations/);
    await refused('Page.navigate', {url: 'view-source:file:///etc/passwd'}, /--file-navigations/);
    await refused('Target.createTarget', {url: 'file:///etc/passwd'}, /--file-navigations/, 'browser');
    await refused('Network.loadNetworkResource', {url: 'file:///etc/passwd', options: {}}, /file/);
    assert.match((await mcp.call('list_pages')).text, /^1: Form \(http:\/\/127\.0\.0\.1:\d+\/form\)/m);
  });

  it('refuses every way to run caller-given JavaScript', async () => {
    const js = /--no-javascript-evaluation|JavaScript evaluation is disabled/;
    const {root: document} = await result<{root: DomNode}>(mcp, 'DOM.getDocument', {depth: -1});
    const nodeOf = async (selector: string) =>
      (await result<{nodeId: number}>(mcp, 'DOM.querySelector', {nodeId: document.nodeId, selector})).nodeId;
    const code = await nodeOf('#code');
    const empty = await nodeOf('#empty');
    const text = textNode(document, 'document.title = "pwned"');
    assert.ok(code && empty && text, 'the fixture nodes were not found');
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['Runtime.evaluate', {expression: 'document.title = "pwned"'}],
      ['Runtime.callFunctionOn', {functionDeclaration: '() => 1', executionContextId: 1}],
      ['Runtime.compileScript', {expression: '1', sourceURL: 'x', persistScript: true}],
      ['Page.addScriptToEvaluateOnNewDocument', {source: 'document.title = "pwned"'}],
      ['Page.addScriptToEvaluateOnLoad', {scriptSource: 'document.title = "pwned"'}],
      ['Page.reload', {scriptToEvaluateOnLoad: 'document.title = "pwned"'}],
      ['Page.setDocumentContent', {frameId: 'x', html: '<script>document.title = "pwned"</script>'}],
      ['Page.navigate', {url: 'javascript:document.title = "pwned"'}],
      ['Page.navigate', {url: 'data:text/html,<script>document.title = "pwned"</script>'}],
      ['DOM.setOuterHTML', {nodeId: document.nodeId, outerHTML: '<img src=x onerror="document.title=1">'}],
      ['DOM.setAttributeValue', {nodeId: document.nodeId, name: 'onclick', value: 'document.title = "pwned"'}],
      ['DOM.setAttributesAsText', {nodeId: document.nodeId, text: 'onclick="document.title = 1"'}],
      // A div whose text is script, renamed to script, runs it; so does text moved into an empty script.
      ['DOM.setNodeName', {nodeId: code, name: 'script'}],
      ['DOM.setNodeValue', {nodeId: code, value: 'document.title = "pwned"'}],
      ['DOM.moveTo', {nodeId: text, targetNodeId: empty}],
      ['DOM.copyTo', {nodeId: text, targetNodeId: empty}],
      ['Debugger.evaluateOnCallFrame', {callFrameId: 'x', expression: '1'}],
      ['Debugger.setBreakpointByUrl', {lineNumber: 0, url: 'x', condition: 'document.title = "pwned"'}],
    ];
    for (const [method, params] of attempts) {
      await refused(method, params, js);
    }
    await refused('Target.createTarget', {url: 'javascript:1'}, js, 'browser');
    await refused('Page.addCompilationCache', {url: fixtures.url('/a.js'), data: ''}, /compiled code/);
    const pages = await mcp.call('list_pages');
    assert.ok(!pages.text.includes('pwned'), `a refused script ran: ${pages.text}`);
  });

  it('refuses files outside the allowed roots, as upload_file does, and takes those inside', async () => {
    const nodeId = await fileInput();
    await refused('DOM.setFileInputFiles', {files: ['/etc/passwd'], nodeId}, /allowed|roots/i);
    await refused(
      'Input.dispatchDragEvent',
      {type: 'dragEnter', x: 1, y: 1, data: {items: [], files: ['/etc/passwd'], dragOperationsMask: 1}},
      /--categoryInput|allowed|roots/i,
    );
    await refused('Page.setDownloadBehavior', {behavior: 'allow', downloadPath: '/'}, /--downloadsDir/);
    await refused('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: '/'}, /--downloadsDir/, 'browser');
    const ok = await raw(mcp, 'DOM.setFileInputFiles', {files: [inside], nodeId});
    assert.equal(ok.isError, false, ok.text);
  });

  it('refuses what categories and flags that are off would do', async () => {
    await refused('Input.dispatchMouseEvent', {type: 'mousePressed', x: 1, y: 1}, /--categoryInput/);
    await refused('Input.insertText', {text: 'x'}, /--categoryInput/);
    await refused('Extensions.loadUnpacked', {path: root}, /--categoryExtensions/, 'browser');
    await refused('PWA.launchFilesInApp', {manifestId: 'x', files: ['/etc/passwd']}, /--categoryPwa/, 'browser');
    await refused('Security.setIgnoreCertificateErrors', {ignore: true}, /--acceptInsecureCerts/);
  });

  it('keeps what the switches allow working', async () => {
    const tree = await raw(mcp, 'Accessibility.getFullAXTree', {depth: 2});
    assert.equal(tree.isError, false, tree.text);
    const navigated = await raw(mcp, 'Page.navigate', {url: fixtures.url('/form')});
    assert.equal(navigated.isError, false, navigated.text);
    const metrics = await raw(mcp, 'Page.getLayoutMetrics');
    assert.equal(metrics.isError, false, metrics.text);
  });
});

describe('security: raw CDP and the file sandbox with default switches', () => {
  let mcp: TestServer;

  before(async () => {
    mcp = await startServer({args: ['--experimentalRawCdp']});
  });

  after(async () => {
    await mcp?.close();
  });

  it('still refuses files outside the roots and other folders for downloads', async () => {
    await mcp.call('navigate_page', {pageId: 1, url: `data:text/html,${encodeURIComponent(FORM)}`});
    const {root} = await result<{root: {nodeId: number}}>(mcp, 'DOM.getDocument');
    const {nodeId} = await result<{nodeId: number}>(mcp, 'DOM.querySelector', {nodeId: root.nodeId, selector: '#f'});
    const r = await raw(mcp, 'DOM.setFileInputFiles', {files: ['/etc/passwd'], nodeId});
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^Error: send_cdp_command refuses DOM\.setFileInputFiles: /);
    const evaluated = await raw(mcp, 'Runtime.evaluate', {expression: '6 * 7', returnByValue: true});
    assert.match(evaluated.text, /"value": 42/);
  });

  it('hands Chrome a private copy of a file inside the roots (a swap after the check reaches nothing)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'security-raw-copy-'));
    try {
      const original = join(dir, 'upload.txt');
      writeFileSync(original, 'checked content');
      await mcp.call('navigate_page', {pageId: 1, url: `data:text/html,${encodeURIComponent(FORM)}`});
      const {root} = await result<{root: {nodeId: number}}>(mcp, 'DOM.getDocument');
      const {nodeId} = await result<{nodeId: number}>(mcp, 'DOM.querySelector', {nodeId: root.nodeId, selector: '#f'});
      await result(mcp, 'DOM.setFileInputFiles', {files: [original], nodeId});
      const file = await result<{result: {objectId: string}}>(mcp, 'Runtime.evaluate', {
        expression: 'document.querySelector("#f").files[0]',
      });
      const {path} = await result<{path: string}>(mcp, 'DOM.getFileInfo', {objectId: file.result.objectId});
      assert.notEqual(
        path,
        original,
        'Chrome was handed the checked path itself, which can be swapped before it reads',
      );
      assert.match(path, /upload\.txt$/);
      assert.equal(readFileSync(path, 'utf8'), 'checked content');
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
