import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {CdpTimeoutError} from '../../cdp/errors.js';
import {PageQuoteError} from '../../util/pageQuote.js';
import {type CallControl, NO_CALL_CONTROL} from '../../util/progress.js';
import type {Page} from '../core/Page.js';
import {secondsText} from '../core/pageBounds.js';
import {runAndSettle, type SettleResult} from '../core/settle.js';
import {exceptionMessage} from './exceptions.js';

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
 * in time (page.bounds.workMs: 60 s, or --pageCallTimeout; a script that
 * never settles must not hold its lane or the server forever) gets an
 * actionable message (it may go on running in the page).
 */
export async function evaluateInPage(
  page: Page,
  request: EvaluationRequest,
  {signal}: CallControl = NO_CALL_CONTROL,
): Promise<EvaluationResult> {
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
        {timeout: page.bounds.workMs, signal},
      );
    }
    return session.send(
      'Runtime.evaluate',
      {expression: evaluationExpression(code, format), awaitPromise: true, returnByValue: true, userGesture: true},
      {timeout: page.bounds.workMs, signal},
    );
  };
  return settled(page, run, request.dialogAction, request.waitForStableDom, signal);
}

/** The expression that runs `code` and gives its awaited result as JSON text. */
function evaluationExpression(code: string, format: EvaluationRequest['format']): string {
  return format === 'script'
    ? `(async () => JSON.stringify(await eval(${JSON.stringify(code)})))()`
    : `(async () => { const fn = (${code}\n); return JSON.stringify(await fn()); })()`;
}

/**
 * Runs a function or script in an extension service worker (its session),
 * waiting on `page` (the selected one) for what it caused, as the reference
 * does; never for the DOM, which a worker cannot touch.
 */
export async function evaluateInWorker(
  page: Page,
  {session, contextId}: {session: CdpSession; contextId: number},
  request: Omit<EvaluationRequest, 'uids' | 'waitForStableDom'>,
  {signal}: CallControl = NO_CALL_CONTROL,
): Promise<EvaluationResult> {
  const run = () =>
    session.send(
      'Runtime.evaluate',
      {
        expression: evaluationExpression(request.code, request.format),
        contextId,
        awaitPromise: true,
        returnByValue: true,
      },
      {timeout: page.bounds.workMs, signal},
    );
  return settled(page, run, request.dialogAction, false, signal);
}

type EvaluationAnswer = {result: Protocol.Runtime.RemoteObject; exceptionDetails?: Protocol.Runtime.ExceptionDetails};

async function settled(
  page: Page,
  run: () => Promise<EvaluationAnswer>,
  dialogAction: string,
  waitForStableDom: boolean,
  signal: AbortSignal | undefined,
): Promise<EvaluationResult> {
  const {value, settle} = await runAndSettle(page, run, {handleDialog: dialogAction, waitForStableDom, signal}).catch(
    (error: unknown) => {
      if (error instanceof CdpTimeoutError) {
        throw new Error(
          `The script did not finish within ${secondsText(page.bounds.workMs)} and was abandoned (it may still run in the page). Return sooner, e.g. without waiting on long timers, or split the work into several calls.`,
          {cause: error},
        );
      }
      throw error;
    },
  );
  if (value?.exceptionDetails) {
    throw new PageQuoteError(exceptionMessage(value.exceptionDetails));
  }
  const result: unknown = value?.result.value;
  return {json: value ? (typeof result === 'string' ? result : 'undefined') : undefined, settle};
}
