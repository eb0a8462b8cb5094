import {extname} from 'node:path';

import * as v from 'valibot';

import type {NetworkMock} from '../browser/network/networkMocks.js';
import {formatMockList, type MockView} from '../response/formatNetwork.js';
import type {ToolPage} from './context.js';
import {definePageTool} from './defineTool.js';
import {parseHeaders} from './emulationParams.js';
import {scriptFreeMockHeaders} from './mockScripts.js';

/** Larger mock bodies belong on a real server. */
const MAX_MOCK_BODY_BYTES = 20 * 1024 * 1024;
/** Content types guessed from a body file's extension when none is given. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const patternEntry = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.description(`${what} URL with * wildcards ("https://a.com/users/*"), "**/api/x", "/api/x" or URLPattern.`),
  );

/** The page's origin, for patterns written as a path; undefined for about:blank, data: and the like. */
function originOf(url: string): string | undefined {
  try {
    const {origin} = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The mock's headers with one Content-Type: the parameter's, the header's, the body file's, or text. */
function withContentType(
  headers: Record<string, string>,
  contentType: string | undefined,
  bodyFilePath: string | undefined,
): Record<string, string> {
  const isType = (name: string) => name.toLowerCase() === 'content-type';
  if (contentType === undefined && Object.keys(headers).some(isType)) {
    return headers;
  }
  const type =
    contentType ??
    (bodyFilePath
      ? (TYPE_BY_EXTENSION[extname(bodyFilePath).toLowerCase()] ?? 'application/octet-stream')
      : 'text/plain; charset=utf-8');
  return {...Object.fromEntries(Object.entries(headers).filter(([name]) => !isType(name))), 'content-type': type};
}

function view(mock: NetworkMock): MockView {
  const type = Object.entries(mock.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return {...mock, contentType: type, bytes: mock.body.length};
}

const mockList = (page: ToolPage) => formatMockList(page.network.mocks().map(view), page.contextLabel);

export const mockNetworkRequest = definePageTool({
  name: 'mock_network_request',
  title: 'Mock network request',
  description:
    "Answer matching requests of the page's context with a given response, without the server. Newer mocks win.",
  annotations: {
    category: 'network',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  beyondReference: true,
  sections: ['networkMocks'],
  blockedByDialog: false,
  filePaths: ['bodyFilePath'],
  schema: {
    urlPattern: patternEntry('Requests to answer:'),
    method: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]+$/, 'Expected an HTTP method such as GET or POST'),
        v.description('HTTP method. Default: any.'),
      ),
    ),
    status: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(200),
      v.maxValue(599),
      v.description('HTTP status of the answer, 200-599.'),
    ),
    headers: v.optional(v.pipe(v.string(), v.description('Headers as a JSON object.'))),
    contentType: v.optional(v.pipe(v.string(), v.description('Default: from headers or body file, else text/plain.'))),
    body: v.optional(v.pipe(v.string(), v.description('Response body text. Not with bodyFilePath.'))),
    bodyFilePath: v.optional(
      v.pipe(v.string(), v.description('File whose bytes are the response body. Not with body.')),
    ),
    times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Remove after this many answers.'))),
  },
  async handler({params, page}, response, {config, files}) {
    if (params.body !== undefined && params.bodyFilePath !== undefined) {
      throw new Error('Give the response body either as "body" or as "bodyFilePath", not both.');
    }
    const body = params.bodyFilePath
      ? await files.read(params.bodyFilePath, MAX_MOCK_BODY_BYTES)
      : Buffer.from(params.body ?? '', 'utf8');
    const typed = withContentType(parseHeaders(params.headers ?? ''), params.contentType, params.bodyFilePath);
    const headers = config.javascriptEvaluation ? typed : scriptFreeMockHeaders(typed);
    const method = params.method?.toUpperCase();
    const origin = originOf(page.url);
    const mock = await page.network.mock({
      urlPattern: params.urlPattern,
      origin,
      method,
      status: params.status,
      headers,
      body,
      times: params.times,
    });
    const times = mock.times === undefined ? 'until cleared' : `${mock.times} time${mock.times === 1 ? '' : 's'}`;
    response.line(
      `Mocking ${method ?? 'all'} requests matching ${mock.urlPattern} in ${page.contextLabel} with status ${mock.status} (${body.length} bytes), ${times}.`,
    );
    if (mock.matchedAs !== mock.urlPattern) {
      response.line(`Matched as the URLPattern ${mock.matchedAs}.`);
    }
    if (!mock.reachesOrigin) {
      response.line(
        `Note: ${mock.urlPattern} can match no URL of this page's origin (${origin ?? ''}): only requests to other origins are answered. For this page's own requests, use a path such as "/api/*" or "**/api/*".`,
      );
    }
    response.section('networkMocks', mockList(page));
  },
});

export const clearNetworkMocks = definePageTool({
  name: 'clear_network_mocks',
  title: 'Clear network mocks',
  description: 'Remove the network mocks with exactly this urlPattern, or all of them.',
  annotations: {
    category: 'network',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  beyondReference: true,
  sections: ['networkMocks'],
  blockedByDialog: false,
  schema: {
    urlPattern: v.optional(
      v.pipe(v.string(), v.minLength(1), v.description('As given to mock_network_request; omit for all.')),
    ),
  },
  async handler({params, page}, response) {
    const before = page.network.mocks();
    if (params.urlPattern !== undefined && !before.some(m => m.urlPattern === params.urlPattern)) {
      const patterns = [...new Set(before.map(m => m.urlPattern))];
      throw new Error(
        `No network mock with urlPattern ${params.urlPattern} in ${page.contextLabel}. ${patterns.length ? `Active patterns: ${patterns.join(', ')}.` : 'There are no mocks.'} Omit urlPattern to remove all mocks.`,
      );
    }
    const removed = await page.network.clearMocks(params.urlPattern);
    response.line(
      `Removed ${removed.length} network mock${removed.length === 1 ? '' : 's'} from ${page.contextLabel}.`,
    );
    response.section('networkMocks', mockList(page));
  },
});
