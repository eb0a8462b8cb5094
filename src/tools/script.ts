import {readFile} from 'node:fs/promises';

import * as v from 'valibot';

import {formatHandledDialog} from '../response/format.js';
import {definePageTool} from './defineTool.js';

export const evaluateScript = definePageTool({
  name: 'evaluate_script',
  description:
    'Run JavaScript in the page and return its result as JSON. Give a function declaration (e.g. `() => document.title` or `async (el) => el.innerText` with args from take_snapshot uids), or a script with format=script.',
  annotations: {category: 'debugging', readOnlyHint: false, conditions: ['javascriptEvaluation']},
  // Dialogs the script opens are answered with dialogAction; one already open
  // would pause the script before it starts, so that one blocks.
  blockedByDialog: true,
  filePaths: ['filePath', 'sourcePath'],
  outputHint: 'Return less from the function, or save the result with filePath.',
  schema: {
    function: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'A JavaScript function declaration to run in the page; its (awaited) return value must be JSON-serializable.',
        ),
      ),
    ),
    sourcePath: v.optional(
      v.pipe(v.string(), v.description('Path of a file whose contents are used instead of `function`.')),
    ),
    format: v.optional(
      v.pipe(
        v.picklist(['function', 'script']),
        v.description(
          'function (default): the code is a function declaration that is called; script: the code is evaluated and its completion value returned.',
        ),
      ),
    ),
    args: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description('uids of elements from the latest take_snapshot, passed to the function as arguments.'),
      ),
    ),
    filePath: v.optional(
      v.pipe(v.string(), v.description('Save the JSON result to this file instead of returning it.')),
    ),
    dialogAction: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'How to answer a dialog the script opens: accept (default), dismiss, or any other text to accept a prompt with.',
        ),
      ),
    ),
    waitForStableDom: v.optional(
      v.pipe(
        v.boolean(),
        v.description('Wait for DOM changes the script causes to settle before returning. Default is true.'),
      ),
    ),
  },
  async handler({params, page}, response, {files}) {
    if (params.function !== undefined && params.sourcePath !== undefined) {
      throw new Error('Give either function or sourcePath, not both.');
    }
    let code = params.function;
    if (params.sourcePath !== undefined) {
      code = await readFile(params.sourcePath, 'utf8').catch((error: Error) => {
        throw new Error(`Could not read ${params.sourcePath}: ${error.message}`);
      });
    }
    if (code === undefined || code.trim() === '') {
      throw new Error('Give the code to run in `function` (or a file in `sourcePath`).');
    }
    const {json, settle} = await page.evaluate({
      code,
      format: params.format ?? 'function',
      uids: params.args ?? [],
      dialogAction: params.dialogAction ?? 'accept',
      waitForStableDom: params.waitForStableDom ?? true,
    });
    response.attachSettle(settle);
    if (json !== undefined) {
      if (params.filePath) {
        response.line(`Script ran on page. Output saved to ${await files.save(json, params.filePath, '.json')}.`);
      } else {
        response.line('Script ran on page and returned:', '```json', json, '```');
      }
    }
    // Dialogs answered by dialogAction, during the script or while waiting for what it caused.
    for (const {dialog, action} of settle.handledDialogs ?? []) {
      response.line(formatHandledDialog(dialog, action));
    }
  },
});
