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
    "Get the page's readable main content as markdown (or plain text): headings, lists, links with absolute URLs, tables as pipe tables, image alt text; navigation, header, footer, asides and hidden content left out. Frames, out-of-process ones included, are read too. Give a uid for one element's content instead. Cheaper than a snapshot for reading.",
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
    uid: v.optional(
      v.pipe(v.string(), v.description("uid of an element from take_snapshot: that element's content only.")),
    ),
    filePath: v.optional(
      v.pipe(v.string(), v.description('Save the text to this file (.md or .txt) instead of returning it.')),
    ),
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
