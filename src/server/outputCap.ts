/**
 * The server's output cap (--maxOutputChars, on by default): a response whose
 * text is longer is cut at a line boundary, and the whole text is written to
 * a file the response names, with its size and how to ask for less.
 *
 * chrome-devtools-mcp returns any size. Here the default
 * (DEFAULT_MAX_OUTPUT_CHARS, with why) stays well under what clients take:
 * the MCP SDK's stdio client closes its connection on a message over 10 MB,
 * so an evaluate_script that returned 12 MB used to end the session.
 */
import {capText} from '../response/truncate.js';
import {debug} from '../util/logger.js';
import type {PathSandbox} from '../util/sandbox.js';

/** What a capped response is made of: its text and the structured content that repeats it. */
export interface CappableResult {
  text: string;
  isError: boolean;
  /** Absent without --experimentalStructuredContent. */
  structured?: Record<string, unknown>;
}

export interface CapOptions {
  maxChars: number;
  toolName: string;
  /** How to ask the tool for less (its own hint, or the generic one). */
  hint: string;
  /** Slim tools' structured content is the text item itself. */
  slim: boolean;
  files: PathSandbox;
  /** Characters to leave free in a cut text for what is added after (a line closing a page-content block). */
  reserve?: number;
}

/**
 * `result` when it fits; else its text cut with a note that names the file
 * holding the whole text (written into a private folder in the temp dir,
 * which is inside every session's roots), and structured content that is the
 * cut text when its JSON is over the cap as well.
 */
export async function capOutput<R extends CappableResult>(result: R, options: CapOptions): Promise<R> {
  const {maxChars, slim} = options;
  const textFits = result.text.length <= maxChars;
  if (textFits && (result.structured === undefined || JSON.stringify(result.structured).length <= maxChars)) {
    return result;
  }
  const text = textFits
    ? result.text
    : capText(result.text, maxChars, await whereAndHow(result.text, options), options.reserve);
  const key = result.isError ? 'errorMessage' : 'message';
  if (result.structured === undefined) {
    return {...result, text};
  }
  const structured = slim ? {type: 'text', text} : {[key]: text};
  return {...result, text, structured};
}

/** The note's tail: where the whole text is (or why it is not), then how to narrow. */
async function whereAndHow(text: string, {toolName, hint, files}: CapOptions): Promise<string> {
  const size = `${text.length} characters`;
  try {
    const path = await files.saveTemporary(text, `${toolName}-output.txt`);
    return `The whole output (${size}) is in ${path}. ${hint}`;
  } catch (error) {
    debug('could not save a capped output', error);
    return `The whole output (${size}) could not be saved to a file. ${hint}`;
  }
}
