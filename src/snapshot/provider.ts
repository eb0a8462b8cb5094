import type {SnapshotProvider} from '../server/pipeline.js';
import {takeSnapshot} from './PageSnapshot.js';

/**
 * Renders the snapshot section of a response: `## Latest page snapshot` and
 * the tree, or a pointer to the file it was saved to. While a dialog blocks
 * the page nothing can be read from it, so the section is left out (the
 * response shows the dialog instead).
 */
export const snapshotProvider: SnapshotProvider = async (page, request, context) => {
  if (page.dialog) {
    return [];
  }
  const text = await takeSnapshot(page, request.verbose);
  if (request.filePath) {
    const saved = await context.files.save(text, request.filePath, '.txt');
    return [`Saved snapshot to ${saved}.`];
  }
  return ['## Latest page snapshot', text];
};
