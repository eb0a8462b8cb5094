import {isUtf8} from 'node:buffer';

import * as v from 'valibot';

import {requestBody, responseBody} from '../browser/bodies.js';
import type {NetworkRecord} from '../browser/collectors/NetworkCollector.js';
import {
  BODY_INLINE_LIMIT,
  type BodyText,
  formatNetworkList,
  formatRequestDetail,
  redactHeaders,
  requestStatus,
  type RequestSummary,
  truncate,
} from '../response/formatNetwork.js';
import {SECTION_ORDER} from '../response/ResponseBuilder.js';
import {definePageTool} from './defineTool.js';

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
  };
}

export const listNetworkRequests = definePageTool({
  name: 'list_network_requests',
  description:
    'List the network requests of the page since its last navigation (each redirect hop is its own entry), with reqids for get_network_request.',
  annotations: {category: 'network', readOnlyHint: true},
  blockedByDialog: false,
  schema: {
    pageSize: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description('Requests per page. Omit (with pageIdx) to list all.'),
      ),
    ),
    pageIdx: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description('0-based page to show. Default is the first page.')),
    ),
    resourceTypes: v.optional(
      v.pipe(
        v.array(v.picklist(RESOURCE_TYPES)),
        v.description('Only requests of these resource types. Omit or empty for all.'),
      ),
    ),
    includePreservedRequests: v.optional(
      v.pipe(
        v.boolean(),
        v.description('Also list requests of the last 2 navigations before the current one. Default is false.'),
      ),
    ),
  },
  async handler({params, page}, response) {
    const types = params.resourceTypes?.length ? new Set<string>(params.resourceTypes) : undefined;
    const requests = page.instrumentation.network
      .list(params.includePreservedRequests ?? false)
      .filter(record => !types || types.has(record.resourceType))
      .map(summary);
    response.section(SECTION_ORDER.networkList, formatNetworkList(requests, params.pageSize, params.pageIdx));
  },
});

export const getNetworkRequest = definePageTool({
  name: 'get_network_request',
  description:
    'Show one request by reqid (from list_network_requests): status, request and response headers and bodies, failure and redirect chain. Bodies can be saved to files instead.',
  annotations: {category: 'network', readOnlyHint: false},
  blockedByDialog: true,
  filePaths: ['requestFilePath', 'responseFilePath'],
  schema: {
    reqid: v.optional(v.pipe(v.number(), v.description('The reqid of a request from list_network_requests.'))),
    requestFilePath: v.optional(
      v.pipe(
        v.string(),
        v.description('Save the raw request body to this file (extension .network-request) instead of showing it.'),
      ),
    ),
    responseFilePath: v.optional(
      v.pipe(
        v.string(),
        v.description('Save the raw response body to this file (extension .network-response) instead of showing it.'),
      ),
    ),
  },
  async handler({params, page}, response, {files, config}) {
    if (!params.reqid) {
      throw new Error('Give the reqid of a request. Call list_network_requests to see them.');
    }
    const record = page.instrumentation.network.findById(params.reqid);
    if (!record) {
      throw new Error(
        `No request with reqid ${params.reqid} on page ${page.id}. Call list_network_requests to see the reqids.`,
      );
    }
    const redact = (headers: Record<string, string>) =>
      config.redactNetworkHeaders ? redactHeaders(headers) : headers;
    const [postData, body] = await Promise.all([requestBody(record), responseBody(record)]);
    let requestBodyText: BodyText | undefined;
    if (record.hasPostData) {
      if (postData === undefined) {
        requestBodyText = {text: '<Request body not available anymore>'};
      } else if (params.requestFilePath) {
        requestBodyText = {savedTo: await files.save(postData, params.requestFilePath, '.network-request')};
      } else {
        requestBodyText = {text: truncate(postData, BODY_INLINE_LIMIT)};
      }
    }
    let responseBodyText: BodyText | undefined;
    if (record.response && record.resourceType !== 'websocket') {
      if (params.responseFilePath) {
        responseBodyText = body
          ? {savedTo: await files.save(body, params.responseFilePath, '.network-response')}
          : {text: '<Response body not available anymore>'};
      } else if (!body) {
        responseBodyText = {text: '<not available anymore>'};
      } else if (!isUtf8(body)) {
        responseBodyText = {text: '<binary data>'};
      } else {
        const text = body.toString('utf8');
        responseBodyText = {text: text.length === 0 ? '<empty response>' : truncate(text, BODY_INLINE_LIMIT)};
      }
    }
    response.section(
      SECTION_ORDER.networkRequest,
      formatRequestDetail({
        url: record.url,
        status: requestStatus(record.response, record.failure),
        requestHeaders: redact(record.requestHeaders),
        requestBody: requestBodyText,
        responseHeaders: record.response ? redact(record.response.headers) : undefined,
        responseBody: responseBodyText,
        failure: record.failure,
        redirectChain: [...record.redirectChain].reverse().map(summary),
      }),
    );
  },
});
