import {isUtf8} from 'node:buffer';

import * as v from 'valibot';

import type {NetworkRecord} from '../browser/network/networkRecord.js';
import {
  BODY_INLINE_LIMIT,
  type BodyText,
  formatNetworkList,
  formatRequestDetail,
  redactHeaders,
  type RequestDetail,
  requestStatus,
  type RequestSummary,
  truncate,
} from '../response/formatNetwork.js';
import type {ToolFiles} from './context.js';
import {definePageTool, paginationEntries} from './defineTool.js';

const RESOURCE_TYPES = [
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'texttrack',
  'xhr',
  'fetch',
  'prefetch',
  'eventsource',
  'websocket',
  'manifest',
  'signedexchange',
  'ping',
  'cspviolationreport',
  'preflight',
  'fedcm',
  'other',
] as const;

function summary(record: NetworkRecord): RequestSummary {
  return {
    id: record.id,
    method: record.method,
    url: record.url,
    status: requestStatus(record.response, record.failure),
    ...(record.mockedBy === undefined ? {} : {mockedBy: record.mockedBy}),
  };
}

export const listNetworkRequests = definePageTool({
  name: 'list_network_requests',
  title: 'List network requests',
  description: 'Network requests since the last navigation, with reqids.',
  annotations: {category: 'network', readOnlyHint: true},
  sections: ['networkList'],
  blockedByDialog: false,
  outputHint: 'Page through the requests with pageSize and pageIdx, or filter them with resourceTypes.',
  schema: {
    ...paginationEntries('Requests'),
    resourceTypes: v.optional(
      v.pipe(v.array(v.picklist(RESOURCE_TYPES)), v.description('Only these types; omit for all.')),
    ),
    includePreservedRequests: v.optional(v.pipe(v.boolean(), v.description("Also the last 2 navigations' requests."))),
  },
  async handler({params, page}, response) {
    const types = params.resourceTypes?.length ? new Set<string>(params.resourceTypes) : undefined;
    const requests = page.network
      .list(params.includePreservedRequests ?? false)
      .filter(record => !types || types.has(record.resourceType))
      .map(summary);
    const {pageSize, pageIdx} = params;
    response.section('networkList', formatNetworkList(requests, pageSize, pageIdx), {
      items: requests,
      pageSize,
      pageIdx,
    });
  },
});

export const getNetworkRequest = definePageTool({
  name: 'get_network_request',
  title: 'Get network request',
  description: 'One request by reqid: status, headers, bodies, failure and redirects.',
  annotations: {
    category: 'network',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  sections: ['networkRequest'],
  blockedByDialog: true,
  filePaths: ['requestFilePath', 'responseFilePath'],
  outputHint: 'Save the bodies to files with requestFilePath and responseFilePath.',
  schema: {
    reqid: v.optional(v.pipe(v.number(), v.description('The reqid of a request from list_network_requests.'))),
    requestFilePath: v.optional(v.pipe(v.string(), v.description('Save the request body to this file.'))),
    responseFilePath: v.optional(v.pipe(v.string(), v.description('Save the response body to this file.'))),
  },
  async handler({params, page}, response, {files, config}) {
    if (!params.reqid) {
      throw new Error('Give the reqid of a request. Call list_network_requests to see them.');
    }
    const record = page.network.find(params.reqid);
    if (!record) {
      throw new Error(
        `No request with reqid ${params.reqid} on page ${page.id}. Call list_network_requests to see the reqids.`,
      );
    }
    const redact = (headers: Record<string, string>) =>
      config.redactNetworkHeaders ? redactHeaders(headers) : headers;
    const [postData, body] = await Promise.all([page.network.requestBody(record), page.network.responseBody(record)]);
    const detail: RequestDetail = {
      url: record.url,
      status: requestStatus(record.response, record.failure),
      requestHeaders: redact(record.requestHeaders),
      requestBody: record.hasPostData ? await requestBodyText(postData, params.requestFilePath, files) : undefined,
      responseHeaders: record.response ? redact(record.response.headers) : undefined,
      responseBody:
        record.response && record.resourceType !== 'websocket'
          ? await responseBodyText(body, params.responseFilePath, files)
          : undefined,
      failure: record.failure,
      redirectChain: [...record.redirectChain].reverse().map(summary),
    };
    response.section('networkRequest', formatRequestDetail(detail), {summary: summary(record), detail});
  },
});

/** The request body as shown, or the file it was saved to. */
async function requestBodyText(
  postData: string | undefined,
  filePath: string | undefined,
  files: ToolFiles,
): Promise<BodyText> {
  if (postData === undefined) {
    return {text: '<Request body not available anymore>'};
  }
  if (filePath) {
    return {savedTo: await files.save(postData, filePath, '.network-request')};
  }
  return {text: truncate(postData, BODY_INLINE_LIMIT)};
}

/** The response body as shown (text, or why it is not), or the file it was saved to. */
async function responseBodyText(
  body: Buffer | undefined,
  filePath: string | undefined,
  files: ToolFiles,
): Promise<BodyText> {
  if (filePath) {
    return body
      ? {savedTo: await files.save(body, filePath, '.network-response')}
      : {text: '<Response body not available anymore>'};
  }
  if (!body) {
    return {text: '<not available anymore>'};
  }
  if (!isUtf8(body)) {
    return {text: '<binary data>'};
  }
  const text = body.toString('utf8');
  return {text: text.length === 0 ? '<empty response>' : truncate(text, BODY_INLINE_LIMIT)};
}
