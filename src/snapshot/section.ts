import type {Page} from '../browser/Page.js';
import type {SnapshotRequest} from '../response/ResponseBuilder.js';
import type {PathSandbox} from '../util/sandbox.js';
import {takeSnapshot} from './PageSnapshot.js';

/**
 * The snapshot part of a response: `## Latest page snapshot` and the tree,
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
  const text = await takeSnapshot(page, request.verbose);
  if (request.filePath) {
    return [`Saved snapshot to ${await files.save(text, request.filePath, '.txt')}.`];
  }
  return ['## Latest page snapshot', text];
}
