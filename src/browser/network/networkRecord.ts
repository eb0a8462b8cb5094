import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {StringPool} from '../../util/intern.js';
import type {Identified} from './NavigationBuckets.js';

// What the collector keeps of a request, and how CDP's events fill it in.

/** Post data kept from requestWillBeSent (larger bodies are fetched on demand). */
export const MAX_POST_DATA_BYTES = 64 * 1024;

export interface ResponseInfo {
  status: number;
  statusText: string;
  /** Lower-cased names; the raw (extra-info) headers when Chrome sent them. */
  headers: Record<string, string>;
  mimeType: string;
  fromCache: boolean;
}

/** Milliseconds on Chrome's monotonic clock, plus the wall-clock start. */
export interface RequestTiming {
  startWallTimeMs: number;
  startMs: number;
  responseMs?: number;
  endMs?: number;
}

/** One request (one hop of a redirect chain is one record), merged from all its events. */
export interface NetworkRecord extends Identified {
  readonly id: number;
  /** Session that saw the request: bodies must be asked for there. */
  readonly session: CdpSession;
  readonly requestId: string;
  readonly url: string;
  readonly method: string;
  /** Lower-cased Network.ResourceType, e.g. "xhr", "document", "websocket". */
  readonly resourceType: string;
  readonly frameId: string | undefined;
  /** A main-document load of some frame (requestId equals its loaderId). */
  readonly isNavigation: boolean;
  /** requestWillBeSent headers, then the wire headers of the extra-info event; names lower-cased. */
  requestHeaders: Record<string, string>;
  readonly hasPostData: boolean;
  /** Inline post data, when Chrome sent it with the request (up to MAX_POST_DATA_BYTES). */
  readonly postData: string | undefined;
  /** Earlier hops of a redirect chain, oldest first. */
  readonly redirectChain: readonly NetworkRecord[];
  response: ResponseInfo | undefined;
  /** Chrome's errorText when the request failed. */
  failure: string | undefined;
  finished: boolean;
  /** This hop was answered with a redirect; the next hop has the same requestId. */
  redirected: boolean;
  /** Bytes received over the wire (when finished). */
  encodedDataLength: number | undefined;
  timing: RequestTiming;
  gotRequestExtra: boolean;
  gotResponseExtra: boolean;
  /** The URL pattern of the network mock that answered this request, if one did. */
  mockedBy: string | undefined;
  /** The body that mock answered with (Chrome keeps no body of a fulfilled request). */
  mockBody: Buffer | undefined;
}

/** What a network mock answered a request with. */
export interface MockAnswer {
  urlPattern: string;
  body: Buffer;
}

/**
 * Header names and values, MIME types, frame ids: the same few strings in
 * every request of a page, one copy each instead of one per request.
 */
const pool = new StringPool();

export function lowerCaseHeaders(headers: Protocol.Network.Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[pool.intern(name.toLowerCase())] = pool.intern(String(value));
  }
  return out;
}

function headerBytes(headers: Record<string, string>): number {
  let n = 0;
  for (const [k, v] of Object.entries(headers)) {
    n += k.length + v.length + 16;
  }
  return n;
}

export function mergeRequestHeaders(record: NetworkRecord, extra: Record<string, string>): void {
  // Names already sent with requestWillBeSent keep their position; wire-only headers follow.
  // Not `{...a, ...b}`: V8 grows that object's property store header by
  // header, and keeps it some 370 bytes larger (20 headers) than
  // Object.assign does. Over the bench's 500-request navigations the spread
  // was 7.8 MB of what reached V8's old generation in six navigations, this
  // 0.4 MB (sampling heap profiler).
  record.requestHeaders = Object.assign({}, record.requestHeaders, extra);
  record.gotRequestExtra = true;
}

export function applyResponseExtra(record: NetworkRecord, headers: Record<string, string>): void {
  record.gotResponseExtra = true;
  if (record.response) {
    // Each record has its own response (toResponse); set in place, no copy.
    record.response.headers = headers;
  }
}

export function toResponse(response: Protocol.Network.Response, headers: Record<string, string>): ResponseInfo {
  return {
    status: response.status,
    statusText: pool.intern(response.statusText),
    headers,
    mimeType: pool.intern(response.mimeType),
    fromCache: Boolean(response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker),
  };
}

export function estimate(record: NetworkRecord): number {
  return (
    256 +
    record.url.length * 2 +
    headerBytes(record.requestHeaders) * 2 +
    (record.response ? headerBytes(record.response.headers) * 2 : 0) +
    (record.postData?.length ?? 0) * 2
  );
}

/**
 * The previous hop of a redirected request ends with the redirect response
 * (its extra info may still come); its redirect chain, to continue.
 */
export function endHop(
  previous: NetworkRecord,
  redirectResponse: Protocol.Network.Response,
  timestamp: number,
): readonly NetworkRecord[] {
  previous.response = toResponse(
    redirectResponse,
    previous.response?.headers ?? lowerCaseHeaders(redirectResponse.headers),
  );
  previous.timing.responseMs ??= timestamp * 1000;
  previous.timing.endMs = timestamp * 1000;
  previous.finished = true;
  previous.redirected = true;
  return previous.redirectChain;
}

/** The record of a request's hop as it is sent (`chain`: the hops before it). */
export function newRecord(
  id: number,
  session: CdpSession,
  e: Protocol.Network.RequestWillBeSentEvent,
  chain: NetworkRecord[],
  mocked: MockAnswer | undefined,
): NetworkRecord {
  const type = e.type ?? 'Other';
  const postData = e.request.postData;
  return {
    id,
    session,
    requestId: e.requestId,
    url: e.request.url + (e.request.urlFragment ?? ''),
    method: pool.intern(e.request.method),
    resourceType: pool.intern(type.toLowerCase()),
    frameId: e.frameId === undefined ? undefined : pool.intern(e.frameId),
    isNavigation: e.requestId === e.loaderId && type === 'Document',
    requestHeaders: lowerCaseHeaders(e.request.headers),
    hasPostData: Boolean(e.request.hasPostData || postData),
    postData: postData !== undefined && postData.length <= MAX_POST_DATA_BYTES ? postData : undefined,
    redirectChain: chain,
    response: undefined,
    failure: undefined,
    finished: false,
    redirected: false,
    encodedDataLength: undefined,
    timing: {startWallTimeMs: e.wallTime * 1000, startMs: e.timestamp * 1000},
    gotRequestExtra: false,
    gotResponseExtra: false,
    mockedBy: mocked?.urlPattern,
    mockBody: mocked?.body,
    approxBytes: 0,
  };
}
