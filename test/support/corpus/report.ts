/** The corpus tables: what each page is built from (docs/corpus.md) and the figures of a run (corpus-report). */
import type {TaskRun} from './runner.js';
import type {CorpusPage} from './types.js';

/**
 * Flags both servers get for the corpus (besides the oracle's window size):
 * reduced motion, so that apps skip their open/close animations (a snapshot
 * taken mid-animation would compare two different moments).
 */
export const CORPUS_ARGS = ['--chromeArg=--force-prefers-reduced-motion'];

/** Lines of an oracle diff that differ (not context or headers). */
export const changedLines = (diff: string[]) => diff.filter(line => /^[-+] /.test(line)).length;

/** A normalised snapshot without its uid placeholders, for differences of content only. */
export const withoutUids = (text: string) => text.replace(/uid=#\d+ /g, '');

export interface PageFigures {
  page: CorpusPage;
  /** Lines of chrome-devtools-mcp's non-verbose snapshot after load. */
  lines: number;
  /** Differing lines, non-verbose and verbose, summed over load and every step (as the oracle test counts them). */
  diffs: [number, number];
  /** The same with uids left out: differences of roles, names, values and which nodes are shown. */
  contentDiffs: [number, number];
  task: string;
  /** take_snapshot times in ms. */
  ours: number[];
  theirs: number[];
  details: string[];
  /** The task done again on each server alone. */
  tasks?: {ours: TaskRun; theirs: TaskRun};
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The table docs/corpus.md keeps: page, packages with versions, licences, constructs. */
export function corpusDocTable(pages: CorpusPage[]): string {
  const rows = pages.map(
    p =>
      `| ${p.id} | ${cell(p.title)} | ${p.packages.map(k => `${k.name}@${k.version}`).join(', ')} | ${[
        ...new Set(p.packages.map(k => k.license)),
      ].join(', ')} | ${cell(p.constructs.join('; '))} | ${cell(p.task.description)} |`,
  );
  return [
    '| page | app | package@version | licence | constructs | task |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

export function corpusTable(results: PageFigures[], median: (xs: number[]) => number): string {
  const rows = results.map(r => {
    const ours = median(r.ours);
    const theirs = median(r.theirs);
    return `| ${r.page.id} | ${r.page.packages.map(k => `${k.name}@${k.version}`).join(', ')} | ${r.lines} | ${r.contentDiffs[0]} / ${r.diffs[0]} | ${r.contentDiffs[1]} / ${r.diffs[1]} | ${cell(r.task)} | ${ours.toFixed(0)} | ${theirs.toFixed(0)} | ${theirs ? (ours / theirs).toFixed(2) : '-'} |`;
  });
  return [
    '| page | package@version | lines | diffs (content / with uids) | verbose diffs (content / with uids) | task (ours) | ours ms | theirs ms | ratio |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

const taskCell = (run: TaskRun | undefined) =>
  !run ? 'not run' : `${run.pass ? 'pass' : 'FAIL'} ${(run.ms / 1000).toFixed(1)} s`;

/**
 * The agent's task on each server alone: pass or fail and wall time (from
 * navigation to the state read back, snapshots included), and why a run failed.
 */
export function taskTable(results: PageFigures[]): string {
  const rows = results.map(r => {
    const why = (['ours', 'theirs'] as const)
      .filter(side => r.tasks && !r.tasks[side].pass)
      .map(side => `${side}: ${(r.tasks?.[side].detail ?? '').split('\n')[0]?.slice(0, 160)}`)
      .join('; ');
    return `| ${r.page.id} | ${taskCell(r.tasks?.ours)} | ${taskCell(r.tasks?.theirs)} | ${cell(why)} |`;
  });
  return [
    '| page | task, ours | task, chrome-devtools-mcp | why a run failed |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** docs/corpus.md: what the corpus is, its pages, and the figures of the last `corpus-report -- --docs` run. */
export function corpusDoc(pages: CorpusPage[], figures: string): string {
  return `# The real-app corpus

Pages built from unmodified npm packages of real web apps and component
libraries, pinned exactly in test/deps/package.json (the test command's
packages) and served from its node_modules by the fixture server (\`test/support/fixtureServer.ts\`). Each
page's definition (package, HTML, interactions, task) is one file in
\`test/support/corpus/\`. Two tests use them:

- \`test/e2e/corpus.test.ts\`: our \`take_snapshot\` equals chrome-devtools-mcp
  1.11's, non-verbose and verbose, after load and after every interaction
  (both servers at \`--viewport=1280x720\`); and the interactions are an
  agent's task on every app through our tools only, checked by reading the
  app's own state back.
- \`test/e2e/corpusDefaultWindow.test.ts\`: the same after load and after
  the first interaction, both servers started without \`--viewport\` (each
  in its default window), so a default window that drifts from the
  reference's fails.

Known snapshot differences are listed in [corpus-diffs.md](corpus-diffs.md).
\`npm run corpus-report\` prints the figures below (\`-- --docs\` rewrites this
file; \`-- --page id[,id]\` runs some pages and prints their differing lines).

## Pages

${corpusDocTable(pages)}

## Last report

Lines: chrome-devtools-mcp's non-verbose snapshot after load. Diffs: differing
lines (ours or theirs only), summed over load and every step; "content" leaves
the uids out (roles, names, values, which nodes are shown), "with uids" is what
the oracle test compares (uids must also stay stable as the reference's do). Times: median
\`take_snapshot\` (non-verbose) per page, in ms, both servers in the same run.
The second table is the agent's task done again on each server alone (one
after the other): pass or fail, and the wall time from navigation to the state
read back. A step the reference gets wrong for a product reason (a drag onto a
list that reorders under the pointer, issue 21) fails its task there; the
snapshot oracle replaces that step on the reference's side by one that
reaches the same state (\`referenceInstead\` in the page's definition).

${figures}
`;
}
