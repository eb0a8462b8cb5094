import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

export const takeSnapshot = definePageTool({
  name: 'take_snapshot',
  title: 'Take accessibility snapshot',
  description:
    'Take a text snapshot of the page from its accessibility tree: one line per element with a uid, role, name and state. Use the uids with click, fill, hover and the other input tools. Prefer it over take_screenshot.',
  annotations: {
    category: 'debugging',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  blockedByDialog: true,
  filePaths: ['filePath'],
  schema: {
    verbose: v.optional(
      v.pipe(
        v.boolean(),
        v.description('Include every node of the accessibility tree, not just the useful ones. Default is false.'),
      ),
    ),
    filePath: v.optional(
      v.pipe(v.string(), v.description('Save the snapshot to this file (.txt) instead of returning it.')),
    ),
    sinceLast: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "Only what changed since this page's previous snapshot: added and changed nodes with their ancestors, removed uids, a count of the rest. uids stay valid. Default is false.",
        ),
      ),
    ),
    maxChars: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(200),
        v.description(
          'Cut the snapshot after this many characters (at a line boundary, saying how much was left out).',
        ),
      ),
    ),
  },
  async handler({params}, response) {
    response.includeSnapshot({
      verbose: params.verbose ?? false,
      filePath: params.filePath,
      sinceLast: params.sinceLast ?? false,
      maxChars: params.maxChars,
    });
  },
});
