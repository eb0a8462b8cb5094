/**
 * Network mocks of a browser context (mock_network_request): requests whose
 * URL matches a mock's URLPattern (and method) are answered by the mock
 * through the Fetch domain, on every session of the context's pages (page,
 * out-of-process frames; dedicated workers' requests pause on their page).
 * Fetch is enabled only while mocks exist, with globs that let Chrome pause
 * only requests that may match; others never stop. A URL the URL policy
 * blocks is never answered by a mock: it goes on to fail as blocked.
 */
import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {debug} from '../../util/logger.js';
import {compileRequestPattern, fetchGlob, reachesOrigin, type UrlMatcher} from './urlPattern.js';
import type {UrlPolicy} from './urlPolicy.js';

export interface MockSpec {
  /** As the caller wrote it (clear_network_mocks takes it back). */
  urlPattern: string;
  /** The origin a path pattern is relative to: the calling page's. */
  origin?: string;
  /** Upper-case; undefined matches every method. */
  method?: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** How many requests to answer before the mock removes itself; undefined = no limit. */
  times?: number;
}

export interface NetworkMock extends MockSpec {
  readonly id: number;
  /** The pattern in URLPattern syntax, as matched (globs and a path rewritten). */
  readonly matchedAs: string;
  /** False when the pattern can match no URL of `origin`. */
  readonly reachesOrigin: boolean;
  /** Requests answered so far. */
  used: number;
}

interface LiveMock extends NetworkMock {
  matcher: UrlMatcher;
  glob: string;
}

/** Told about each request a mock answered (the Network domain's request id). */
export type MockedListener = (networkId: string, mock: NetworkMock) => void;

interface Attached {
  onMocked: MockedListener;
  off: () => void;
}

let nextMockId = 1;

/** The mocks of one browser context and the sessions they apply to. */
export class MockSet {
  #mocks: LiveMock[] = [];
  readonly #sessions = new Map<CdpSession, Attached>();

  constructor(readonly policy: UrlPolicy) {}

  list(): readonly NetworkMock[] {
    return this.#mocks;
  }

  /** Adds a mock (newer mocks win over older ones) and makes every session pause for it. */
  async add(spec: MockSpec): Promise<NetworkMock> {
    const matcher = await compileRequestPattern(spec.urlPattern, spec.origin);
    const mock: LiveMock = {
      ...spec,
      id: nextMockId++,
      used: 0,
      matcher,
      glob: fetchGlob(matcher),
      matchedAs: matcher.source,
      reachesOrigin: spec.origin === undefined || reachesOrigin(matcher, spec.origin),
    };
    this.#mocks = [mock, ...this.#mocks];
    await this.#sync();
    return mock;
  }

  /** Removes the mocks with this exact pattern (all when undefined); returns them. */
  async clear(urlPattern?: string): Promise<NetworkMock[]> {
    const removed = this.#mocks.filter(m => urlPattern === undefined || m.urlPattern === urlPattern);
    this.#mocks = this.#mocks.filter(m => !removed.includes(m));
    await this.#sync();
    return removed;
  }

