/**
 * The `--slim` set: three tools with the reference's slim schemas and
 * answers (the tool's own lines only: no page list, no snapshot, no images).
 */
import * as v from 'valibot';

import {definePageTool} from './defineTool.js';
import {checkNavigationUrl} from './urlChecks.js';

/** The reference's slim navigate waits this long for the load. */
const SLIM_NAVIGATION_TIMEOUT_MS = 30_000;

export const slimNavigate = definePageTool({
  name: 'navigate',
  pageContent: ['lines'],
  title: 'Navigate',
  description: 'Load a URL in the page and wait for it to load.',
  annotations: {
    category: 'navigation',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  slim: true,
  blockedByDialog: false,
  worksOnCrashedPage: true,
  schema: {url: v.pipe(v.string(), v.description('URL to navigate to'))},
  async handler({params, page}, response, {config}) {
    checkNavigationUrl(params.url, config);
    const outcome = await page.navigate(
      {type: 'url', url: params.url},
      {timeout: SLIM_NAVIGATION_TIMEOUT_MS, beforeUnload: 'accept'},
    );
    if (outcome.handledDialog?.dialog.type === 'beforeunload') {
      response.line('Accepted a beforeunload dialog.');
    }
    if (outcome.error) {
      throw new Error(outcome.error);
    }
    response.line(`Navigated to ${page.url}.`);
  },
});

export const slimEvaluate = definePageTool({
  name: 'evaluate',
  pageContent: ['lines'],
  title: 'Evaluate JavaScript',
  description: 'Run a JavaScript script in the page and return its result as JSON.',
  annotations: {
    category: 'debugging',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
    conditions: ['javascriptEvaluation'],
  },
  slim: true,
  blockedByDialog: true,
  schema: {script: v.pipe(v.string(), v.description('JS script to run on the page'))},
  async handler({params, page}, response) {
    const {json} = await page.evaluate({
      code: params.script,
      format: 'script',
      uids: [],
      dialogAction: 'accept',
      waitForStableDom: false,
    });
    // JSON.stringify(undefined) is no text at all.
    response.line(json === undefined || json === 'undefined' ? '' : json);
  },
});

export const slimScreenshot = definePageTool({
  name: 'screenshot',
  title: 'Take screenshot',
  description: 'Take a screenshot of the page and save it to a temporary PNG file; returns its path.',
  annotations: {
    category: 'debugging',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  slim: true,
  blockedByDialog: true,
  schema: {},
  async handler({page}, response, {files}) {
    const data = await page.screenshot({format: 'png', quality: undefined, uid: undefined, fullPage: false});
    response.line(await files.saveTemporary(Buffer.from(data, 'base64'), 'screenshot.png'));
  },
});
