import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {type Identified, NavigationBuckets} from './NavigationBuckets.js';

/** Requests kept per navigation (as the reference). */
export const MAX_REQUESTS_PER_NAVIGATION = 1_000;
/** Approximate memory budget of the records of one navigation. */
const MAX_BYTES_PER_NAVIGATION = 8 * 1024 * 1024;
/** Post data kept from requestWillBeSent (larger bodies are fetched on demand). */
export const MAX_POST_DATA_BYTES = 64 * 1024;
/** Requests whose extra-info events are still awaited; bounds the bookkeeping of odd event orders. */
const MAX_PENDING_EXTRA = 2_000;

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

function lowerCaseHeaders(headers: Protocol.Network.Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name.toLowerCase()] = String(value);
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

/**
 * Builds one record per request of a page (its own session and the sessions
 * of its out-of-process frames and workers), grouped by main-frame navigation.
 */
export class NetworkCollector {
  readonly buckets = new NavigationBuckets<NetworkRecord>({
    maxItems: MAX_REQUESTS_PER_NAVIGATION,
    maxBytes: MAX_BYTES_PER_NAVIGATION,
  });
  /** The latest hop of each live request, by `<sessionId>:<requestId>`. */
  readonly #active = new Map<string, NetworkRecord>();
  /** Finished requests whose extra-info events may still arrive (they can trail loadingFinished). */
  readonly #recent = new Map<string, NetworkRecord>();
  readonly #pendingRequestExtra = new Map<string, Array<Record<string, string>>>();
  readonly #pendingResponseExtra = new Map<string, Array<Record<string, string>>>();
  /** Mocked request ids whose record does not exist yet (the pause can come before requestWillBeSent). */
  readonly #pendingMocked = new Map<string, MockAnswer>();

  constructor(readonly mainFrameId: string) {}

