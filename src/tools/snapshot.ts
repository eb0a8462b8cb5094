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
    uid: v.optional(
      v.pipe(
        v.string(),
        v.description("Only this element's subtree, after one line naming its ancestors. uids stay the page's."),
      ),
    ),
    depth: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description(
          'Only this many levels below the root (the page, or uid); "[+N below]" ends a line whose N descendants are left out.',
        ),
      ),
    ),
    interactive: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'Only elements an agent can act on (buttons, links, fields, options, ...), each under the landmark, dialog or heading it sits in; starts with the open modal dialog, menu or listbox, if any. Default is false.',
        ),
      ),
    ),
    openLayer: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'Start with one line naming the open modal dialog, menu or listbox (with its uid), or saying none is open. Default is false.',
        ),
      ),
    ),
  },
  async handler({params}, response) {
    const {uid, depth, interactive, openLayer} = params;
    const aimed = uid !== undefined || depth !== undefined || interactive || openLayer;
    response.includeSnapshot({
      verbose: params.verbose ?? false,
      filePath: params.filePath,
      sinceLast: params.sinceLast ?? false,
      maxChars: params.maxChars,
      ...(aimed ? {view: {uid, depth, interactive, openLayer}} : {}),
    });
  },
});

export const findElements = definePageTool({
  name: 'find_elements',
  pageContent: ['lines'],
  title: 'Find elements',
  description:
    'Find elements of the page by text: snapshot lines whose role, name or value contain the query, with their uids (the same as take_snapshot gives, ready for click, fill and the other input tools) and their ancestors. Far cheaper than a whole snapshot on a big page.',
  annotations: {category: 'debugging', readOnlyHint: true},
  beyondReference: true,
  blockedByDialog: true,
  schema: {
    query: v.pipe(
      v.string(),
      v.description("Text to look for, case-insensitive, in each element's role, accessible name and value."),
    ),
    role: v.optional(v.pipe(v.string(), v.description('Only elements of this role, e.g. "button" or "textbox".'))),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(1000),
        v.description('Show at most this many matches (the answer says how many more matched). Default is 20.'),
      ),
    ),
  },
  async handler({params, page}, response) {
    const lines = await page.findElements({query: params.query, role: params.role, limit: params.limit ?? 20});
    response.line(...lines);
  },
});
