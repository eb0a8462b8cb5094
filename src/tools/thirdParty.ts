/**
 * Third-party developer tools (`--categoryExperimentalThirdParty`): tools a
 * page offers to the agent through its `devtoolstooldiscovery` listener, their
 * input checked against the schema the page gave before they run.
 */
import * as v from 'valibot';

import {formatThirdPartyTools} from '../response/formatPageTools.js';
import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import {jsonSchemaErrors} from '../util/jsonSchema.js';
import {PageQuoteError} from '../util/pageQuote.js';
import {definePageTool, type ToolPage} from './defineTool.js';
import {parseJsonObject} from './webmcp.js';

/** Adds the page's tool groups to the response; nothing when it offers none. */
export async function showThirdPartyTools(page: ToolPage, response: ResponseBuilder<'thirdPartyTools'>): Promise<void> {
  const groups = await page.thirdParty.discover();
  if (groups.length) {
    response.section('thirdPartyTools', formatThirdPartyTools(groups), groups);
  }
}

export const list3pDeveloperTools = definePageTool({
  name: 'list_3p_developer_tools',
  title: 'List page developer tools',
  description:
    'List the developer tools the page itself offers (answering the devtoolstooldiscovery event), grouped, with their input schemas.',
  annotations: {category: 'experimentalThirdParty', readOnlyHint: true},
  sections: ['thirdPartyTools'],
  blockedByDialog: false,
  schema: {},
  async handler({page}, response) {
    await showThirdPartyTools(page, response);
  },
});

export const execute3pDeveloperTool = definePageTool({
  name: 'execute_3p_developer_tool',
  pageContent: ['lines'],
  title: 'Run page developer tool',
  description:
    'Run one of the developer tools the page offers (see list_3p_developer_tools) and return its result as JSON. Element parameters take {"uid": "<uid from take_snapshot>"}; elements in the result come back as {"uid": …} of the snapshot shown with it, ready for click and the other input tools.',
  annotations: {
    category: 'experimentalThirdParty',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: false,
  schema: {
    toolName: v.pipe(v.string(), v.description('The name of the tool, as list_3p_developer_tools shows it.')),
    params: v.optional(
      v.pipe(v.string(), v.description('The tool\'s parameters as a JSON object, e.g. {"id": 3}. Default: {}.')),
    ),
  },
  async handler({params, page}, response) {
    const input = parseJsonObject(params.params, 'params');
    const tool = page.thirdParty.find(params.toolName);
    const invalid = await jsonSchemaErrors(tool.inputSchema, input);
    if (invalid) {
      // The schema is the page's: its messages can quote it.
      throw new PageQuoteError(`Invalid parameters for tool ${params.toolName}: ${invalid}`);
    }
    const {value, snapshot} = await page.thirdParty.execute(params.toolName, input);
    response.line(value === undefined ? 'undefined' : JSON.stringify(value, null, 2));
    if (snapshot !== undefined) {
      // Elements in the result are given as uids of this snapshot, shown with the answer.
      response.includeSnapshot({verbose: false, text: snapshot});
    }
  },
});
