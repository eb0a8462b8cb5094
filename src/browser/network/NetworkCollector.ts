import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {NavigationBuckets} from './NavigationBuckets.js';
import {
  applyResponseExtra,
  endHop,
  estimate,
  lowerCaseHeaders,
  mergeRequestHeaders,
  type MockAnswer,
  type NetworkRecord,
  newRecord,
  toResponse,
} from './networkRecord.js';

/** Requests kept per navigation (as the reference). */
export const MAX_REQUESTS_PER_NAVIGATION = 1_000;
/** Approximate memory budget of the records of one navigation. */
const MAX_BYTES_PER_NAVIGATION = 8 * 1024 * 1024;
/** Requests whose extra-info events are still awaited; bounds the bookkeeping of odd event orders. */
const MAX_PENDING_EXTRA = 2_000;

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
    const chain =
      previous && e.redirectResponse ? [...endHop(previous, e.redirectResponse, e.timestamp), previous] : [];
    const mocked = this.#pendingMocked.get(e.requestId);
    this.#pendingMocked.delete(e.requestId);
    const record = newRecord(this.buckets.nextId(), session, e, chain, mocked);
    this.#applyPendingExtra(key, record, chain);
    record.approxBytes = estimate(record);
    this.#active.set(key, record);
    this.buckets.add(record);
  }

  /** Extra info that came before its requestWillBeSent: the request's headers, a redirect response's. */
  #applyPendingExtra(key: string, record: NetworkRecord, chain: NetworkRecord[]): void {
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
