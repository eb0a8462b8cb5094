import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {after, before, describe, it} from 'node:test';

import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

import type {Figures} from '../../scripts/readmeDocs.js';
import {DEFAULT_CONFIG} from '../../src/config/options.js';
import {createTools} from '../../src/tools/registry.js';
import {FixtureServer} from '../support/fixtureServer.js';
import {resultOf} from '../support/httpClient.js';
import {TEST_FLAGS} from '../support/mcpClient.js';
import {filesContaining, packAndInstall, type PackedInstall, REPO_ROOT} from '../support/packedInstall.js';

/** The budget for the installed package, everything included. */
const MAX_INSTALLED_BYTES = 8 * 1024 * 1024;

describe('the packed package, installed into an empty folder', () => {
  let install: PackedInstall;
  let fixtures: FixtureServer;

  before(async () => {
    install = packAndInstall();
    fixtures = await new FixtureServer().start();
    fixtures.html(
      '/later',
      '<title>Later</title><p>soon</p><script>setTimeout(() => document.body.append("there"), 300)</script>',
    );
  });

  after(async () => {
    await fixtures?.stop();
    if (install) {
      rmSync(join(install.appDir, '..'), {recursive: true, force: true});
    }
  });

  it('brings no dependencies, no Puppeteer, and stays within 8 MB', () => {
    assert.deepEqual(install.installed, ['cdp-mcp']);
    assert.ok(install.installedBytes <= MAX_INSTALLED_BYTES, `${install.installedBytes} bytes installed`);
    assert.deepEqual(filesContaining(install.packageDir, 'puppeteer-core'), []);
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

  it('starts with npx-style `cdp-mcp` and serves the same tools, snapshots and waits', async () => {
    const transport = new StdioClientTransport({
      command: join(install.appDir, 'node_modules/.bin/cdp-mcp'),
      args: TEST_FLAGS,
      cwd: install.appDir,
      stderr: 'pipe',
    });
    const client = new Client({name: 'install-test', version: '1.0.0'});
    await client.connect(transport);
    try {
      const {tools} = await client.listTools();
      const expected = createTools(DEFAULT_CONFIG)
        .filter(t => !t.disabledReason)
        .map(t => t.tool.name);
      assert.deepEqual(
        tools.map(t => t.name),
        expected,
      );
      const call = async (name: string, args: Record<string, unknown>) =>
        resultOf(await client.callTool({name, arguments: args}, undefined, {timeout: 60_000}));
      assert.equal((await call('navigate_page', {pageId: 1, url: fixtures.url('/later')})).isError, false);
      // Functions sent into the page as source survive minification.
      const waited = await call('wait_for', {pageId: 1, text: ['there']});
      assert.match(waited.text, /uid=1_0 RootWebArea "Later"/);
      const evaluated = await call('evaluate_script', {pageId: 1, function: '() => document.title'});
      assert.match(evaluated.text, /"Later"/);
    } finally {
      await client.close();
    }
  });

  it('works as a library: typed imports, HTTP on a free port', () => {
    writeFileSync(
      join(install.appDir, 'use.ts'),
      `import {createServer, startServer, type RunningServer, type ServerOptions} from 'cdp-mcp';
const options: ServerOptions = {headless: true, isolated: true, onLog: (level, message) => void [level, message]};
const server: RunningServer = await startServer({...options, transport: 'http'});
const response = await fetch(server.url ?? '', {method: 'POST'});
console.log(JSON.stringify({status: response.status, hasToken: (server.token ?? '').length > 0, create: typeof createServer}));
await server.close();
`,
    );
    writeFileSync(
      join(install.appDir, 'tsconfig.json'),
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
      cwd: install.appDir,
      stdio: 'pipe',
    });
    const output = execFileSync(process.execPath, ['out/use.js'], {cwd: install.appDir, encoding: 'utf8'});
    assert.deepEqual(JSON.parse(output), {status: 401, hasToken: true, create: 'function'});
  });
});
