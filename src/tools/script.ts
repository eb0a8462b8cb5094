import * as v from 'valibot';

import type {Config} from '../config/options.js';
import {formatHandledDialog} from '../response/format.js';
import {definePageTool, type ToolAnnotations, type ToolContext} from './defineTool.js';

/** Largest `sourcePath` file read (code sent to the page in one message). */
const MAX_SOURCE_FILE_BYTES = 10 * 1024 * 1024;

/**
 * With --categoryExtensions the code can run in an extension service worker
 * instead: pageId turns optional (one of the two is required) and
 * serviceWorkerId appears, as in the reference.
 */
function serviceWorkerEntries(config: Config) {
  if (!config.categoryExtensions) {
    return {};
  }
  // On the CLI pageId stays optional as for every tool (the selected page by default).
  const pageRouted = config.pageIdRouting && !config.slim && !config.viaCli;
  return {
    ...(pageRouted
      ? {
          pageId: v.optional(
            v.pipe(
              v.number(),
              v.description(
                'The id of the page to run the code in, as shown by list_pages. Required unless serviceWorkerId is given.',
              ),
            ),
          ),
        }
      : {}),
    serviceWorkerId: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'Run the code in this extension service worker instead of a page: its id as list_pages shows it (sw-<n>). Leave pageId out then; args (element uids) cannot be passed to a worker.',
        ),
      ),
    ),
  };
}

/** A script can do anything the page can: destructive, not repeatable, open world. */
const EVALUATE_HINTS: ToolAnnotations = {
  category: 'debugging',
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
  conditions: ['javascriptEvaluation'],
};

/** What evaluate_script takes besides a service worker (--categoryExtensions). */
const EVALUATE_ENTRIES = {
  function: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'e.g. `() => document.title` or `async (el) => el.innerText`; the result must be JSON-serializable.',
      ),
    ),
  ),
  sourcePath: v.optional(v.pipe(v.string(), v.description('File to read `function` from.'))),
  format: v.optional(
    v.pipe(
      v.picklist(['function', 'script']),
      v.description('script: evaluate the code and return its completion value.'),
    ),
  ),
  args: v.optional(v.pipe(v.array(v.string()), v.description("Element uids passed as the function's arguments."))),
  filePath: v.optional(v.pipe(v.string(), v.description('Save the result to this file.'))),
  dialogAction: v.optional(
    v.pipe(v.string(), v.description('For a dialog the script opens: accept (default), dismiss, or prompt text.')),
  ),
  waitForStableDom: v.optional(v.pipe(v.boolean(), v.description('Wait for DOM changes to settle. Default true.'))),
};

export const evaluateScript = (config: Config) =>
  definePageTool({
    name: 'evaluate_script',
    pageContent: ['lines'],
    title: 'Evaluate JavaScript',
    description: `Run JavaScript in the page${config.categoryExtensions ? ' or in an extension service worker' : ''}; returns the result as JSON.`,
    annotations: EVALUATE_HINTS,
    // Dialogs the script opens are answered with dialogAction; one already open
    // would pause the script before it starts, so that one blocks.
    blockedByDialog: true,
    filePaths: ['filePath', 'sourcePath'],
    outputHint: 'Return less from the function, or save the result with filePath.',
    sections: ['scriptResult'],
    schema: {...EVALUATE_ENTRIES, ...serviceWorkerEntries(config)},
    async handler({params, page}, response, {files}) {
      const code = await codeToRun(params, files);
      const format = params.format ?? 'function';
      const dialogAction = params.dialogAction ?? 'accept';
      const inWorker = workerTarget(params, config);
      const {json, settle} = inWorker
        ? await page.evaluateInServiceWorker(inWorker, {code, format, dialogAction})
        : await page.evaluate({
            code,
            format,
            uids: params.args ?? [],
            dialogAction,
            waitForStableDom: params.waitForStableDom ?? true,
          });
      response.attachSettle(settle);
      if (json !== undefined) {
        if (params.filePath) {
          response.line(`Script ran on page. Output saved to ${await files.save(json, params.filePath, '.json')}.`);
        } else {
          response.line('Script ran on page and returned:', '```json', json, '```');
          // Structured content only: the value as a field of its own.
          response.section('scriptResult', [], json);
        }
      }
      // Dialogs answered by dialogAction, during the script or while waiting for what it caused.
      for (const {dialog, action} of settle.handledDialogs ?? []) {
        response.line(formatHandledDialog(dialog, action));
      }
    },
  });

/** The code to run: `function`, or the contents of the file at `sourcePath` (one of the two). */
async function codeToRun(
  params: {function?: string; sourcePath?: string},
  files: ToolContext['files'],
): Promise<string> {
  if (params.function !== undefined && params.sourcePath !== undefined) {
    throw new Error('Give either function or sourcePath, not both.');
  }
  let code = params.function;
  if (params.sourcePath !== undefined) {
    code = (await files.read(params.sourcePath, MAX_SOURCE_FILE_BYTES)).toString('utf8');
  }
  if (code === undefined || code.trim() === '') {
    throw new Error('Give the code to run in `function` (or a file in `sourcePath`).');
  }
  return code;
}

/**
 * The worker to run in, when serviceWorkerId is given; checks the
 * combination as the reference does (in its order, with its texts).
 */
function workerTarget(params: {serviceWorkerId?: string; pageId?: number; args?: string[]}, config: Config) {
  const pageRouted = config.categoryExtensions && config.pageIdRouting && !config.slim && !config.viaCli;
  if (config.categoryExtensions && params.serviceWorkerId) {
    if (params.args?.length) {
      throw new Error('args (element uids) cannot be used when evaluating in a service worker.');
    }
    if (params.pageId) {
      throw new Error('specify either a pageId or a serviceWorkerId.');
    }
    return params.serviceWorkerId;
  }
  if (pageRouted && !params.pageId) {
    throw new Error('specify either a pageId or a serviceWorkerId.');
  }
  return undefined;
}
