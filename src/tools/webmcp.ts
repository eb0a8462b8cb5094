/**
 * WebMCP (`--categoryExperimentalWebmcp`): the tools the page registers with
 * `document.modelContext.registerTool`, listed and run on the agent's behalf.
 */
import * as v from 'valibot';

import {formatWebMcpTools} from '../response/formatPageTools.js';
import type {ResponseBuilder} from '../response/ResponseBuilder.js';
import {definePageTool, type ToolPage} from './defineTool.js';

/** The reference's answer to input that is not a JSON object. */
export function parseJsonObject(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`Failed to parse ${what} as JSON: ${(error as Error).message}`, {cause: error});
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`Failed to parse ${what} as JSON: Parsed ${what} is not an object`);
  }
  return parsed as Record<string, unknown>;
}

/** Adds the page's WebMCP tools to the response (list_webmcp_tools, and navigate_page with the category on). */
export async function showWebMcpTools(page: ToolPage, response: ResponseBuilder<'webmcpTools'>): Promise<void> {
  const tools = (await page.webmcp.list()).map(({name, description, inputSchema, annotations}) => ({
    name,
    description,
    ...(inputSchema ? {inputSchema} : {}),
    ...(annotations ? {annotations: {...annotations}} : {}),
  }));
  response.section('webmcpTools', formatWebMcpTools(tools), tools);
}

export const listWebmcpTools = definePageTool({
  name: 'list_webmcp_tools',
  title: 'List WebMCP tools',
  description:
    'List the WebMCP tools the page registered (document.modelContext.registerTool): name, description and input schema.',
  annotations: {category: 'experimentalWebmcp', readOnlyHint: true},
  sections: ['webmcpTools'],
  blockedByDialog: false,
  schema: {},
  async handler({page}, response) {
    await showWebMcpTools(page, response);
  },
});

export const executeWebmcpTool = definePageTool({
  name: 'execute_webmcp_tool',
  pageContent: ['lines'],
  title: 'Run WebMCP tool',
  description: 'Run one of the WebMCP tools the page registered (see list_webmcp_tools) and return its answer.',
  annotations: {
    category: 'experimentalWebmcp',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  blockedByDialog: false,
  schema: {
    toolName: v.pipe(v.string(), v.description('The name of the tool, as list_webmcp_tools shows it.')),
    input: v.optional(
      v.pipe(v.string(), v.description('The tool\'s input as a JSON object, e.g. {"query": "shoes"}. Default: {}.')),
    ),
  },
  async handler({params, page}, response) {
    const input = parseJsonObject(params.input, 'input');
    const {status, output, errorText, error} = await page.webmcp.invoke(params.toolName, input);
    response.line(JSON.stringify({status, output, errorText, error}, null, 2));
  },
});
