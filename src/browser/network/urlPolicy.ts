import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {debug} from '../../util/logger.js';
import {normalizeUrlPattern, parseUrlPatternFlag} from '../../util/urlPattern.js';
import {BlockedLog, watchBlocked} from './blockedLog.js';

type Conditions = Protocol.Network.NetworkConditions;

/** Throughput and latency of an emulated network, as CDP takes them. */
export interface Throttle {
  offline: boolean;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

export const NO_THROTTLE: Throttle = {offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1};

interface Matcher {
  test(url: string): boolean;
}

/**
 * The --blockedUrlPattern / --allowedUrlPattern configuration (URLPattern
 * syntax). Chrome enforces it on every page, frame and worker session
 * through rule-based network conditions (a blocked request fails as if
 * offline); this object also answers "is this URL allowed?" for the clear
 * navigation message and for source maps we fetch ourselves.
 */
export class UrlPolicy {
  /** What the policy blocked that pages and workers started by themselves. */
  readonly blocked = new BlockedLog();
  #matchers: Promise<{blocked: Matcher[]; allowed: Matcher[]}> | undefined;
  /** The patterns in URLPattern syntax, as Chrome's rules take them (globs and paths rewritten). */
  readonly #chromeBlocked: readonly string[];
  readonly #chromeAllowed: readonly string[];

  constructor(
    readonly blockedPatterns: readonly string[],
    readonly allowedPatterns: readonly string[],
  ) {
    this.#chromeBlocked = blockedPatterns.map(pattern => normalizeUrlPattern(pattern));
    this.#chromeAllowed = allowedPatterns.map(pattern => normalizeUrlPattern(pattern));
  }

  get active(): boolean {
    return this.blockedPatterns.length > 0 || this.allowedPatterns.length > 0;
  }

  /** Throws with the offending flag when a pattern is not valid URLPattern syntax. */
  async validate(): Promise<void> {
    await this.#compile();
  }

  async isAllowed(url: string): Promise<boolean> {
    if (!this.active || !url || url === 'about:blank') {
      return true;
    }
    const {blocked, allowed} = await this.#compile();
    if (blocked.some(m => safeTest(m, url))) {
      return false;
    }
    return allowed.length === 0 || allowed.some(m => safeTest(m, url));
  }

  /**
   * Rules for Network.emulateNetworkConditionsByRule: blocked patterns go
   * offline first (first match wins), then the page's throttling applies to
   * what remains; with an allow-list everything not allowed goes offline.
   */
  rules(throttle: Throttle | undefined): Conditions[] {
    const offline: Conditions = {urlPattern: '', ...NO_THROTTLE, offline: true};
    const rules: Conditions[] = this.#chromeBlocked.map(urlPattern => ({...offline, urlPattern}));
    if (this.#chromeAllowed.length > 0) {
      rules.push(...this.#chromeAllowed.map(urlPattern => ({urlPattern, ...(throttle ?? NO_THROTTLE)})));
      rules.push(offline);
    } else if (throttle) {
      rules.push({urlPattern: '', ...throttle});
    }
    return rules;
  }

  /**
   * The policy as Network.setBlockedURLs patterns (first match wins), which
   * workers get besides the rules: a shared worker's own requests are out of
   * the network conditions' reach (test/e2e/security/envelope.test.ts).
   */
  blockPatterns(): Protocol.Network.BlockPattern[] {
    const patterns = this.#chromeBlocked.map(urlPattern => ({urlPattern, block: true}));
    if (this.#chromeAllowed.length > 0) {
      patterns.push(...this.#chromeAllowed.map(urlPattern => ({urlPattern, block: false})));
      patterns.push({urlPattern: '*://*:*/*', block: true});
    }
    return patterns;
  }

  #compile(): Promise<{blocked: Matcher[]; allowed: Matcher[]}> {
    this.#matchers ??= (async () => {
      if (!this.active) {
        return {blocked: [], allowed: []};
      }
      const compile = (flag: string, patterns: readonly string[]) =>
        patterns.map(pattern => parseUrlPatternFlag(pattern, flag));
      return {
        blocked: compile('blockedUrlPattern', this.blockedPatterns),
        allowed: compile('allowedUrlPattern', this.allowedPatterns),
      };
    })();
    return this.#matchers;
  }
}

function safeTest(matcher: Matcher, url: string): boolean {
  try {
    return matcher.test(url);
  } catch {
    return false;
  }
}

/**
 * Records what the policy blocks in `session` (a page's, or a worker's when
 * `pageTargetId` is undefined and `mainFrameId` too), and a worker whose own
 * script is blocked.
 */
export function watchPolicy(
  session: CdpSession,
  policy: UrlPolicy,
  page: {pageTargetId: string | undefined; mainFrameId?: string; hasNavigated?: () => boolean},
): () => void {
  if (!policy.active) {
    return () => undefined;
  }
  return watchBlocked(session, {isAllowed: url => policy.isAllowed(url), log: policy.blocked, ...page});
}

/** Records a worker (its script URL) the policy blocks. */
export function noteBlockedWorker(policy: UrlPolicy, url: string, pageTargetId: string | undefined): void {
  if (policy.active && url) {
    void policy.isAllowed(url).then(allowed => allowed || policy.blocked.add('worker', url, pageTargetId));
  }
}

/** Applies the policy to a worker's own session (workers fetch on their own). */
export async function applyUrlPolicy(
  session: CdpSession,
  policy: UrlPolicy,
  target: {type: string; url: string},
): Promise<void> {
  noteBlockedWorker(policy, target.url, undefined);
  watchPolicy(session, policy, {pageTargetId: undefined});
  await Promise.all([
    session.trySend('Network.enable'),
    session.trySend('Network.setBlockedURLs', {urlPatterns: policy.blockPatterns()}),
    session
      .send('Network.emulateNetworkConditionsByRule', {matchedNetworkConditions: policy.rules(undefined)})
      .catch((error: unknown) => debug(`URL policy not applied to ${target.type} ${target.url}`, error)),
  ]);
}
