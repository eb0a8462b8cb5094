import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

const SOURCES = {
  article: 'the main content, as Readability picks it',
  main: 'the main landmark',
  page: 'the whole page',
  element: 'one element',
} as const;

export const getPageText = definePageTool({
  name: 'get_page_text',
  title: 'Get page text',
  description:
    "The page's main content as markdown or text (frames included; navigation, header, footer, asides left out). Cheaper than a snapshot for reading.",
  annotations: {category: 'navigation', readOnlyHint: true},
  beyondReference: true,
  sections: ['pageText'],
  blockedByDialog: true,
  filePaths: ['filePath'],
  outputHint: 'Call get_page_text with filePath to save the whole text, or with the uid of the part you need.',
  schema: {
    format: v.optional(
      v.pipe(v.picklist(['markdown', 'text']), v.description('markdown (default) or text (no markup, no link URLs).')),
    ),
    uid: v.optional(v.pipe(v.string(), v.description("Only this element's content."))),
    filePath: v.optional(v.pipe(v.string(), v.description('Save to this file (.md/.txt).'))),
  },
  async handler({params, page}, response, {files}) {
    const format = params.format ?? 'markdown';
    const text = await page.text(format, params.uid);
    const source = params.uid ? `${SOURCES.element} (uid=${params.uid})` : SOURCES[text.source];
    const lines = [
      '## Page text',
      `URL: ${text.url}`,
      ...(text.title ? [`Title: ${text.title}`] : []),
      `Content: ${source}${text.frames ? `, with ${text.frames} frame${text.frames === 1 ? '' : 's'}` : ''}`,
    ];
    if (params.filePath) {
      const saved = await files.save(`${text.text}\n`, params.filePath, format === 'markdown' ? '.md' : '.txt');
      response.section('pageText', [...lines, `Saved the ${format} (${text.text.length} characters) to ${saved}.`]);
    } else {
      response.section('pageText', [...lines, '', text.text || '(no text)']);
    }
  },
});
