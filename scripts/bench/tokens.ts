/**
 * Token benchmark (issue 22): the corpus's scripted agent tasks, counting the
 * characters of every response the agent reads and its calls, three times:
 * on chrome-devtools-mcp 1.11 ("theirs"), on our server with default
 * parameters ("ours"), and on our server with the agent-economy parameters a
 * sensible agent would use ("economy"). The harness's own calls (waiting for
 * the app, reading its state back for the check) are not counted.
 *
 *   npm run bench:tokens                       # every corpus page
 *   npm run bench:tokens -- --page quill,bootstrap
 *   npm run bench:tokens -- --docs             # also rewrite the table in docs/benchmarks.md
 *
 * The agent: per step, one look at the page, then the step's tool on the uid
 * the look names. Default look: `take_snapshot` (a verbose one where the step
 * needs it), as the corpus tasks do. Economy look, for a step that acts on an
 * element: `find_elements` with the role and name the agent is after (taken
 * from the step's target), then, if that did not name it, `take_snapshot`
 * with `interactive`, then the whole snapshot (where the step needs a verbose
 * snapshot, the verbose interactive one, then the whole verbose one); for a step without an element
 * (typing, keys), no look: every action of this agent, and its navigation,
 * asks for its effect line (`effect: true`), which says what changed, where
 * the focus went, instead of the success line (and navigate_page's page list).
 */
import {readFileSync, writeFileSync} from 'node:fs';
import {cpus, loadavg} from 'node:os';

import {CORPUS, type CorpusPage} from '../../test/support/corpus/index.js';
import {CORPUS_ARGS} from '../../test/support/corpus/report.js';
import {checkTask, findUid, openCorpusPage, runStep, serveCorpus} from '../../test/support/corpus/runner.js';
import type {CorpusStep} from '../../test/support/corpus/types.js';
import {FixtureServer} from '../../test/support/fixtureServer.js';
import type {CallResult, TestServer} from '../../test/support/mcpClient.js';
import {startOraclePair} from '../../test/support/oracle.js';
import {TOKENS_HEADING} from './report.js';

const argv = process.argv.slice(2);
const only = argv.includes('--page') ? argv[argv.indexOf('--page') + 1] : undefined;
const docs = argv.includes('--docs');

type Mode = 'theirs' | 'ours' | 'economy';

/** What the agent read on one server for one task. */
interface Count {
  chars: number;
  calls: number;
  pass: boolean;
  detail?: string;
}

/**
 * A server whose answers are counted while `counting` is on: the agent's
 * calls. The harness turns it off for its waits and checks.
 */
class Counted implements TestServer {
  chars = 0;
  calls = 0;
  counting = true;

  constructor(readonly inner: TestServer) {}

  get client() {
    return this.inner.client;
  }
  get transport() {
    return this.inner.transport;
  }
  get pid() {
    return this.inner.pid;
  }
  stderr(): string {
    return this.inner.stderr();
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    // evaluate_script is the harness here (waits, checks); the corpus steps that call it are counted below.
    const harness = !this.counting || (name === 'evaluate_script' && !this.stepScript);
    const asked = this.effect && INPUT_TOOLS.has(name) ? {...args, effect: true} : args;
    const result = await this.inner.call(name, asked);
    if (!harness) {
      this.chars += result.text.length;
      this.calls++;
      if (process.env['TOKENS_DEBUG']) {
        process.stderr.write(
          `  ${name} ${JSON.stringify(args)}: ${result.text.length}\n${result.text.slice(0, 400)}\n`,
        );
      }
    }
    return result;
  }

  /** True while a step's own evaluate_script runs. */
  stepScript = false;
  /** Input tools and navigate_page get `effect: true` (the economy agent). */
  effect = false;
}

/** The tools that take `effect`: the input tools, and navigate_page (its page list left out). */
const INPUT_TOOLS = new Set([
  'click',
  'hover',
  'fill',
  'fill_form',
  'drag',
  'press_key',
  'type_text',
  'upload_file',
  'navigate_page',
]);

