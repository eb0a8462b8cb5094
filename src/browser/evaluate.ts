import {CdpTimeoutError} from '../cdp/errors.js';
import {exceptionMessage} from './exceptions.js';
import type {Page} from './Page.js';
import {runAndSettle, type SettleResult} from './settle.js';

/** Bound of one script run; a script that never settles must not hold the server forever. */
export const EVALUATE_TIMEOUT_MS = 60_000;

/** What evaluate_script runs. */
export interface EvaluationRequest {
  code: string;
  /** function: `code` is a function declaration that is called; script: `code` is evaluated. */
  format: 'function' | 'script';
  /** uids of the latest snapshot passed to the function as arguments (one frame only). */
  uids: string[];
  /** How to answer dialogs the script opens: accept, dismiss, or a prompt text. */
  dialogAction: string;
  waitForStableDom: boolean;
}

export interface EvaluationResult {
  /** The JSON text of the (awaited) result, `undefined` as text when there is none. */
  json: string | undefined;
  settle: SettleResult;
}

/**
 * Runs a function or script in the page and waits for what it caused. A
 * page exception becomes the error's message; a script that does not finish
 * in time gets an actionable message (it may go on running in the page).
 */
export async function evaluateInPage(page: Page, request: EvaluationRequest): Promise<EvaluationResult> {
  const {code, format} = request;
  const elements = request.uids.length ? await page.resolveElementsForEvaluation(request.uids) : undefined;
  if (format === 'script' && elements) {
    throw new Error('args can only be passed to a function (format=function).');
  }
  const session = elements?.session ?? page.session;
  const run = () => {
    if (elements) {
      return session.send(
        'Runtime.callFunctionOn',
        {
          functionDeclaration: `async function(...args) { const fn = (${code}\n); return JSON.stringify(await fn(...args)); }`,
          objectId: elements.objectIds[0],
          arguments: elements.objectIds.map(objectId => ({objectId})),
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
    return session.send(
      'Runtime.evaluate',
      {expression, awaitPromise: true, returnByValue: true, userGesture: true},
      EVALUATE_TIMEOUT_MS,
    );
  };
  const {value, settle} = await runAndSettle(page, run, {
    handleDialog: request.dialogAction,
    waitForStableDom: request.waitForStableDom,
  }).catch((error: unknown) => {
    if (error instanceof CdpTimeoutError) {
      throw new Error(
        `The script did not finish within ${EVALUATE_TIMEOUT_MS / 1000} s and was abandoned (it may still run in the page). Return sooner, e.g. without waiting on long timers, or split the work into several calls.`,
        {cause: error},
      );
    }
    throw error;
  });
  if (value?.exceptionDetails) {
    throw new Error(exceptionMessage(value.exceptionDetails));
  }
  const result: unknown = value?.result.value;
  return {json: value ? (typeof result === 'string' ? result : 'undefined') : undefined, settle};
}
