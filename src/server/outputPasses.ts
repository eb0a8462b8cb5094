/**
 * The passes a call's output goes through on its way out, besides the cap
 * (outputCap.ts): --secrets redaction, and --untrustedContentMarkers' blocks
 * around what the page controls (response/untrusted.ts draws and writes them;
 * the response parts say which are the page's, response/sections.ts).
 */
import type {Config} from '../config/options.js';
import type {ImageContent, ToolPageContent} from '../response/ResponseBuilder.js';
import {closeCutBlock, IMAGE_NOTE, markPageContent} from '../response/untrusted.js';
import type {Tool} from '../tools/defineTool.js';

/** What the passes read of a result. */
interface Output {
  text: string;
  /** Made only with --experimentalStructuredContent. */
  structured?: Record<string, unknown>;
}

/** The result with the --secrets values replaced by their names, in its text and its structured content. */
export function redacted<R extends Output>(result: R, config: Config): R {
  const {secrets} = config;
  if (!secrets) {
    return result;
  }
  return {
    ...result,
    text: secrets.redact(result.text),
    structured: result.structured && secrets.redactDeep(result.structured),
  };
}

/**
 * What of a tool's own output is page content: what it declares, and its
 * error when that quotes the page (a script's exception, a dialog's message,
 * the element covering a target: util/pageQuote.ts). The server's own errors
 * (a stale uid, a timeout, a refused call) stay outside the block.
 */
export function pageContentOf(tool: Pick<Tool, 'pageContent'>, errorQuotesPage = false): ToolPageContent[] {
  return [...(tool.pageContent ?? []), ...(errorQuotesPage ? (['error'] as const) : [])];
}

/** A slim response: the tool's lines and the error, those the tool declares page content marked when asked. */
export function slimText(
  lines: readonly string[],
  error: string | undefined,
  pageContent: readonly ToolPageContent[] | undefined,
): {text: string; id?: string} {
  const errorLines = error === undefined ? [] : [`Error: ${error}`];
  if (!pageContent) {
    return {text: [...lines, ...errorLines].join('\n')};
  }
  const marked = markPageContent([
    {lines, page: pageContent.includes('lines')},
    {lines: errorLines, page: pageContent.includes('error')},
  ]);
  return {text: marked.lines.join('\n'), id: marked.id};
}

/** A capped result whose cut went through a page-content block: the block closed before the cut note. */
export function closeCut<R extends Output>(result: R, id: string): R {
  const text = closeCutBlock(result.text, id);
  const {structured} = result;
  // The cap replaced the structured content by the cut text (under `text`, `message` or `errorMessage`).
  const key = ['text', 'message', 'errorMessage'].find(k => structured?.[k] === result.text);
  return {...result, text, structured: key ? {...structured, [key]: text} : structured};
}

/** A response's images (none for an error), and with --untrustedContentMarkers the note that each shows the page. */
export function imagesOf(
  images: readonly ImageContent[],
  isError: boolean,
  pageContent: readonly ToolPageContent[] | undefined,
): {images: ImageContent[]; imageNote?: string} {
  const shown = isError ? [] : [...images];
  return pageContent && shown.length ? {images: shown, imageNote: IMAGE_NOTE} : {images: shown};
}