/** The role and text an agent would look for, from a step's target pattern (undefined: no text to ask for). */
function queryOf(target: RegExp): {query: string; role?: string} | undefined {
  const alternatives = target.source.split('|');
  const clean = (text: string) => text.replace(/\.\*|\\|[\^$?*+()]/g, '').trim();
  for (const alternative of alternatives) {
    const name = clean(/"([^"]*)"?/.exec(alternative)?.[1] ?? '');
    if (name) {
      const role = alternatives.length === 1 ? /^([a-z]+) "/.exec(alternative)?.[1] : undefined;
      return {query: name, ...(role ? {role} : {})};
    }
  }
  const word = /^([a-z]+)\$?$/.exec(target.source)?.[1];
  if (word) {
    return {query: word, role: word};
  }
  return /^[\w ,.-]+$/.test(target.source) ? {query: target.source} : undefined;
}

/** The lines that name an element (headers and notes left out: a header may quote the query). */
const uidLines = (text: string) =>
  text
    .split('\n')
    .filter(l => /^[ +~]*uid=/.test(l))
    .join('\n');

/** Whether the text names an element the target pattern matches. */
const names = (text: string, target: RegExp) =>
  uidLines(text)
    .split('\n')
    .some(l => target.test(l));

/** The economy agent's look for one element: find_elements, else the interactive snapshot, else the whole one. */
async function economyFind(server: Counted, target: RegExp, what: string, verbose = false): Promise<string> {
  const asked = verbose ? undefined : queryOf(target);
  if (asked) {
    const found = await server.call('find_elements', {pageId: 1, ...asked, limit: 5});
    if (!found.isError && names(found.text, target)) {
      return uidLines(found.text);
    }
  }
  const interactive = await server.call('take_snapshot', {pageId: 1, interactive: true, ...(verbose ? {verbose} : {})});
  if (names(interactive.text, target)) {
    return uidLines(interactive.text);
  }
  const whole = await server.call('take_snapshot', {pageId: 1, ...(verbose ? {verbose} : {})});
  findUid(whole.text, target, what);
  return whole.text;
}

/** The text the agent finds the step's elements in (one look, or two for a drag's two ends). */
async function look(server: Counted, mode: Mode, step: CorpusStep): Promise<string> {
  if (mode !== 'economy') {
    return (await server.call('take_snapshot', {pageId: 1})).text;
  }
  if ('verbose' in step && step.verbose) {
    // Only a verbose snapshot shows the target (an option of a listbox): its interactive part.
    return economyFind(server, step.target, step.label, true);
  }
  if (step.tool === 'drag') {
    return `${await economyFind(server, step.target, step.label)}\n${await economyFind(server, step.to, step.label)}`;
  }
  if ('target' in step) {
    return economyFind(server, step.target, step.label);
  }
  // Typing and keys act on the focus: the effect line of the last action said where it is.
  return '';
}

/** One task on one server, as the agent of `mode` does it. */
async function runTask(server: Counted, fixtures: FixtureServer, page: CorpusPage, mode: Mode): Promise<Count> {
  server.chars = 0;
  server.calls = 0;
  try {
    server.counting = true;
    server.effect = mode === 'economy';
    await openCorpusPage(server, fixtures, page);
    for (const step of page.steps) {
      const text = await look(server, mode, step);
      server.stepScript = step.tool === 'evaluate_script';
      // The economy agent found a verbose step's target in its own look (runStep would take a whole verbose snapshot).
      await runStep(server, text, mode === 'economy' && step.tool === 'click' ? {...step, verbose: false} : step);
      server.stepScript = false;
    }
    server.counting = false;
    const value = await checkTask(server, page);
    const pass = JSON.stringify(value) === JSON.stringify(page.task.expect);
    return {chars: server.chars, calls: server.calls, pass, ...(pass ? {} : {detail: JSON.stringify(value)})};
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return {chars: server.chars, calls: server.calls, pass: false, ...(detail ? {detail} : {})};
  } finally {
    server.counting = true;
    server.stepScript = false;
    server.effect = false;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) {
    return 0;
  }
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

type Row = {page: CorpusPage} & Record<Mode, Count>;

function table(rows: Row[]): string {
  const cell = (c: Count) => `${c.chars.toLocaleString('en-US')} / ${c.calls}${c.pass ? '' : ' FAIL'}`;
  const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : '-');
  const lines = [
    '| task | chrome-devtools-mcp chars / calls | ours, defaults | ours, economy | economy / theirs chars | economy / theirs calls |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      r =>
        `| ${r.page.id} | ${cell(r.theirs)} | ${cell(r.ours)} | ${cell(r.economy)} | ${ratio(r.economy.chars, r.theirs.chars)} | ${ratio(r.economy.calls, r.theirs.calls)} |`,
    ),
  ];
  const both = rows.filter(r => r.theirs.pass && r.economy.pass);
  const passes = (m: Mode) => rows.filter(r => r[m].pass).length;
  lines.push(
    '',
    `Passed: chrome-devtools-mcp ${passes('theirs')}/${rows.length}, ours with defaults ${passes('ours')}/${rows.length}, ours with economy parameters ${passes('economy')}/${rows.length}.`,
    `Median ratio over the ${both.length} tasks both passed: characters ${median(both.map(r => r.economy.chars / r.theirs.chars)).toFixed(2)}x, calls ${median(both.map(r => r.economy.calls / r.theirs.calls)).toFixed(2)}x (defaults: characters ${median(rows.filter(r => r.theirs.pass && r.ours.pass).map(r => r.ours.chars / r.theirs.chars)).toFixed(2)}x).`,
  );
  return lines.join('\n');
}

