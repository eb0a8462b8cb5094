/**
 * What the URL policy blocked that a page started by itself (requests,
 * WebSockets, EventSources, workers, new windows), so that the response of
 * the call during which it happened can say so. Chrome enforces the policy
 * (urlPolicy.ts); this only watches the sessions for what it blocks.
 */
import type {CdpSession} from '../../cdp/CdpConnection.js';

/** One thing the policy blocked. */
export interface BlockedEntry {
  readonly seq: number;
  /** websocket, eventsource, worker, window, navigation, frame, fetch, script, … */
  readonly kind: string;
  readonly url: string;
  /** The page (its target id) it happened in; undefined for a worker of no page. */
  readonly pageTargetId: string | undefined;
}

/** Entries kept at most: older ones are dropped. */
const MAX_ENTRIES = 500;

/** The browser's record of what the policy blocked. */
export class BlockedLog {
  readonly #entries: BlockedEntry[] = [];
  #seq = 0;

  add(kind: string, url: string, pageTargetId: string | undefined): void {
    this.#entries.push({seq: ++this.#seq, kind, url, pageTargetId});
    if (this.#entries.length > MAX_ENTRIES) {
      this.#entries.shift();
    }
  }

  /** Where a call begins: entries after it happened during the call. */
  mark(): number {
    return this.#seq;
  }

  /** What was blocked after `mark`, each kind and URL once. */
  since(mark: number): BlockedEntry[] {
    const seen = new Set<string>();
    return this.#entries.filter(entry => {
      const key = `${entry.kind} ${entry.url}`;
      if (entry.seq <= mark || seen.has(key)) {
        return false;
      }
      seen.add(key);
      return true;
    });
  }
}

/** What a session's requests are, for the policy's record. */
export interface WatchOptions {
  /** Whether the policy lets `url` load. */
  isAllowed(url: string): Promise<boolean>;
  log: BlockedLog;
  pageTargetId: string | undefined;
  /** The page's main frame (its documents are windows or navigations); undefined for workers. */
  mainFrameId?: string;
  /** Whether the page has shown a document yet: a first blocked document is a new window. */
  hasNavigated?: () => boolean;
}

/** The kind of a request, as the blocked section names it. */
function kindOf(type: string | undefined, frameId: string | undefined, options: WatchOptions): string {
  if (type === 'Document') {
    if (frameId !== options.mainFrameId) {
      return 'frame';
    }
    return options.hasNavigated?.() ? 'navigation' : 'window';
  }
  return (type ?? 'other').toLowerCase();
}

/** Records the requests of `session` that the policy blocks. Returns the unsubscribe. */
export function watchBlocked(session: CdpSession, options: WatchOptions): () => void {
  const note = (kind: string, url: string) => {
    void options.isAllowed(url).then(allowed => {
      if (!allowed) {
        options.log.add(kind, url, options.pageTargetId);
      }
    });
  };
  const offs = [
    session.on('Network.requestWillBeSent', ({request, type, frameId}) => {
      if (!request.url.startsWith('data:')) {
        note(kindOf(type, frameId, options), request.url);
      }
    }),
    session.on('Network.webSocketCreated', ({url}) => note('websocket', url)),
  ];
  return () => offs.forEach(off => off());
}
