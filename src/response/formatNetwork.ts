/**
 * Pure formatters for network requests: the list line, the list section and
 * the detail view, in the reference's text formats, plus header redaction.
 */
import {paginate} from './format.js';

export interface RequestSummary {
  id: number;
  method: string;
  url: string;
  /** HTTP status, else the failure text, else "pending". */
  status: string;
  /** The URL pattern of the network mock that answered it (mock_network_request). */
  mockedBy?: string;
}

/** Inline bodies longer than this are cut, and say so. */
export const BODY_INLINE_LIMIT = 10_000;
/** List lines cut long URLs (data: URLs); the detail view shows them whole. */
export const URL_LIST_LIMIT = 255;
const TRUNCATED = '... <truncated>';

export function truncate(text: string, limit: number): string {
  return text.length > limit ? text.slice(0, limit) + TRUNCATED : text;
}

export function requestStatus(response: {status: number} | undefined, failure: string | undefined): string {
  if (response) {
    return String(response.status);
  }
  return failure ?? 'pending';
}

export function formatRequestLine(request: RequestSummary): string {
  const mocked = request.mockedBy === undefined ? '' : ` [mocked by ${request.mockedBy}]`;
  return `reqid=${request.id} ${request.method} ${truncate(request.url, URL_LIST_LIMIT)} [${request.status}]${mocked}`;
}

/** The `## Network requests` section. */
export function formatNetworkList(requests: RequestSummary[], pageSize?: number, pageIdx?: number): string[] {
  const lines = ['## Network requests'];
  if (requests.length === 0) {
    lines.push('No requests found.');
    return lines;
  }
  const page = paginate(requests, pageSize, pageIdx);
  lines.push(...page.lines, ...page.items.map(formatRequestLine));
  return lines;
}

/** A body section's content: inline text, a saved file, or a placeholder such as `<binary data>`. */
export type BodyText = {text: string} | {savedTo: string};

export interface RequestDetail {
  url: string;
  status: string;
  requestHeaders: Record<string, string>;
  /** Only when the request had post data. */
  requestBody?: BodyText;
  /** Only when a response arrived. */
  responseHeaders?: Record<string, string>;
  responseBody?: BodyText;
  failure?: string;
  /** Previous hops, most recent first. */
  redirectChain: RequestSummary[];
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `- ${name}:${value}`);
}

function bodyLines(body: BodyText): string[] {
  return ['savedTo' in body ? `Saved to ${body.savedTo}.` : body.text];
}

export function formatRequestDetail(detail: RequestDetail): string[] {
  const lines = [
    `## Request ${detail.url}`,
    `Status: ${detail.status}`,
    '### Request Headers',
    ...headerLines(detail.requestHeaders),
  ];
  if (detail.requestBody) {
    lines.push('### Request Body', ...bodyLines(detail.requestBody));
  }
  if (detail.responseHeaders) {
    lines.push('### Response Headers', ...headerLines(detail.responseHeaders));
  }
  if (detail.responseBody) {
    lines.push('### Response Body', ...bodyLines(detail.responseBody));
  }
  if (detail.failure) {
    lines.push('### Request failed with', detail.failure);
  }
  if (detail.redirectChain.length > 0) {
    lines.push(
      '### Redirect chain',
      ...detail.redirectChain.map((hop, i) => `${'  '.repeat(i)}${formatRequestLine(hop)}`),
    );
  }
  return lines;
}

/**
 * Headers whose values are safe to show with --redactNetworkHeaders (the
 * allow-list DevTools uses before sharing requests with an AI assistant).
 * Every other value becomes `<redacted>`.
 */
const SAFE_HEADERS = new Set([
  ':authority',
  ':method',
  ':path',
  ':scheme',
  'a-im',
  'accept-ch',
  'accept-charset',
  'accept-datetime',
  'accept-encoding',
  'accept-language',
  'accept-patch',
  'accept-ranges',
  'accept',
  'access-control-allow-credentials',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-max-age',
  'access-control-request-headers',
  'access-control-request-method',
  'age',
  'allow',
  'alt-svc',
  'cache-control',
  'connection',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-location',
  'content-range',
  'content-security-policy',
  'content-type',
  'correlation-id',
  'date',
  'delta-base',
  'dnt',
  'expect-ct',
  'expect',
  'expires',
  'forwarded',
  'front-end-https',
  'host',
  'http2-settings',
  'if-modified-since',
  'if-range',
  'if-unmodified-source',
  'im',
  'last-modified',
  'link',
  'location',
  'max-forwards',
  'nel',
  'origin',
  'permissions-policy',
  'pragma',
  'preference-applied',
  'proxy-connection',
  'public-key-pins',
  'range',
  'referer',
  'refresh',
  'report-to',
  'retry-after',
  'save-data',
  'sec-gpc',
  'server',
  'status',
  'strict-transport-security',
  'te',
  'timing-allow-origin',
  'tk',
  'trailer',
  'transfer-encoding',
  'upgrade-insecure-requests',
  'upgrade',
  'user-agent',
  'vary',
  'via',
  'warning',
  'www-authenticate',
  'x-att-deviceid',
  'x-content-duration',
  'x-content-security-policy',
  'x-content-type-options',
  'x-correlation-id',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-frame-options',
  'x-http-method-override',
  'x-powered-by',
  'x-redirected-by',
  'x-request-id',
  'x-requested-with',
  'x-ua-compatible',
  'x-wap-profile',
  'x-webkit-csp',
  'x-xss-protection',
]);

export const REDACTED = '<redacted>';

export function isSafeHeader(name: string): boolean {
  return SAFE_HEADERS.has(name.toLowerCase());
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isSafeHeader(name) ? value : REDACTED;
  }
  return out;
}

/** A network mock as its list shows it. */
export interface MockView {
  id: number;
  urlPattern: string;
  method?: string;
  status: number;
  contentType: string | undefined;
  bytes: number;
  used: number;
  times?: number;
}

/** The `## Network mocks` section: the context's active mocks, newest (winning) first. */
export function formatMockList(mocks: MockView[], context: string): string[] {
  const lines = ['## Network mocks'];
  if (mocks.length === 0) {
    lines.push(`No network mocks in ${context}.`);
    return lines;
  }
  for (const m of mocks) {
    const type = m.contentType ? `${m.contentType}, ` : '';
    const uses = m.times === undefined ? `answered ${m.used}` : `answered ${m.used} of ${m.times}`;
    lines.push(
      `mock=${m.id} ${m.method ?? 'any method'} ${m.urlPattern} → ${m.status} (${type}${m.bytes} bytes; ${uses})`,
    );
  }
  return lines;
}