  /** Subscribes to a session's network events; returns the unsubscribe function. */
  attach(session: CdpSession): () => void {
    const key = (requestId: string) => `${session.id}:${requestId}`;
    const offs = [
      session.on('Network.requestWillBeSent', e => this.#onRequest(session, key(e.requestId), e)),
      session.on('Network.requestWillBeSentExtraInfo', e => this.#onRequestExtra(key(e.requestId), e.headers)),
      session.on('Network.responseReceived', e => this.#onResponse(key(e.requestId), e)),
      session.on('Network.responseReceivedExtraInfo', e => this.#onResponseExtra(key(e.requestId), e.headers)),
      session.on('Network.loadingFinished', e =>
        this.#onDone(key(e.requestId), e.timestamp, undefined, e.encodedDataLength),
      ),
      session.on('Network.loadingFailed', e =>
        this.#onDone(key(e.requestId), e.timestamp, e.errorText || blockedText(e.blockedReason), undefined),
      ),
      session.on('Network.webSocketCreated', e => this.#onWebSocket(session, key(e.requestId), e)),
      session.on('Network.webSocketWillSendHandshakeRequest', e => {
        const record = this.#active.get(key(e.requestId));
        if (record) {
          record.requestHeaders = lowerCaseHeaders(e.request.headers);
          record.gotRequestExtra = true;
        }
      }),
      session.on('Network.webSocketHandshakeResponseReceived', e => {
        const record = this.#active.get(key(e.requestId));
        if (record) {
          record.response = {
            status: e.response.status,
            statusText: e.response.statusText,
            headers: lowerCaseHeaders(e.response.headers),
            mimeType: '',
            fromCache: false,
          };
          record.timing.responseMs = e.timestamp * 1000;
        }
      }),
      session.on('Network.webSocketClosed', e => this.#onDone(key(e.requestId), e.timestamp, undefined, undefined)),
      session.on('Network.webSocketFrameError', e => {
        const record = this.#active.get(key(e.requestId));
        if (record) {
          record.failure = e.errorMessage;
        }
      }),
    ];
    return () => {
      for (const off of offs) {
        off();
      }
    };
  }

  /**
   * A main-frame cross-document navigation committed: the last navigation
   * request of the main frame and everything after it belong to the new page.
   */
  onMainFrameNavigated(): void {
    const current = this.buckets.current();
    let from = -1;
    for (let i = current.length - 1; i >= 0; i--) {
      const record = current[i];
      if (record?.isNavigation && record.frameId === this.mainFrameId) {
        from = i;
        break;
      }
    }
    this.buckets.split(from);
  }

  list(includePreserved: boolean): NetworkRecord[] {
    return this.buckets.list(includePreserved);
  }

  findById(id: number): NetworkRecord | undefined {
    return this.buckets.findById(id);
  }

  /** The record of a CDP request id (latest hop), e.g. to link DevTools issues to reqids. */
  findByRequestId(requestId: string): NetworkRecord | undefined {
    return this.buckets.find(r => r.requestId === requestId && !this.#isSuperseded(r));
  }

  #isSuperseded(record: NetworkRecord): boolean {
    const latest = this.#active.get(`${record.session.id}:${record.requestId}`);
    return latest !== undefined && latest !== record && latest.redirectChain.includes(record);
  }

  #onRequest(session: CdpSession, key: string, e: Protocol.Network.RequestWillBeSentEvent): void {
    const previous = this.#active.get(key);
    let chain: NetworkRecord[] = [];
    if (previous && e.redirectResponse) {
      // The previous hop ends with the redirect response; its extra info may still come.
      previous.response = toResponse(
        e.redirectResponse,
        previous.response?.headers ?? lowerCaseHeaders(e.redirectResponse.headers),
      );
      previous.timing.responseMs ??= e.timestamp * 1000;
      previous.timing.endMs = e.timestamp * 1000;
      previous.finished = true;
      previous.redirected = true;
      chain = [...previous.redirectChain, previous];
    }
    const type = e.type ?? 'Other';
    const postData = e.request.postData;
    const record: NetworkRecord = {
      id: this.buckets.nextId(),
      session,
      requestId: e.requestId,
      url: e.request.url + (e.request.urlFragment ?? ''),
      method: e.request.method,
      resourceType: type.toLowerCase(),
      frameId: e.frameId,
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
      mockedBy: this.#pendingMocked.get(e.requestId)?.urlPattern,
      mockBody: this.#pendingMocked.get(e.requestId)?.body,
      approxBytes: 0,
    };
    this.#pendingMocked.delete(e.requestId);
    const pending = this.#pendingRequestExtra.get(key)?.shift();
    if (pending) {
      mergeRequestHeaders(record, pending);
    }
    const pendingResponse = this.#pendingResponseExtra.get(key);
    if (pendingResponse && pendingResponse.length > 0 && chain.length > 0) {
      // Extra info of a redirect response that came before its requestWillBeSent.
      for (const hop of chain) {
        if (!hop.gotResponseExtra) {
          applyResponseExtra(hop, pendingResponse.shift() ?? {});
          break;
        }
      }
    }
    record.approxBytes = estimate(record);
    this.#active.set(key, record);
    this.buckets.add(record);
  }

  /**
   * Marks the latest hop of a request as answered by a mock. The request id
   * is the Network one; a worker's request pauses on its page's session but
   * is reported by the worker's, so records are found by id alone.
   */
  markMocked(requestId: string, answer: MockAnswer): void {
    for (const record of [...this.#active.values(), ...this.#recent.values()]) {
      if (record.requestId === requestId) {
        record.mockedBy = answer.urlPattern;
        record.mockBody = answer.body;
        return;
      }
    }
    this.#pendingMocked.set(requestId, answer);
    if (this.#pendingMocked.size > MAX_PENDING_EXTRA) {
      const oldest = this.#pendingMocked.keys().next().value;
      if (oldest !== undefined) {
        this.#pendingMocked.delete(oldest);
      }
    }
  }

  #onRequestExtra(key: string, headers: Protocol.Network.Headers): void {
    const record = this.#active.get(key) ?? this.#recent.get(key);
    const target = record ? [...record.redirectChain, record].find(hop => !hop.gotRequestExtra) : undefined;
    if (target) {
      mergeRequestHeaders(target, lowerCaseHeaders(headers));
      return;
    }
    this.#queue(this.#pendingRequestExtra, key, lowerCaseHeaders(headers));
  }

  #onResponse(key: string, e: Protocol.Network.ResponseReceivedEvent): void {
    const record = this.#active.get(key);
    if (!record) {
      return;
    }
    record.response = toResponse(e.response, lowerCaseHeaders(e.response.headers));
    record.timing.responseMs = e.timestamp * 1000;
    if (!record.gotResponseExtra) {
      const pending = this.#pendingResponseExtra.get(key)?.shift();
      if (pending) {
        applyResponseExtra(record, pending);
      }
    }
  }

  #onResponseExtra(key: string, headers: Protocol.Network.Headers): void {
    const record = this.#active.get(key) ?? this.#recent.get(key);
    const lowered = lowerCaseHeaders(headers);
    const target = record
      ? [...record.redirectChain, record].find(hop => !hop.gotResponseExtra && hop.response)
      : undefined;
    if (target) {
      applyResponseExtra(target, lowered);
      return;
    }
    // Came before the response (or before the redirect's requestWillBeSent): kept for it.
    this.#queue(this.#pendingResponseExtra, key, lowered);
  }

  #onDone(key: string, timestamp: number, failure: string | undefined, encodedDataLength: number | undefined): void {
    const record = this.#active.get(key);
    if (!record) {
      return;
    }
    record.finished = true;
    record.timing.endMs = timestamp * 1000;
    if (failure !== undefined) {
      record.failure = failure;
    }
    if (encodedDataLength !== undefined) {
      record.encodedDataLength = encodedDataLength;
    }
    const before = record.approxBytes;
    record.approxBytes = estimate(record);
    if (this.buckets.current().includes(record)) {
      this.buckets.grew(record.approxBytes - before);
    }
    this.#active.delete(key);
    this.#pendingRequestExtra.delete(key);
    this.#pendingResponseExtra.delete(key);
    if (!record.gotRequestExtra || (record.response && !record.gotResponseExtra)) {
      this.#recent.set(key, record);
      if (this.#recent.size > MAX_PENDING_EXTRA) {
        const oldest = this.#recent.keys().next().value;
        if (oldest !== undefined) {
          this.#recent.delete(oldest);
        }
      }
    }
  }

  #onWebSocket(session: CdpSession, key: string, e: Protocol.Network.WebSocketCreatedEvent): void {
    const record: NetworkRecord = {
      id: this.buckets.nextId(),
      session,
      requestId: e.requestId,
      url: e.url,
      method: 'GET',
      resourceType: 'websocket',
      frameId: undefined,
      isNavigation: false,
      requestHeaders: {},
      hasPostData: false,
      postData: undefined,
      redirectChain: [],
      response: undefined,
      failure: undefined,
      finished: false,
      redirected: false,
      encodedDataLength: undefined,
      timing: {startWallTimeMs: Date.now(), startMs: 0},
      gotRequestExtra: false,
      gotResponseExtra: true,
      mockedBy: undefined,
      mockBody: undefined,
      approxBytes: 256 + e.url.length * 2,
    };
    this.#active.set(key, record);
    this.buckets.add(record);
  }

  #queue(map: Map<string, Array<Record<string, string>>>, key: string, headers: Record<string, string>): void {
    let list = map.get(key);
    if (!list) {
      if (map.size >= MAX_PENDING_EXTRA) {
        const oldest = map.keys().next().value;
        if (oldest !== undefined) {
          map.delete(oldest);
        }
      }
      list = [];
      map.set(key, list);
    }
    list.push(headers);
  }
}

/** Text for requests Chrome blocked without an errorText of its own. */
function blockedText(reason: string | undefined): string | undefined {
  return reason ? `net::ERR_BLOCKED_BY_CLIENT (${reason})` : undefined;
}

function mergeRequestHeaders(record: NetworkRecord, extra: Record<string, string>): void {
  // Names already sent with requestWillBeSent keep their position; wire-only headers follow.
  record.requestHeaders = {...record.requestHeaders, ...extra};
  record.gotRequestExtra = true;
}

function applyResponseExtra(record: NetworkRecord, headers: Record<string, string>): void {
  record.gotResponseExtra = true;
  if (record.response) {
    record.response = {...record.response, headers};
  }
}

function toResponse(response: Protocol.Network.Response, headers: Record<string, string>): ResponseInfo {
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    mimeType: response.mimeType,
    fromCache: Boolean(response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker),
  };
}

function estimate(record: NetworkRecord): number {
  return (
    256 +
    record.url.length * 2 +
    headerBytes(record.requestHeaders) * 2 +
    (record.response ? headerBytes(record.response.headers) * 2 : 0) +
    (record.postData?.length ?? 0) * 2
  );
}
