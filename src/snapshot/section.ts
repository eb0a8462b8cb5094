import type {Page} from '../browser/core/Page.js';
import type {SnapshotRequest} from '../response/ResponseBuilder.js';
import {capText, SNAPSHOT_OUTPUT_HINT} from '../response/truncate.js';
import type {PathSandbox} from '../util/sandbox.js';
import {diffSnapshotTexts} from './diff.js';
import {capturePageSnapshot} from './PageSnapshot.js';

const FULL_HEADING = '## Latest page snapshot';
const CHANGES_HEADING = '## Changes since the previous snapshot';
const LEGEND = 'Lines: "+" added, "~" changed or moved, the others are their ancestors (unchanged).\n';

declare module '../browser/core/Page.js' {
  interface PageSlots {
    /** The latest snapshot text of the page (whatever asked for it), what sinceLast compares with. */
    latestSnapshotText?: {text: string; verbose: boolean};
  }
}

/** The heading and body of a sinceLast snapshot: the changes, or the full text when there is nothing to compare. */
function changes(
  before: {text: string; verbose: boolean} | undefined,
  text: string,
  verbose: boolean,
): {heading: string; body: string} {
  if (!before || before.verbose !== verbose) {
    const why = before ? `the previous one was${verbose ? ' not' : ''} verbose` : 'there is no previous snapshot';
    return {heading: FULL_HEADING, body: `Full snapshot: ${why} of this page to compare with.\n${text}`};
  }
  const diff = diffSnapshotTexts(before.text, text);
  const body = diff.added + diff.changed ? LEGEND + diff.text : diff.text;
  if (body.length >= text.length) {
    return {heading: FULL_HEADING, body: `Full snapshot: the changes would be longer than the snapshot.\n${text}`};
  }
  return {heading: CHANGES_HEADING, body};
}

/**
 * The snapshot part of a response: `## Latest page snapshot` and the tree
 * (or, with sinceLast, only what changed since the page's previous snapshot),
 * or a pointer to the file it was saved to. While a dialog blocks the page
 * nothing can be read from it, so the part is left out (the response shows
 * the dialog instead).
 */
export async function snapshotSection(
  page: Page,
  request: SnapshotRequest,
  files: Pick<PathSandbox, 'save'>,
): Promise<string[]> {
  if (page.dialog) {
    return [];
  }
  const text = request.text ?? (await capturePageSnapshot(page, request.verbose));
  const before = page.slots.latestSnapshotText;
  page.slots.latestSnapshotText = {text, verbose: request.verbose};
  const {heading, body} = request.sinceLast
    ? changes(before, text, request.verbose)
    : {heading: FULL_HEADING, body: text};
  if (request.filePath) {
    return [`Saved snapshot to ${await files.save(body, request.filePath, '.txt')}.`];
  }
  return [heading, request.maxChars ? capText(body, request.maxChars, SNAPSHOT_OUTPUT_HINT) : body];
}
