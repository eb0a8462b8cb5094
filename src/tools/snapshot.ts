import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

export const takeSnapshot = definePageTool({
  name: 'take_snapshot',
  description:
    'Take a text snapshot of the page from its accessibility tree: one line per element with a uid, role, name and state. Use the uids with click, fill, hover and the other input tools. Prefer it over take_screenshot.',
  annotations: {category: 'debugging', readOnlyHint: false},
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
  },
  async handler({params}, response) {
    response.includeSnapshot({verbose: params.verbose ?? false, filePath: params.filePath});
  },
});
