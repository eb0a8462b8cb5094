import {readFile} from 'node:fs/promises';

import * as v from 'valibot';

import type {Protocol} from '../../protocol/index.js';
import {runAndSettle} from '../browser/settle.js';
import {CdpTimeoutError} from '../cdp/errors.js';
import {definePageTool} from './defineTool.js';

/** The first line of an exception as the page would print it, without a bare "Error: " prefix. */
export function exceptionMessage(details: Protocol.Runtime.ExceptionDetails): string {
  const description: unknown = details.exception?.description ?? details.exception?.value ?? details.text;
  const first = String(description).split('\n')[0] ?? '';
  return first.replace(/^Error: /, '') || details.text;
}

/** Bound of one script run; a script that never settles must not hold the server forever. */
const EVALUATE_TIMEOUT_MS = 60_000;

export const evaluateScript = definePageTool({
  name: 'evaluate_script',
  description:
    'Run JavaScript in the page and return its result as JSON. Give a function declaration (e.g. `() => document.title` or `async (el) => el.innerText` with args from take_snapshot uids), or a script with format=script.',
  annotations: {category: 'debugging', readOnlyHint: false},
  // Dialogs the script opens are answered with dialogAction; one already open
  // would pause the script before it starts, so that one blocks.
  blockedByDialog: true,
  filePaths: ['filePath', 'sourcePath'],
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
    const format = params.format ?? 'function';
    const elementIds = params.args?.length ? await page.resolveElementsForEvaluation(params.args) : undefined;
    if (format === 'script' && elementIds) {
      throw new Error('args can only be passed to a function (format=function).');
    }
    const {value, settle} = await runAndSettle(
      page,
      async () => {
        const s = elementIds?.session ?? page.session;
        if (elementIds) {
          return s.send(
            'Runtime.callFunctionOn',
            {
              functionDeclaration: `async function(...args) { const fn = (${code}\n); return JSON.stringify(await fn(...args)); }`,
              objectId: elementIds.objectIds[0],
              arguments: elementIds.objectIds.map(objectId => ({objectId})),
              awaitPromise: true,
              returnByValue: true,
            },
            EVALUATE_TIMEOUT_MS,
          );
        }
        const expression =
          format === 'script'
            ? `(async () => JSON.stringify(await eval(${JSON.stringify(code)})))()`
            : `(async () => { const fn = (${code}\n); return JSON.stringify(await fn()); })()`;
        return s.send(
          'Runtime.evaluate',
          {expression, awaitPromise: true, returnByValue: true, userGesture: true},
          EVALUATE_TIMEOUT_MS,
        );
      },
      {handleDialog: params.dialogAction ?? 'accept', waitForStableDom: params.waitForStableDom ?? true},
    ).catch((error: unknown) => {
      if (error instanceof CdpTimeoutError) {
        throw new Error(
          `The script did not finish within ${EVALUATE_TIMEOUT_MS / 1000} s and was abandoned (it may still run in the page). Return sooner, e.g. without waiting on long timers, or split the work into several calls.`,
        );
      }
      throw error;
    });
    response.attachSettle(settle);
    if (!value) {
      return;
    }
    if (value.exceptionDetails) {
      throw new Error(exceptionMessage(value.exceptionDetails));
    }
    const text = value.result.value === undefined ? 'undefined' : String(value.result.value);
    if (params.filePath) {
      const saved = await files.save(text, params.filePath, '.json');
      response.line(`Script ran on page. Output saved to ${saved}.`);
    } else {
      response.line('Script ran on page and returned:', '```json', text, '```');
    }
  },
});
