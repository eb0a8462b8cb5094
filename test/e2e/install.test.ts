import assert from 'node:assert/strict';
import {execFile, execFileSync} from 'node:child_process';
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {delimiter, dirname, join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

import type {Figures} from '../../scripts/readmeDocs.js';
import {type DaemonState, readState} from '../../src/config/daemonState.js';
import {DEFAULT_CONFIG} from '../../src/config/options.js';
import {createTools} from '../../src/tools/registry.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {connectSession, resultOf} from '../support/httpClient.js';
import {type CallResult, TEST_FLAGS} from '../support/mcpClient.js';
import {majorBrand} from '../support/mp4.js';
import {filesContaining, packAndInstall, type PackedInstall, REPO_ROOT} from '../support/packedInstall.js';

/** The budget for the installed package, everything included. */
const MAX_INSTALLED_BYTES = 8 * 1024 * 1024;
/** One call, bounded well above what a busy machine needs (Lighthouse and traces are the slow ones). */
const CALL_TIMEOUT_MS = 180_000;

/**
 * The page of the pass: a stylesheet (get_css_styles), readable text
 * (get_page_text), a console line and a request (console and network), a
 * button that allocates objects of one class (heap snapshots).
 */
const APP_PAGE = `<!doctype html><html lang="en"><title>Packed</title>
<link rel="stylesheet" href="/app.css">
<main>
  <h1 class="headline">Packed app</h1>
  <article><p>This page is read from the installed package. It carries a few sentences of plain text,
  enough for the reader to take it as the content of the page.</p></article>
  <button onclick="grow()">Grow</button>
</main>
<script>
class PackedItem { constructor(i) { this.label = 'packed-' + (i % 4); } }
window.kept = [];
function grow() {
  for (let i = 0; i < 40; i++) kept.push(new PackedItem(i));
  document.querySelector('button').textContent = 'Grown ' + kept.length;
}
grow();
console.log('packed console line');
fetch('/data.json').then(response => response.json());
</script>`;

/** The server's flags in the pass: the heap analysis tools on, and a URL pattern (its polyfill loads at start). */
/**
 * --viewport: the screencast and the screenshot are taken at the viewport's
 * size, and the headless default (1905x2053) made each frame a 4-megapixel
 * picture to encode.
 */
const PASS_FLAGS = [
  ...TEST_FLAGS,
  '--memoryDebugging',
  '--blockedUrlPattern=*://blocked.invalid/*',
  '--viewport',
  '800x600',
];

/** Spawned processes find the Node.js that runs this test first on PATH (the bin's `#!/usr/bin/env node`). */
const ENV = {
  ...(process.env as Record<string, string>),
  PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`,
};

/**
 * The package as a user gets it: packed, installed from the tarball into an
 * empty folder (offline: it has no dependencies), run through its own bin.
 * Every tool category is called once, each lazily loaded part included (the
 * DevTools trace, CSS and heap bundles, the heap host process and its
 * threads, Lighthouse, get_page_text's in-page libraries, the URL pattern
 * polyfill), then the CLI with its HTTP server and the library. A bundle that
 * cannot load, or a path that resolves only inside the repository, fails here.
 */
// The parts below are independent (each its own server and state): they run at once, the stdio
// pass in order within itself.
describe('the packed package, installed into an empty folder', {concurrency: true}, () => {
  let install: PackedInstall;
  let fixtures: FixtureServer;
  let workspace: string;

  before(async () => {
    const started = Date.now();
    install = packAndInstall();
    process.stderr.write(
      `# packed install: ${install.fresh ? 'packed and installed' : 'reused (same content)'} in ${Date.now() - started} ms\n`,
    );
    workspace = mkdtempSync(join(tmpdir(), 'cdp-mcp-packed-test-'));
    fixtures = await new FixtureServer().start();
    fixtures.html('/app', APP_PAGE);
    fixtures.route('/app.css', {
      body: '.headline { color: rgb(1, 2, 3); }',
      headers: {'content-type': 'text/css'},
    });
    fixtures.route('/data.json', {body: '{"ok":true}', headers: {'content-type': 'application/json'}});
  });

  after(async () => {
    await fixtures?.stop();
    if (workspace) {
      rmSync(workspace, {recursive: true, force: true});
    }
  });

  it('brings no dependencies, no Puppeteer, and stays within 8 MB', () => {
    assert.deepEqual(install.installed, ['cdp-mcp']);
    assert.ok(install.installedBytes <= MAX_INSTALLED_BYTES, `${install.installedBytes} bytes installed`);
    // The manifest's devDependencies and overrides name Puppeteer (the stub that keeps it out of the
    // repository's own install); npm reads neither in an installed package.
    const manifest = join(install.packageDir, 'package.json');
    assert.deepEqual(
      filesContaining(install.packageDir, 'puppeteer-core').filter(file => file !== manifest),
      [],
    );
    const fields = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
      assert.equal(fields[field], undefined, `package.json has no ${field}`);
    }
    assert.ok(existsSync(join(install.packageDir, 'dist/types/index.d.ts')));
    assert.ok(existsSync(join(install.packageDir, 'dist/THIRD_PARTY_NOTICES')));
    process.stderr.write(
      `# packed install: tarball ${install.tarballBytes} bytes, installed ${install.installedBytes} bytes in ${install.files} files\n`,
    );
  });

  it('installs as many files as the README says (docs/figures.json)', () => {
    const figures = JSON.parse(readFileSync(join(REPO_ROOT, 'docs/figures.json'), 'utf8')) as Figures;
    assert.equal(
      install.files,
      figures.package?.files,
      'the package installs another number of files than docs/figures.json says: run `npm run install-figures` and `npm run gen-docs`',
    );
  });

  it("starts from every client configuration of the README (the package's own entry)", async () => {
    const configs = readmeClientCommands(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    assert.ok(configs.length >= 3, `found ${configs.length} client configurations`);
    await Promise.all(
      configs.map(async ({command, args}) => {
        const resolved = args.map(arg => arg.replace('/path/to/cdp-mcp', install.packageDir));
        const client = new Client({name: 'readme-config', version: '1.0.0'});
        await client.connect(new StdioClientTransport({command, args: resolved, cwd: workspace, env: ENV}));
        try {
          const {tools} = await client.listTools();
          assert.ok(tools.length > 20, `${command} ${resolved.join(' ')}: ${tools.length} tools`);
        } finally {
          await client.close();
        }
      }),
    );
  });

  describe('every tool category through the installed bin (stdio)', {concurrency: 1}, () => {
    let client: Client;
    let stderr = '';
    const timings: string[] = [];
    const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallResult> => {
      const started = Date.now();
      const result = resultOf(await client.callTool({name, arguments: args}, undefined, {timeout: CALL_TIMEOUT_MS}));
      timings.push(`${name} ${Date.now() - started} ms`);
      assert.equal(result.isError, false, `${name}: ${result.text}\nserver stderr:\n${stderr}`);
      return result;
    };
    const uidOf = (snapshot: string, line: RegExp): string => {
      const uid = new RegExp(`uid=(\\S+) ${line.source}`).exec(snapshot)?.[1];
      assert.ok(uid, `${line} in\n${snapshot}`);
      return uid;
    };

    before(async () => {
      const transport = new StdioClientTransport({
        command: join(install.appDir, 'node_modules/.bin/cdp-mcp'),
        args: PASS_FLAGS,
        cwd: workspace,
        env: ENV,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      client = new Client({name: 'install-test', version: '1.0.0'});
      await client.connect(transport);
    });

    after(async () => {
      await client?.close();
      process.stderr.write(`# installed bin, call times: ${timings.join(', ')}\n`);
    });

    it('lists the same tools as the build', async () => {
      const {tools} = await client.listTools();
      const expected = createTools({...DEFAULT_CONFIG, memoryDebugging: true})
        .filter(t => !t.disabledReason)
        .map(t => t.tool.name);
      assert.deepEqual(
        tools.map(t => t.name),
        expected,
      );
    });

    it('navigates, waits, evaluates, records a screencast while it clicks, emulates and takes a screenshot', async () => {
      await call('navigate_page', {pageId: 1, url: fixtures.url('/app')});
      // Functions sent into the page as source survive minification.
      const waited = await call('wait_for', {pageId: 1, text: ['Grown 40']});
      assert.match(waited.text, /uid=1_0 RootWebArea "Packed"/);
      assert.match((await call('evaluate_script', {pageId: 1, function: '() => kept.length'})).text, /\b40\b/);
      const video = join(workspace, 'clip.mp4');
      await call('screencast_start', {pageId: 1, filePath: video});
      const clicked = await call('click', {
        pageId: 1,
        uid: uidOf(waited.text, /button "Grown 40"/),
        includeSnapshot: true,
      });
      assert.match(clicked.text, /button "Grown 80"/);
      await call('emulate', {pageId: 1, colorScheme: 'dark'});
      const shot = await call('take_screenshot', {pageId: 1});
      assert.equal(shot.images[0]?.mimeType, 'image/png');
      const stopped = await call('screencast_stop', {pageId: 1});
      assert.ok(
        stopped.text.includes(`The screencast recording has been stopped and saved to ${video}.`),
        stopped.text,
      );
      assert.equal(majorBrand(readFileSync(video)), 'isom');
      // Every setting omitted: the emulation is reset (later answers carry no emulation line).
      await call('emulate', {pageId: 1});
    });

    it('lists console messages and network requests', async () => {
      assert.match((await call('list_console_messages', {pageId: 1})).text, /packed console line/);
      assert.match(
        (await call('list_network_requests', {pageId: 1})).text,
        / GET http:\/\/127\.0\.0\.1:\d+\/data\.json \[200\]/,
      );
    });

    it('reads CSS styles (DevTools CSS bundle) and the page text (in-page libraries)', async () => {
      const snapshot = await call('take_snapshot', {pageId: 1});
      const styles = await call('get_css_styles', {pageId: 1, uid: uidOf(snapshot.text, /heading "Packed app"/)});
      assert.match(styles.text, /\.headline/);
      assert.match(styles.text, /color: rgb\(1, 2, 3\)/);
      const text = await call('get_page_text', {pageId: 1});
      assert.match(text.text, /# Packed app/);
      assert.match(text.text, /It carries a few sentences of plain text/);
    });

    it('records a performance trace and explains an insight (DevTools trace engine)', async () => {
      const trace = await call('performance_start_trace', {pageId: 1, reload: true, autoStop: true});
      assert.match(trace.text, /## Summary of Performance trace findings:\nURL: http:\/\/127\.0\.0\.1:\d+\/app\n/);
      const insight = /## insight set id: (\S+)\n[^]*?\n {2}- insight name: (\w+)\n/.exec(trace.text);
      assert.ok(insight, trace.text);
      const explained = await call('performance_analyze_insight', {
        pageId: 1,
        insightSetId: insight[1],
        insightName: insight[2],
      });
      assert.match(explained.text, /^## Insight Title: /m);
    });

    it('audits the page with Lighthouse (its bundle)', async () => {
      const audit = await call('lighthouse_audit', {pageId: 1, mode: 'snapshot'});
      assert.match(audit.text, /\nMode: snapshot\n/);
      assert.match(audit.text, /accessibility/i);
    });

    it('takes heap snapshots and answers every analysis tool (heap host process and threads)', async () => {
      const after = join(workspace, 'after.heapsnapshot');
      await call('take_heapsnapshot', {pageId: 1, filePath: after});
      // A compare needs two files; what it finds is not the point here (test/e2e/memory.test.ts has a real leak).
      const before = join(workspace, 'before.heapsnapshot');
      copyFileSync(after, before);

      const summary = await call('get_heapsnapshot_summary', {filePath: after});
      assert.match(summary.text, /## Heap Snapshot Data\nStatistics: \{\n {2}"total": \d+,/);
      const details = await call('get_heapsnapshot_details', {filePath: after});
      const classId = Number(/\n(\d+),PackedItem,\d+,/.exec(details.text)?.[1]);
      assert.ok(classId >= 0, details.text);
      const nodes = await call('get_heapsnapshot_class_nodes', {filePath: after, id: classId, pageSize: 1});
      const nodeId = Number(/\n(\d+),PackedItem,object,/.exec(nodes.text)?.[1]);
      assert.ok(nodeId > 0, nodes.text);
      const query = await call('query_heapsnapshot_objects', {className: '^PackedItem$', nodeType: 'object'});
      assert.match(query.text, /Showing 1-\d+ of \d+ /);
      assert.match(
        (await call('get_heapsnapshot_retainers', {filePath: after, nodeId})).text,
        /\d+,element,\d+,Array,/,
      );
      assert.match((await call('get_heapsnapshot_edges', {filePath: after, nodeId})).text, /\nlabel,property,/);
      assert.match(
        (await call('get_heapsnapshot_retaining_paths', {filePath: after, nodeId})).text,
        /via property kept/,
      );
      assert.match(
        (await call('get_heapsnapshot_dominators', {filePath: after, nodeId})).text,
        new RegExp(`\n${nodeId},PackedItem,`),
      );
      assert.match(
        (await call('get_heapsnapshot_object_details', {filePath: after, nodeId})).text,
        new RegExp(`### Object Details\nid: @${nodeId}\nname: PackedItem\n`),
      );
      assert.match((await call('get_heapsnapshot_duplicate_strings', {filePath: after})).text, /"packed-\d"/);
      assert.match((await call('analyze_heapsnapshot_contexts', {filePath: after})).text, /### Context Analysis\n/);
      const diff = await call('compare_heapsnapshots', {baseFilePath: before, currentFilePath: after});
      assert.match(diff.text, /### Heap Snapshot Diff\nTotal: # new: 0, # deleted: 0, # delta: 0/);
      assert.equal((await call('close_heapsnapshot', {filePath: before})).text, `Closed heap snapshot: ${before}`);
      assert.equal((await call('close_heapsnapshot', {filePath: after})).text, `Closed heap snapshot: ${after}`);
    });
  });

  it('runs the CLI: start, a tool command, its HTTP endpoint, stop', async () => {
    const stateDir = join(workspace, 'state');
    const bin = join(install.appDir, 'node_modules/.bin/cdp-mcp');
    const cli = (...args: string[]) => run(bin, args, {...ENV, CDP_MCP_STATE_DIR: stateDir});
    let state: DaemonState | undefined;
    try {
      const started = await cli('start', ...TEST_FLAGS);
      assert.equal(started.code, 0, started.stderr);
      state = readState(stateDir);
      assert.ok(state, 'no state file');
      const navigated = await cli('navigate_page', '--url', fixtures.url('/app'));
      assert.equal(navigated.code, 0, navigated.stderr);
      assert.match(navigated.stdout, /Successfully navigated to http:\/\/127\.0\.0\.1:\d+\/app\./);
      // The server behind the CLI speaks MCP over Streamable HTTP.
      const session = await connectSession(state.url, state.token);
      try {
        const pages = resultOf(await session.client.callTool({name: 'list_pages', arguments: {}}));
        assert.equal(pages.isError, false, pages.text);
      } finally {
        await session.close();
      }
      const stopped = await cli('stop');
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.equal(readState(stateDir), undefined);
    } finally {
      if (state && readState(stateDir)) {
        try {
          process.kill(state.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
  });

  it('works as a library: typed imports, HTTP on a free port', () => {
    // Its own folder: the install may be shared with other runs.
    const app = mkdtempSync(join(workspace, 'library-'));
    symlinkSync(join(install.appDir, 'node_modules'), join(app, 'node_modules'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({name: 'library-app', private: true, type: 'module'}));
    writeFileSync(
      join(app, 'use.ts'),
      `import {createServer, startServer, type RunningServer, type ServerOptions} from 'cdp-mcp';
const options: ServerOptions = {headless: true, isolated: true, onLog: (level, message) => void [level, message]};
const server: RunningServer = await startServer({...options, transport: 'http'});
const response = await fetch(server.url ?? '', {method: 'POST'});
console.log(JSON.stringify({status: response.status, hasToken: (server.token ?? '').length > 0, create: typeof createServer}));
await server.close();
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: false,
          outDir: 'out',
          types: [],
          lib: ['es2023', 'dom'],
        },
        files: ['use.ts'],
      }),
    );
    // Type-checks against the shipped declarations only (no @types, no SDK in this folder).
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/tsgo/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: app,
      stdio: 'pipe',
    });
    const output = execFileSync(process.execPath, ['out/use.js'], {cwd: app, encoding: 'utf8', env: ENV});
    assert.deepEqual(JSON.parse(output), {status: 401, hasToken: true, create: 'function'});
  });
});

/** The stdio commands of the README's client configurations (JSON blocks and `claude mcp add`). */
function readmeClientCommands(readme: string): Array<{command: string; args: string[]}> {
  const found: Array<{command: string; args: string[]}> = [];
  const visit = (value: unknown): void => {
    if (value && typeof value === 'object') {
      const entry = value as {command?: unknown; args?: unknown};
      if (typeof entry.command === 'string' && Array.isArray(entry.args)) {
        found.push({command: entry.command, args: entry.args.map(String)});
      }
      Object.values(value).forEach(visit);
    }
  };
  for (const [, block] of readme.matchAll(/```json\n([^]*?)```/g)) {
    if (block?.includes('"command"')) {
      visit(JSON.parse(block));
    }
  }
  for (const [, line] of readme.matchAll(/^claude mcp add \S+ -- (.+)$/gm)) {
    const [command = '', ...args] = (line ?? '').split(/\s+/);
    found.push({command, args});
  }
  return found;
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise(resolve => {
    execFile(command, args, {env, timeout: CALL_TIMEOUT_MS, killSignal: 'SIGKILL'}, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({code, stdout, stderr});
    });
  });
}