  /**
   * Starts answering paused requests of a session; returns the command that
   * turns interception on for it (to send before the target resumes).
   */
  attach(session: CdpSession, onMocked: MockedListener): Promise<unknown> {
    const off = session.on('Fetch.requestPaused', event => void this.#onPaused(session, event));
    this.#sessions.set(session, {onMocked, off});
    session.onDetached(() => this.detach(session));
    return this.#mocks.length ? this.#enable(session) : Promise.resolve();
  }

  detach(session: CdpSession): void {
    this.#sessions.get(session)?.off();
    this.#sessions.delete(session);
  }

  #enable(session: CdpSession): Promise<unknown> {
    const globs = [...new Set(this.#mocks.map(m => m.glob))];
    // Workers have no Fetch domain (their requests pause on their page): that failure is expected.
    return session.trySend('Fetch.enable', {
      patterns: globs.map(urlPattern => ({urlPattern, requestStage: 'Request' as const})),
    });
  }

  async #sync(): Promise<void> {
    const sessions = [...this.#sessions.keys()].filter(s => !s.detached);
    await Promise.all(sessions.map(s => (this.#mocks.length ? this.#enable(s) : s.trySend('Fetch.disable'))));
  }

  #match(url: string, method: string): LiveMock | undefined {
    return this.#mocks.find(
      m =>
        (m.times === undefined || m.used < m.times) &&
        (m.method === undefined || m.method === method) &&
        safeTest(m.matcher, url),
    );
  }

  async #onPaused(session: CdpSession, event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const {requestId, request, networkId} = event;
    const url = request.url + (request.urlFragment ?? '');
    const headers = lowerCaseKeys(request.headers);
    const method = request.method.toUpperCase();
    // A CORS preflight asks for the method the real request will use.
    const preflightFor = method === 'OPTIONS' ? headers['access-control-request-method']?.toUpperCase() : undefined;
    // Match and count with no await in between: concurrent requests must not overrun `times`.
    const allowed = await this.policy.isAllowed(url);
    const mock = allowed ? this.#match(url, preflightFor ?? method) : undefined;
    if (!mock) {
      await session.trySend('Fetch.continueRequest', {requestId});
      return;
    }
    const cors = corsHeaders(mock.headers, headers, preflightFor);
    if (preflightFor === undefined) {
      mock.used++;
      if (mock.times !== undefined && mock.used >= mock.times) {
        void this.clearMock(mock);
      }
    }
    if (networkId && preflightFor === undefined) {
      this.#sessions.get(session)?.onMocked(networkId, mock);
    }
    try {
      await session.send('Fetch.fulfillRequest', {
        requestId,
        responseCode: preflightFor === undefined ? mock.status : PREFLIGHT_STATUS,
        responseHeaders: Object.entries(preflightFor === undefined ? {...mock.headers, ...cors} : cors).map(
          ([name, value]) => ({name, value}),
        ),
        body: preflightFor === undefined ? mock.body.toString('base64') : '',
      });
    } catch (error) {
      debug(`mock ${mock.urlPattern} could not answer ${url}`, error);
      await session.trySend('Fetch.continueRequest', {requestId});
    }
  }

  /** Removes one mock (used up). */
  async clearMock(mock: NetworkMock): Promise<void> {
    this.#mocks = this.#mocks.filter(m => m !== mock);
    await this.#sync();
  }
}

/** Status of the answer to a preflight of a mocked request. */
const PREFLIGHT_STATUS = 204;

function lowerCaseKeys(headers: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * CORS headers that let the page read a mock of a cross-origin URL (as the
 * real API would have to), unless the mock sets them itself. For a preflight,
 * also the methods and headers the page asked for.
 */
function corsHeaders(
  mockHeaders: Record<string, string>,
  request: Record<string, string | undefined>,
  preflightFor: string | undefined,
): Record<string, string> {
  const origin = request['origin'];
  const given = new Set(Object.keys(mockHeaders).map(k => k.toLowerCase()));
  if (!origin || given.has('access-control-allow-origin')) {
    return {};
  }
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
  };
  if (preflightFor !== undefined) {
    headers['access-control-allow-methods'] = preflightFor;
    headers['access-control-allow-headers'] = request['access-control-request-headers'] ?? '*';
  }
  return headers;
}

function safeTest(matcher: UrlMatcher, url: string): boolean {
  try {
    return matcher.test(url);
  } catch {
    return false;
  }
}

/** The mock sets of a browser, one per browser context. */
export class BrowserMocks {
  readonly #sets = new Map<string, MockSet>();

  constructor(readonly policy: UrlPolicy) {}

  forContext(browserContextId: string | undefined): MockSet {
    const key = browserContextId ?? '';
    let set = this.#sets.get(key);
    if (!set) {
      set = new MockSet(this.policy);
      this.#sets.set(key, set);
    }
    return set;
  }

  /** Drops the mocks of a context that is gone (an ended session's). */
  forget(browserContextId: string): void {
    this.#sets.delete(browserContextId);
  }
}
