import * as v from 'valibot';

import type {NavigationOutcome, NavigationRequest} from '../browser/core/navigation.js';
import type {Config} from '../config/options.js';
import {definePageTool, timeoutEntry, timeoutOrDefault} from './defineTool.js';
import {showThirdPartyTools} from './thirdParty.js';
import {checkNavigationUrl} from './urlChecks.js';
import {showWebMcpTools} from './webmcp.js';

const initScriptEntry = {
  initScript: v.optional(v.pipe(v.string(), v.description("Script run before the new documents' own."))),
};

/** navigate_page's parameters (no initScript without JavaScript evaluation: it is then an unknown argument). */
const navigateSchema = (config: Config) => ({
  type: v.optional(
    v.pipe(v.picklist(['url', 'back', 'forward', 'reload']), v.description('Default url when url is given.')),
  ),
  url: v.optional(v.pipe(v.string(), v.description('Target URL (only with type=url).'))),
  ignoreCache: v.optional(v.pipe(v.boolean(), v.description('Bypass the cache when reloading.'))),
  handleBeforeUnload: v.optional(
    v.pipe(v.picklist(['accept', 'dismiss']), v.description('For a beforeunload dialog. Default accept.')),
  ),
  ...(config.javascriptEvaluation ? initScriptEntry : {}),
  ...timeoutEntry,
  effect: v.optional(
    v.pipe(v.boolean(), v.description('Answer with one line of where the page is, not the page list.')),
  ),
});

/** The navigation the parameters ask for; throws when they ask for none, or for a URL that is not allowed. */
function navigationRequest(
  params: {type?: NavigationRequest['type']; url?: string; ignoreCache?: boolean},
  config: Config,
): NavigationRequest {
  if (!params.type && !params.url) {
    throw new Error('Either URL or a type is required.');
  }
  if (params.url) {
    checkNavigationUrl(params.url, config);
  }
  const type = params.type ?? 'url';
  if (type === 'url' && !params.url) {
    throw new Error('A URL is required for navigation of type=url.');
  }
  return type === 'url'
    ? {type, url: params.url ?? ''}
    : type === 'reload'
      ? {type, ignoreCache: params.ignoreCache ?? false}
      : {type};
}

export const navigatePage = (config: Config) =>
  definePageTool({
    name: 'navigate_page',
    pageContent: ['lines'],
    title: 'Navigate page',
    description: 'Go to a URL, back, forward or reload; waits for the load.',
    annotations: {
      category: 'navigation',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    sections: ['webmcpTools', 'thirdPartyTools'],
    blockedByDialog: false,
    worksOnCrashedPage: true,
    schema: navigateSchema(config),
    async handler({params, page}, response) {
      const request = navigationRequest(params, config);
      const outcome = await page.navigate(request, {
        timeout: timeoutOrDefault(params.timeout),
        beforeUnload: params.handleBeforeUnload ?? 'accept',
        initScript: 'initScript' in params ? (params.initScript as string | undefined) : undefined,
      });
      const effect = params.effect === true && !outcome.error;
      response.line(
        effect ? `Effect: ${navigationEffect(request, page.url)}.` : navigationLine(request, outcome, page.url),
      );
      if (outcome.handledDialog?.dialog.type === 'beforeunload') {
        response.line(
          `${outcome.handledDialog.action === 'dismiss' ? 'Dismissed' : 'Accepted'} a beforeunload dialog.`,
        );
      }
      if (!effect) {
        response.includePages();
      }
      if (config.categoryExperimentalWebmcp) {
        await showWebMcpTools(page, response);
      }
      if (config.categoryExperimentalThirdParty) {
        await showThirdPartyTools(page, response);
      }
    },
  });

/** What a successful navigation did, for `effect` (the URL it ended on, after redirects). */
function navigationEffect(request: NavigationRequest, urlAfter: string): string {
  return request.type === 'reload'
    ? `reloaded ${urlAfter}`
    : `navigated ${request.type === 'url' ? '' : `${request.type} `}to ${urlAfter}`;
}

/** The reference's line for each kind of navigation, successful or not. */
function navigationLine(request: NavigationRequest, outcome: NavigationOutcome, urlAfter: string): string {
  const {error} = outcome;
  switch (request.type) {
    case 'url':
      return error ? `Unable to navigate in the selected page: ${error}.` : `Successfully navigated to ${request.url}.`;
    case 'back':
    case 'forward':
      return error
        ? `Unable to navigate ${request.type} in the selected page: ${error.replace(/\.$/, '')}.`
        : `Successfully navigated ${request.type} to ${urlAfter}.`;
    case 'reload':
      return error ? `Unable to reload the selected page: ${error}.` : 'Successfully reloaded the page.';
  }
}

export const waitFor = definePageTool({
  name: 'wait_for',
  title: 'Wait for text',
  description: 'Wait until any of the texts appears, then return a snapshot.',
  annotations: {category: 'navigation', readOnlyHint: true},
  blockedByDialog: true,
  schema: {
    text: v.pipe(
      v.array(v.string()),
      v.minLength(1, 'text needs at least one string.'),
      v.description('Texts to wait for.'),
    ),
    ...timeoutEntry,
  },
  async handler({params, page}, response) {
    await page.waitForText(params.text, timeoutOrDefault(params.timeout));
    response.line(`Element matching one of ${JSON.stringify(params.text)} found.`);
    response.includeSnapshot({verbose: false});
  },
});
