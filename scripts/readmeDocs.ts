/**
 * The generated parts of README.md and of the hand-written pages in docs/:
 * blocks between `<!-- NAME:start: generated from … -->` and `<!-- NAME:end -->`
 * markers, rendered from the code (the flag table) or from measured figures
 * (docs/benchmarks.md, docs/figures.json), never typed by hand. `npm run
 * gen-docs` writes them; a unit test (test/unit/config/readme.test.ts) fails
 * when a file no longer matches.
 */
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

import {flagTablesMarkdown} from '../src/config/flagDocs.js';

/** The repository root (this file is build/scripts/readmeDocs.js). */
const ROOT = new URL('../../', import.meta.url);

/** A file of the repository, as text. */
export function readRepoFile(file: string): string {
  return readFileSync(fileURLToPath(new URL(file, ROOT)), 'utf8');
}

/** One generated block: where it is, what it comes from, how it is rendered. */
interface Block {
  /** The file holding it, relative to the repository. */
  file: string;
  name: string;
  /** Named in the start marker. */
  source: string;
  render: () => string;
}

/** Figures measured by scripts (docs/figures.json): scripts/install-figures.mjs and scripts/setup-figures.mjs. */
export interface Figures {
  package?: {
    date: string;
    tarballBytes: number;
    installedBytes: number;
    files: number;
    lighthouseBytes: number;
    reference: {version: string; bytes: number; files: number};
  };
  setup?: {
    date: string;
    machine: string;
    startSeconds: number;
    startBytes: number;
    startPackages: number;
    testSeconds: number;
    testBytes: number;
    testPackages: number;
  };
}

export const FIGURES_FILE = 'docs/figures.json';

function figures(): Figures {
  return JSON.parse(readRepoFile(FIGURES_FILE)) as Figures;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A row of a docs/benchmarks.md table: [ours, theirs] as printed. */
function benchRow(markdown: string, scenario: string): [string, string] {
  const line = markdown.split('\n').find(l => l.startsWith(`| ${scenario} |`));
  const cells = line?.split('|').map(c => c.trim());
  if (!cells?.[2] || !cells[3]) {
    throw new Error(`docs/benchmarks.md has no row "${scenario}": update the headline in scripts/readmeDocs.ts.`);
  }
  return [cells[2], cells[3]];
}

function headline(): string {
  const bench = readRepoFile('docs/benchmarks.md');
  const date = /^Latest run: (\S+)/m.exec(bench)?.[1] ?? '?';
  const row = (label: string, scenario: string, unit = 'ms') => {
    const [ours, theirs] = benchRow(bench, scenario);
    return `| ${label} | ${ours} ${unit} | ${theirs} ${unit} |`;
  };
  return [
    `| median, same machine and run (${date}) | cdp-mcp | chrome-devtools-mcp 1.11 |`,
    '| --- | ---: | ---: |',
    row('`click`', 'click'),
    row('`evaluate_script`', 'evaluate_script (document.title)'),
    row('`take_snapshot`, 1000 buttons', 'take_snapshot, 1000 buttons (ms)'),
    row('start to `tools/list`', 'spawn → tools/list answered'),
    row('server peak memory', 'server peak RSS (VmHWM) after all warm scenarios', 'MB'),
  ].join('\n');
}

function setupFigures(): string {
  const setup = figures().setup;
  if (!setup) {
    return '';
  }
  return (
    `From a fresh clone with an empty npm cache (${setup.machine}, ${setup.date}), \`scripts/start.sh\` installs ` +
    `${setup.startPackages} packages (${mb(setup.startBytes)}: what the build needs) and answers its first ` +
    `\`tools/list\` after ${setup.startSeconds} s. The test command installs its own packages on its first run ` +
    `(\`test/deps\`: the test corpus, chrome-devtools-mcp as the reference, the linters): ` +
    `${setup.testPackages} packages, ${mb(setup.testBytes)}, ${setup.testSeconds} s. ` +
    `\`npm run setup-figures\` measures this.`
  );
}

function packageFigures(): string {
  const pkg = figures().package;
  if (!pkg) {
    return '';
  }
  return (
    `installed into an empty folder it is ${mb(pkg.installedBytes)} in ${pkg.files} files (a ` +
    `${mb(pkg.tarballBytes)} tarball; ${mb(pkg.lighthouseBytes)} of it is Lighthouse), against ` +
    `${mb(pkg.reference.bytes)} in ${pkg.reference.files} files for chrome-devtools-mcp ${pkg.reference.version}'s ` +
    `package (${pkg.date}, \`npm run install-figures\`; \`test/e2e/install.test.ts\` fails when the file count changes).`
  );
}

const BLOCKS: Block[] = [
  {file: 'docs/flags.md', name: 'flags', source: 'src/config/flagTable.ts', render: flagTablesMarkdown},
  {file: 'README.md', name: 'headline', source: 'docs/benchmarks.md', render: headline},
  {file: 'README.md', name: 'setup', source: FIGURES_FILE, render: setupFigures},
  {file: 'README.md', name: 'package', source: FIGURES_FILE, render: packageFigures},
  {file: 'docs/development.md', name: 'package', source: FIGURES_FILE, render: packageFigures},
];

/** The files that hold generated blocks. */
export const GENERATED_FILES = [...new Set(BLOCKS.map(b => b.file))];

export function startMarker(block: {name: string; source: string}): string {
  return `<!-- ${block.name}:start: generated from ${block.source} by \`npm run gen-docs\`; do not edit -->`;
}

export function endMarker(block: {name: string}): string {
  return `<!-- ${block.name}:end -->`;
}

/** `text` (the content of `file`) with every generated block rewritten. */
export function withGeneratedBlocks(file: string, text: string): string {
  let out = text;
  for (const block of BLOCKS.filter(b => b.file === file)) {
    const start = out.indexOf(startMarker(block));
    const end = out.indexOf(endMarker(block));
    if (start < 0 || end < start) {
      throw new Error(
        `${file} has lost its "${block.name}" markers: put ${startMarker(block)} and ${endMarker(block)} back.`,
      );
    }
    const body = block.render();
    out = `${out.slice(0, start + startMarker(block).length)}\n${body ? `${body}\n` : ''}${out.slice(end)}`;
  }
  return out;
}
