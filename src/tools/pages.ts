import * as v from 'valibot';

import {definePageTool, defineTool, timeoutEntry, timeoutOrDefault} from './defineTool.js';
import {checkNavigationUrl} from './urlChecks.js';

export const listPages = defineTool({
  name: 'list_pages',
  title: 'List pages',
  description: 'Open pages (tabs): ids, titles, URLs, the selected one.',
  annotations: {category: 'navigation', readOnlyHint: true},
  // A read of the page list the server keeps: an agent asks it to see what is stuck, so it
  // must not queue behind a stuck page (a busy page's title falls back to the target's).
  lane: {kind: 'free', why: 'reads the page list, which no call holds'},
  schema: {},
  async handler(_request, response) {
    response.includePages();
  },
});

export const selectPage = defineTool({
  name: 'select_page',
  title: 'Select page',
  description: 'Select a page for later tool calls.',
  annotations: {category: 'navigation', readOnlyHint: true},
  // Changes only the session's choice of page (bringToFront is answered by the browser, not
  // the page): it runs in the order the session queued its page choices, so a later call
  // without pageId acts on this page, and never waits for a stuck page's call.
  lane: {kind: 'selection', why: "sets the session's selected page"},
  schema: {
    pageId: v.pipe(v.number(), v.description('Page id, from list_pages.')),
    bringToFront: v.optional(v.pipe(v.boolean(), v.description('Also focus the page and bring it to the front.'))),
  },
  async handler({params}, response, {browser}) {
    await browser.selectPage(params.pageId, {bringToFront: params.bringToFront ?? false});
    response.includePages();
  },
});

export const closePage = defineTool({
  name: 'close_page',
  title: 'Close page',
  description: 'Close a page. The last open page cannot be closed.',
  annotations: {
    category: 'navigation',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  // Closing a page ends its lane and may move the selection: nothing may run on it meanwhile.
  lane: {kind: 'browser', why: 'removes a page (and its lane) and may change the selection'},
  schema: {
    pageId: v.pipe(v.number(), v.description('Page id, from list_pages.')),
  },
  async handler({params}, response, {browser}) {
    const {lastPage, savedRecording} = await browser.closePage(params.pageId);
    if (lastPage) {
      response.line('The last open page cannot be closed. It is fine to keep it open.');
    }
    if (savedRecording) {
      response.line(`The screencast recording has been stopped and saved to ${savedRecording}.`);
    }
    response.includePages();
  },
});

export const newPage = defineTool({
  name: 'new_page',
  title: 'Open new page',
  description: 'Open a tab at a URL and select it.',
  annotations: {
    category: 'navigation',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  // Adds a page (maybe a browser context) and selects it: later calls without pageId wait for it.
  lane: {kind: 'browser', why: 'adds a page to the browser and selects it'},
  schema: {
    url: v.pipe(v.string(), v.description('URL to load in the new page.')),
    background: v.optional(v.pipe(v.boolean(), v.description('Do not focus it.'))),
    isolatedContext: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.description('Isolated context name (own cookies and storage), shared by name.'),
      ),
    ),
    ...timeoutEntry,
  },
  async handler({params}, response, {browser, config}) {
    checkNavigationUrl(params.url, config);
    const page = await browser.newPage({background: params.background, isolatedContext: params.isolatedContext});
    response.includePages();
    const outcome = await page.navigate(
      {type: 'url', url: params.url},
      {timeout: timeoutOrDefault(params.timeout), beforeUnload: 'accept'},
    );
    if (outcome.error) {
      throw new Error(outcome.error);
    }
  },
});

export const handleDialog = definePageTool({
  name: 'handle_dialog',
  title: 'Answer dialog',
  description: 'Accept or dismiss the open dialog.',
  annotations: {
    category: 'input',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: false,
  answersDialogs: true,
  schema: {
    action: v.pipe(v.picklist(['accept', 'dismiss']), v.description('Whether to accept or dismiss the dialog.')),
    promptText: v.optional(v.pipe(v.string(), v.description('Text to enter into a prompt dialog before accepting.'))),
  },
  async handler({params, page}, response) {
    const accept = params.action === 'accept';
    await page.answerDialog(accept, params.promptText);
    response.line(`Successfully ${accept ? 'accepted' : 'dismissed'} the dialog`);
    response.includePages();
  },
});