const START = '<!-- tokens:start -->';
const END = '<!-- tokens:end -->';

async function main(): Promise<void> {
  const pages = CORPUS.filter(p => !only || only.split(',').includes(p.id));
  const fixtures = await new FixtureServer().start();
  await serveCorpus(fixtures, CORPUS);
  const pair = await startOraclePair({args: CORPUS_ARGS});
  const servers = {theirs: new Counted(pair.theirs), ours: new Counted(pair.ours)};
  const rows: Row[] = [];
  try {
    for (const page of pages) {
      // One after the other, so the servers do not compete for the cores.
      const theirs = await runTask(servers.theirs, fixtures, page, 'theirs');
      const ours = await runTask(servers.ours, fixtures, page, 'ours');
      const economy = await runTask(servers.ours, fixtures, page, 'economy');
      rows.push({page, theirs, ours, economy});
      const fails = (['theirs', 'ours', 'economy'] as const).filter(m => !rows.at(-1)?.[m].pass);
      process.stderr.write(
        `${page.id}: theirs ${theirs.chars}/${theirs.calls}, ours ${ours.chars}/${ours.calls}, economy ${economy.chars}/${economy.calls}${fails.length ? ` (failed: ${fails.map(m => `${m}: ${rows.at(-1)?.[m].detail ?? ''}`).join('; ')})` : ''}\n`,
      );
    }
  } finally {
    await pair.close();
    await fixtures.stop();
  }
  const text = table(rows);
  console.log(text);
  if (docs) {
    writeDocs(
      `${text}\n\nRun ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores, load average ${loadavg()
        .map(l => l.toFixed(1))
        .join(' ')} at the end.`,
    );
  }
}

/** Writes the table into docs/benchmarks.md's section (made at the end the first time). */
function writeDocs(text: string): void {
  const path = 'docs/benchmarks.md';
  let doc = readFileSync(path, 'utf8');
  if (!doc.includes(`\n${TOKENS_HEADING}`)) {
    doc = `${doc.trimEnd()}\n\n${TOKENS_HEADING}\n\n${INTRO}\n\n${START}\n${END}\n`;
  }
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  writeFileSync(path, `${doc.slice(0, start + START.length)}\n${text}\n${doc.slice(end)}`);
}

const INTRO = `Every scripted agent task of the corpus ([corpus.md](corpus.md)), run on chrome-devtools-mcp 1.11, on
ours with default parameters, and on ours with the agent-economy parameters: per step, \`find_elements\` with
the role and name the step is after (then \`take_snapshot interactive\`, then the whole snapshot, if that did
not name it) instead of a whole snapshot, no look before typing or keys, and \`effect: true\` on every action
and on \`navigate_page\` (one line each instead of the success line and the page list).
Characters of every response the agent reads, and its calls; waiting for the app and reading its state back
for the check are the harness's and not counted. Written by \`npm run bench:tokens -- --docs\`
(scripts/bench/tokens.ts).`;

await main();
