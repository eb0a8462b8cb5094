import * as v from 'valibot';

import type {OpenDialog, Page} from '../browser/Page.js';
import {
  asNavigationError,
  defaultNavigationTimeout,
  navigate,
  runAndSettle,
  type SettleOptions,
  type SettleResult,
} from '../browser/settle.js';
import {waitForText} from '../browser/waitForText.js';
import {definePageTool, timeoutEntry, timeoutOrDefault} from './defineTool.js';

async function historyStep(
  page: Page,
  delta: -1 | 1,
  timeout: number,
  onDialogHandled: NonNullable<SettleOptions['onDialogHandled']>,
): Promise<SettleResult> {
  const {currentIndex, entries} = await page.session.send('Page.getNavigationHistory');
  const entry = entries[currentIndex + delta];
  if (!entry) {
    throw new Error('History entry to navigate to not found.');
  }
  const {settle} = await runAndSettle(
    page,
    async watcher => {
      await page.session.send('Page.navigateToHistoryEntry', {entryId: entry.id}, timeout);
      watcher.started.resolve();
    },
    {
      timeout,
      navigationMustFinish: true,
      waitForStableDom: false,
      handleDialog: {beforeunload: 'accept'},
      onDialogHandled,
    },
  );
  return settle;
}

export const navigatePage = definePageTool({
  name: 'navigate_page',
  description:
    'Load a URL in the page, or go back, forward or reload. Waits for the new document to load and returns the page list.',
  annotations: {category: 'navigation', readOnlyHint: false},
  blockedByDialog: false,
  worksOnCrashedPage: true,
  schema: {
    type: v.optional(
      v.pipe(
        v.picklist(['url', 'back', 'forward', 'reload']),
        v.description('Navigate to a URL, back or forward in history, or reload. Default is url when url is given.'),
      ),
    ),
    url: v.optional(v.pipe(v.string(), v.description('Target URL (only with type=url).'))),
    ignoreCache: v.optional(v.pipe(v.boolean(), v.description('Bypass the cache when reloading.'))),
    handleBeforeUnload: v.optional(
      v.pipe(
        v.picklist(['accept', 'dismiss']),
        v.description('Whether to accept or dismiss a beforeunload dialog the navigation triggers. Default is accept.'),
      ),
    ),
    initScript: v.optional(
      v.pipe(
        v.string(),
        v.description('JavaScript to run in every new document of this navigation before any of its own scripts.'),
      ),
    ),
    ...timeoutEntry,
  },
  async handler({params, page}, response) {
    if (!params.type && !params.url) {
      throw new Error('Either URL or a type is required.');
    }
    const type = params.type ?? 'url';
    if (type === 'url' && !params.url) {
      throw new Error('A URL is required for navigation of type=url.');
    }
    const timeout = timeoutOrDefault(params.timeout) ?? defaultNavigationTimeout(page);
    const beforeUnload = params.handleBeforeUnload ?? 'accept';
    const policy = {beforeunload: beforeUnload};
    let scriptId: string | undefined;
    if (params.initScript) {
      ({identifier: scriptId} = await page.session.send('Page.addScriptToEvaluateOnNewDocument', {
        source: params.initScript,
      }));
    }
    let handled: SettleResult['handledDialog'];
    const onDialogHandled = (dialog: OpenDialog, action: string) => {
      handled = {dialog, action};
    };
    try {
      switch (type) {
        case 'url': {
          const url = params.url ?? '';
          const result = await navigate(page, url, {timeout, handleDialog: policy});
          handled = result.handledDialog ?? handled;
          response.line(
            result.error
              ? `Unable to navigate in the selected page: ${result.error}.`
              : `Successfully navigated to ${url}.`,
          );
          break;
        }
        case 'back':
        case 'forward': {
          try {
            await historyStep(page, type === 'back' ? -1 : 1, timeout, onDialogHandled);
            response.line(`Successfully navigated ${type} to ${page.url}.`);
          } catch (error) {
            response.line(
              `Unable to navigate ${type} in the selected page: ${asNavigationError(error, timeout).replace(/\.$/, '')}.`,
            );
          }
          break;
        }
        case 'reload': {
          try {
            await runAndSettle(
              page,
              async watcher => {
                await page.session.send('Page.reload', {ignoreCache: params.ignoreCache ?? false}, timeout);
                watcher.started.resolve();
              },
              {timeout, handleDialog: policy, navigationMustFinish: true, waitForStableDom: false, onDialogHandled},
            );
            response.line('Successfully reloaded the page.');
          } catch (error) {
            response.line(`Unable to reload the selected page: ${asNavigationError(error, timeout)}.`);
          }
          break;
        }
      }
    } finally {
      if (scriptId) {
        await page.session.trySend('Page.removeScriptToEvaluateOnNewDocument', {identifier: scriptId});
      }
    }
    if (handled?.dialog.type === 'beforeunload') {
      response.line(`${handled.action === 'dismiss' ? 'Dismissed' : 'Accepted'} a beforeunload dialog.`);
      page.dialog = undefined;
    }
    response.setIncludePages();
  },
});

export const waitFor = definePageTool({
  name: 'wait_for',
  description:
    'Wait until any of the given texts appears on the page (in any frame or open shadow root), then return a snapshot of the page.',
  annotations: {category: 'navigation', readOnlyHint: true},
  blockedByDialog: true,
  schema: {
    text: v.pipe(
      v.array(v.string()),
      v.minLength(1, 'text needs at least one string.'),
      v.description('Texts to look for; the wait ends when any of them appears.'),
    ),
    ...timeoutEntry,
  },
  async handler({params, page}, response) {
    await waitForText(page, params.text, timeoutOrDefault(params.timeout));
    response.line(`Element matching one of ${JSON.stringify(params.text)} found.`);
    response.includeSnapshot({verbose: false});
  },
});
