/**
 * Side-by-side output check: runs the same calls against our server and
 * chrome-devtools-mcp (installed on demand into /tmp/cdp-mcp-bench/cdm, as the
 * bench does, or --cdm <path to its bin>) on the same fixture pages, normalises ports and
 * uid numbers, and prints every call whose text differs.
 *
 *   npm run build && node build/scripts/parity.js [--cdm path/to/chrome-devtools-mcp.js]
 */
import {existsSync} from 'node:fs';

import {FixtureServer} from '../test/support/fixtureServer.js';
import {CHROME_PATH, startServer, type TestServer} from '../test/support/mcpClient.js';
import {ensureTheirs} from './bench/session.js';

const cdmArg = process.argv.indexOf('--cdm');
const CDM_BIN = cdmArg > 0 ? (process.argv[cdmArg + 1] ?? '') : ensureTheirs('/tmp/cdp-mcp-bench/cdm');

type Step = [tool: string, args: Record<string, unknown> | ((uids: Map<string, string>) => Record<string, unknown>)];

function normalise(text: string, port: number): string {
  return text
    .replaceAll(String(port), 'PORT')
    .replace(/uid=\d+_\d+/g, 'uid=N')
    .replace(/"\d+_\d+"/g, '"N"')
    .replace(/\/tmp\/[^\s)]+/g, '/tmp/FILE');
}

async function run(server: TestServer, steps: Step[], port: number): Promise<string[]> {
  const out: string[] = [];
  const uids = new Map<string, string>();
  const {tools} = await server.client.listTools();
  const takesPageId = new Set(tools.filter(t => 'pageId' in (t.inputSchema.properties ?? {})).map(t => t.name));
  for (const [tool, args] of steps) {
    const resolved = typeof args === 'function' ? args(uids) : args;
    const r = await server.call(tool, {
      ...(takesPageId.has(tool) && tool !== 'select_page' && tool !== 'close_page' ? {pageId: 1} : {}),
      ...resolved,
    });
    for (const m of r.text.matchAll(/uid=(\d+_\d+) (\w+) "([^"]*)"/g)) {
      uids.set(`${m[2]} ${m[3]}`, m[1] ?? '');
    }
    out.push(
      `${r.isError ? '[isError] ' : ''}${normalise(r.text, port)}${r.images.length ? `\n[${r.images.length} image(s)]` : ''}`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  if (!existsSync(CDM_BIN)) {
    console.error(`chrome-devtools-mcp not found at ${CDM_BIN}: pass --cdm with the path of its bin script.`);
    process.exit(2);
  }
  const fixtures = await new FixtureServer().start();
  fixtures.html('/simple', '<title>Simple</title><h1>Hello</h1><p>Simple page</p><a href="/form">form</a>');
  fixtures.html(
    '/form',
    `<title>Form</title><main><label>Name <input id="n"></label><button onclick="this.textContent='Clicked'">Count</button>
     <select aria-label="Pick"><option>One</option><option>Two</option></select><input type="checkbox" aria-label="Agree">
     <textarea aria-label="Notes"></textarea><nav><a href="/simple">back</a></nav></main>
     <script>console.log("hello", 1, {a: 1}); console.warn("careful"); fetch("/simple")</script>`,
  );
  const steps: Step[] = [
    ['list_pages', {}],
    ['navigate_page', {url: fixtures.url('/simple')}],
    ['take_snapshot', {}],
    ['evaluate_script', {function: '() => ({title: document.title, n: [1, 2]})'}],
    ['evaluate_script', {function: '() => { throw new Error("boom") }'}],
    ['navigate_page', {url: fixtures.url('/form')}],
    ['take_snapshot', {}],
    ['click', uids => ({uid: uids.get('button Count')})],
    ['fill', uids => ({uid: uids.get('textbox Name'), value: 'Ada'})],
    ['fill', uids => ({uid: uids.get('combobox Pick'), value: 'Two'})],
    ['fill', uids => ({uid: uids.get('checkbox Agree'), value: 'true'})],
    ['press_key', {key: 'Tab'}],
    ['hover', uids => ({uid: uids.get('link back')})],
    ['take_snapshot', {}],
    ['list_console_messages', {}],
    ['get_console_message', {msgid: 1}],
    ['list_network_requests', {}],
    ['navigate_page', {type: 'back'}],
    ['navigate_page', {type: 'reload'}],
    ['wait_for', {text: ['Hello']}],
    ['new_page', {url: fixtures.url('/simple')}],
    ['list_pages', {}],
    ['take_screenshot', {}],
    ['emulate', {networkConditions: 'Slow 3G', colorScheme: 'dark'}],
    ['emulate', {}],
    ['navigate_page', {url: 'http://127.0.0.1:9/'}],
    ['handle_dialog', {action: 'accept'}],
    ['navigate_page', {url: fixtures.url('/form')}],
    ['take_snapshot', {}],
    ['type_text', {text: 'hello', submitKey: 'Tab'}],
    [
      'fill_form',
      uids => ({
        elements: [
          {uid: uids.get('textbox Name'), value: 'Grace'},
          {uid: uids.get('textbox Notes'), value: 'n'},
        ],
      }),
    ],
    ['get_network_request', {reqid: 1}],
    ['evaluate_script', {function: '() => { setTimeout(() => alert("later"), 10); return 1; }'}],
    ['take_snapshot', {}],
    ['handle_dialog', {action: 'dismiss'}],
    ['press_key', {key: 'Control+Shift+X'}],
    ['press_key', {key: 'Nope'}],
    ['resize_page', {width: 800, height: 600}],
    ['take_screenshot', {fullPage: true, format: 'jpeg', quality: 50}],
    ['wait_for', {text: ['never there'], timeout: 200}],
    ['click', {uid: '999_1'}],
    ['list_network_requests', {pageSize: 1, pageIdx: 5}],
    ['list_console_messages', {types: ['error']}],
  ];
  const common = [
    '--executablePath',
    CHROME_PATH,
    '--headless',
    '--isolated',
    '--chromeArg=--no-sandbox',
    '--chromeArg=--disable-gpu',
  ];
  // Whole outputs, as the reference gives them (ours caps them by default).
  const ours = await startServer({replaceFlags: true, args: [...common, '--maxOutputChars', '0']});
  const theirs = await startServer({
    replaceFlags: true,
    args: [...common, '--no-usage-statistics', '--no-performance-crux'],
    env: {CI: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'},
    bin: CDM_BIN,
  });
  const [a, b] = [await run(ours, steps, fixtures.port), await run(theirs, steps, fixtures.port)];
  await Promise.all([ours.close(), theirs.close()]);
  await fixtures.stop();
  let same = 0;
  steps.forEach(([tool], i) => {
    if (a[i] === b[i]) {
      same++;
      return;
    }
    console.log(`\n=== ${i}: ${tool} differs\n--- ours\n${a[i]}\n--- chrome-devtools-mcp\n${b[i]}`);
  });
  console.log(`\n${same}/${steps.length} calls gave identical text (ports and uid numbers normalised).`);
}

await main();
