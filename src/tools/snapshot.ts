import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

export const takeSnapshot = definePageTool({
  name: 'take_snapshot',
  title: 'Take accessibility snapshot',
  description:
    'Text snapshot of the accessibility tree: a line per element with uid, role, name, state. The uids are what the input tools take.',
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
    verbose: v.optional(v.pipe(v.boolean(), v.description('Every node, not just useful ones.'))),
    filePath: v.optional(v.pipe(v.string(), v.description('Save to this file.'))),
    sinceLast: v.optional(v.pipe(v.boolean(), v.description('Only changes since the previous snapshot.'))),
    maxChars: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(200), v.description('Cut after this many characters.')),
    ),
    uid: v.optional(v.pipe(v.string(), v.description("Only this element's subtree."))),
    depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Levels below the root (or uid).'))),
    interactive: v.optional(
      v.pipe(v.boolean(), v.description('Only actionable elements, under their landmark or heading.')),
    ),
    openLayer: v.optional(v.pipe(v.boolean(), v.description('Start with the open modal, menu or listbox.'))),
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
    'Find elements whose role, name or value contains the query: snapshot lines with uids and ancestors. Far cheaper than take_snapshot on a big page.',
  annotations: {category: 'debugging', readOnlyHint: true},
  beyondReference: true,
  blockedByDialog: true,
  schema: {
    query: v.pipe(v.string(), v.description('Text to find, case-insensitive.')),
    role: v.optional(v.pipe(v.string(), v.description('Only elements of this role, e.g. "button" or "textbox".'))),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description('Max matches. Default 20.')),
    ),
  },
  async handler({params, page}, response) {
    const lines = await page.findElements({query: params.query, role: params.role, limit: params.limit ?? 20});
    response.line(...lines);
  },
});
