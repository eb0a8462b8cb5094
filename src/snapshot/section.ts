import type {Page} from '../browser/core/Page.js';
import type {SnapshotRequest, SnapshotViewRequest} from '../response/ResponseBuilder.js';
import {capText, SNAPSHOT_OUTPUT_HINT} from '../response/truncate.js';
import type {PathSandbox} from '../util/sandbox.js';
import {diffSnapshotLines, type Line, parseSnapshotText} from './diff.js';
import {linesText, type PrintedLine} from './format.js';
import {openLayerLine} from './layers.js';
import {capturePageSnapshot, snapshotState} from './PageSnapshot.js';
import {snapshotView} from './views.js';

const FULL_HEADING = '## Latest page snapshot';
const CHANGES_HEADING = '## Changes since the previous snapshot';
const LEGEND = 'Lines: "+" added, "~" changed or moved, the others are their ancestors (unchanged).\n';

interface LatestSnapshot {
  text: string;
  verbose: boolean;
  /** Its printed lines (what views of it are made from). */
  lines?: readonly PrintedLine[];
}

declare module '../browser/core/Page.js' {
  interface PageSlots {
    /** The latest snapshot of the page (whatever asked for it), what sinceLast compares with. */
    latestSnapshotText?: LatestSnapshot;
  }
}

/**
 * The heading and body of a sinceLast snapshot: the changes from `before`'s
 * lines to `now` (printed as `text`), or the full text when there is nothing
 * to compare with.
 */
function changes(
  before: {lines: readonly Line[]; verbose: boolean} | undefined,
  now: readonly Line[],
  text: string,
  verbose: boolean,
): {heading: string; body: string} {
  if (!before || before.verbose !== verbose) {
    const why = before ? `the previous one was${verbose ? ' not' : ''} verbose` : 'there is no previous snapshot';
    return {heading: FULL_HEADING, body: `Full snapshot: ${why} of this page to compare with.\n${text}`};
  }
  const diff = diffSnapshotLines(before.lines, now);
  const body = diff.added + diff.changed ? LEGEND + diff.text : diff.text;
  if (body.length >= text.length) {
    return {heading: FULL_HEADING, body: `Full snapshot: the changes would be longer than the snapshot.\n${text}`};
  }
  return {heading: CHANGES_HEADING, body};
}

/** The whole tree, or with sinceLast what changed in it. */
function wholeTree(before: LatestSnapshot | undefined, text: string, request: SnapshotRequest) {
  if (!request.sinceLast) {
    return {heading: FULL_HEADING, body: text};
  }
  const previous = before && {lines: parseSnapshotText(before.text), verbose: before.verbose};
  return changes(previous, parseSnapshotText(text), text, request.verbose);
}

/** One view of the tree (views.ts), with its context lines, or with sinceLast what changed in that view. */
function viewedTree(
  before: LatestSnapshot | undefined,
  lines: readonly PrintedLine[],
  request: SnapshotRequest,
  options: SnapshotViewRequest,
) {
  const view = snapshotView(lines, options);
  const text = linesText(view.lines);
  const previous = before?.lines && {lines: snapshotView(before.lines, options, true).lines, verbose: before.verbose};
  const {heading, body} = request.sinceLast
    ? changes(previous, view.lines, text, request.verbose)
    : {heading: FULL_HEADING, body: text};
  const layer =
    options.openLayer || (options.interactive && options.uid === undefined)
      ? openLayerLine(lines, options.openLayer ?? false)
      : undefined;
  const head = [...(layer ? [layer] : []), ...view.head].map(line => `${line}\n`).join('');
  return {heading, body: head + body + view.tail.map(line => `${line}\n`).join('')};
}

/**
 * The snapshot part of a response: `## Latest page snapshot` and the tree
 * (or one view of it, or with sinceLast only what changed since the page's
 * previous snapshot), or a pointer to the file it was saved to. While a
 * dialog blocks the page nothing can be read from it, so the part is left
 * out (the response shows the dialog instead). `signal` stops the snapshot
 * (engine.ts).
 */
export async function snapshotSection(
  page: Page,
  request: SnapshotRequest,
  files: Pick<PathSandbox, 'save'>,
  signal?: AbortSignal,
): Promise<string[]> {
  if (page.dialog) {
    return [];
  }
  const text = request.text ?? (await capturePageSnapshot(page, request.verbose, undefined, signal));
  const lines = snapshotState(page).lines;
  const before = page.slots.latestSnapshotText;
  page.slots.latestSnapshotText = {text, verbose: request.verbose, lines};
  const {heading, body} = request.view
    ? viewedTree(before, lines, request, request.view)
    : wholeTree(before, text, request);
  if (request.filePath) {
    return [`Saved snapshot to ${await files.save(body, request.filePath, '.txt')}.`];
  }
  return [heading, request.maxChars ? capText(body, request.maxChars, SNAPSHOT_OUTPUT_HINT) : body];
}
