import * as v from 'valibot';

import {definePageTool} from './defineTool.js';

/**
 * The params as the object CDP takes: agents send an object, the CLI and
 * older clients a JSON string. Throws saying what is wrong.
 */
function commandParams(given: string | Record<string, unknown> | undefined): Record<string, unknown> {
  if (typeof given === 'object') {
    return given;
  }
  if (given === undefined || given.trim() === '') {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(given);
  } catch (error) {
    throw new Error(`"params" must be a JSON object: ${(error as Error).message}`, {cause: error});
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('"params" must be a JSON object such as {"expression": "1 + 1"}.');
  }
  return parsed as Record<string, unknown>;
}

export const sendCdpCommand = definePageTool({
  name: 'send_cdp_command',
  title: 'Send CDP command',
  // A raw command can target the browser itself (Browser.*, Target.*, SystemInfo),
  // whose state every session's contexts share.
  browserWide: 'raw CDP, which can reach the browser target',
  description:
    "Send one raw Chrome DevTools Protocol command to the page's session (or the browser) and get its JSON result; CDP errors come back as Chrome reports them. Commands stay inside this session's own browser context and pages (browser-level ones only from an allow-list, listings filtered), obey the server's switches and file roots as the matching tools do, and may not break the server (closing the browser or its targets, disabling the domains it uses, intercepting requests, changing network conditions or the downloads folder); refusals say why. No events.",
  annotations: {
    category: 'debugging',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
    conditions: ['experimentalRawCdp'],
  },
  beyondReference: true,
  sections: ['cdpResult'],
  blockedByDialog: false,
  outputHint:
    'Ask Chrome for less (e.g. a narrower method or parameters), or save big results with the tools made for them.',
  schema: {
    method: v.pipe(
      v.string(),
      v.regex(/^[A-Z][A-Za-z]*\.[a-z][A-Za-z]*$/, 'Expected a CDP method such as "Page.getLayoutMetrics"'),
      v.description('The CDP method, Domain.command, e.g. "Page.getLayoutMetrics".'),
    ),
    params: v.optional(
      v.pipe(
        v.union([v.record(v.string(), v.unknown()), v.string()]),
        v.description(
          'The command parameters: a JSON object, e.g. {"expression": "1 + 1"}, or the same object as a JSON string.',
        ),
      ),
    ),
    target: v.optional(
      v.pipe(
        v.picklist(['page', 'browser']),
        v.description(
          "page (default): the page's session; browser: the browser itself (an allow-list of Browser.*, Target.*, Storage.*Cookies commands, checked against this session's own context and pages).",
        ),
      ),
    ),
  },
  async handler({params, page}, response) {
    const target = params.target ?? 'page';
    const outcome = await page.sendCdp(params.method, commandParams(params.params), target);
    if ('error' in outcome) {
      throw new Error(`Chrome answered ${params.method} with an error: ${JSON.stringify(outcome.error)}`);
    }
    response.section('cdpResult', [
      '## CDP result',
      `${params.method} sent to ${target === 'page' ? `page ${page.id}` : 'the browser'}.`,
      '```json',
      JSON.stringify(outcome.result ?? {}, null, 2),
      '```',
    ]);
  },
});
