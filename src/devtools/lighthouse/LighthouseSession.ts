import type {CdpCommand, Protocol} from '../../../protocol/index.js';
import type {Page} from '../../browser/core/Page.js';
import type {CdpConnection, CdpSession} from '../../cdp/CdpConnection.js';
import {CdpProtocolError, TargetClosedError} from '../../cdp/errors.js';
import {debug} from '../../util/logger.js';

type Handler = (...args: never[]) => void;

/** Bound of the attach/detach commands the adapter sends itself. */
const ATTACH_TIMEOUT_MS = 10_000;

/**
 * The sessions one Lighthouse run opened: its root session to the page and
 * the child sessions Chrome auto-attached under it. Disposing detaches them
 * all, whatever state Lighthouse left them in.
 */
export class LighthouseSessions {
  readonly #open = new Set<LighthouseCdpSession>();
  #disposed = false;

  constructor(readonly connection: CdpConnection) {}

  /** What `page.target().createCDPSession()` does in Puppeteer: a new flat session to the tab. */
  async attach(page: Page): Promise<LighthouseCdpSession> {
    if (this.#disposed) {
      throw new Error('The Lighthouse run was stopped.');
    }
    // Announced first: Chrome reports the attach before it answers, and the
    // browser model must not take this session for a new page.
    page.auxiliaryAttaches++;
    let session: CdpSession;
    try {
      session = await this.connection.attachToTarget(page.targetId, 'page', ATTACH_TIMEOUT_MS);
    } catch (error) {
      page.auxiliaryAttaches--;
      throw error;
    }
    return this.adopt(session);
  }

  /** @internal Wraps a session of this run: the root, or a child auto-attached under `parent`. */
  adopt(session: CdpSession, parent?: CdpSession): LighthouseCdpSession {
    const adapter = new LighthouseCdpSession(session, this, parent);
    if (this.#disposed) {
      // Attached after the run was stopped (a run that timed out goes on for a while).
      void adapter.detach();
      return adapter;
    }
    this.#open.add(adapter);
    session.onDetached(() => this.#open.delete(adapter));
    return adapter;
  }

  /** Detaches every session still open, children first; later ones are refused or detached at once. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const open = [...this.#open];
    this.#open.clear();
    await Promise.all(open.filter(a => a.isChild).map(a => a.detach()));
    await Promise.all(open.filter(a => !a.isChild).map(a => a.detach()));
  }
}

/**
 * The part of Puppeteer's CDPSession Lighthouse uses, over one of our flat
 * sessions: `send` with a timeout, listeners per event and for every event
 * ('*' gets method and params), 'sessionattached' for targets Chrome
 * auto-attaches under it, and `detach`.
 */
export class LighthouseCdpSession {
  readonly #session: CdpSession;
  readonly #sessions: LighthouseSessions;
  readonly #handlers = new Map<string, Set<Handler>>();
  readonly #off: () => void;
  readonly #parent: CdpSession | undefined;

  constructor(session: CdpSession, sessions: LighthouseSessions, parent?: CdpSession) {
    this.#session = session;
    this.#sessions = sessions;
    this.#parent = parent;
    this.#off = session.onAnyEvent(({method, params}) => this.#onEvent(method, params));
    session.onDetached(() => this.#off());
  }

  id(): string {
    return this.#session.id;
  }

  get isChild(): boolean {
    return this.#parent !== undefined;
  }

  async send(method: string, params?: object, options?: {timeout?: number}): Promise<unknown> {
    try {
      return await this.#session.send(method as CdpCommand, params, options?.timeout);
    } catch (error) {
      throw toPuppeteerError(method, error);
    }
  }

  on(event: string, handler: Handler): this {
    let set = this.#handlers.get(event);
    if (!set) {
      set = new Set();
      this.#handlers.set(event, set);
    }
    set.add(handler);
    return this;
  }

  off(event: string, handler: Handler): this {
    this.#handlers.get(event)?.delete(handler);
    return this;
  }

  once(event: string, handler: Handler): this {
    const wrapper = ((...args: never[]) => {
      this.off(event, wrapper);
      handler(...args);
    }) as Handler;
    return this.on(event, wrapper);
  }

  async detach(): Promise<void> {
    this.#off();
    this.#handlers.clear();
    const session = this.#session;
    if (!this.#parent) {
      await session.connection.detachFromTarget(session, ATTACH_TIMEOUT_MS);
      return;
    }
    // A child belongs to the session that auto-attached it; it goes when that one does.
    if (!session.detached && !this.#parent.detached) {
      await this.#parent.trySend('Target.detachFromTarget', {sessionId: session.id}, ATTACH_TIMEOUT_MS);
    }
    session.connection.detachSession(session.id);
  }

  #onEvent(method: string, params: unknown): void {
    if (method === 'Target.attachedToTarget') {
      const {sessionId, targetInfo} = params as Protocol.Target.AttachedToTargetEvent;
      const child = this.#sessions.adopt(
        this.#session.connection.session(sessionId, targetInfo.targetId, targetInfo.type),
        this.#session,
      );
      this.#emit('sessionattached', child);
    }
    this.#emit(method, params);
    this.#emit('*', method, params);
  }

  #emit(event: string, ...args: unknown[]): void {
    for (const handler of [...(this.#handlers.get(event) ?? [])]) {
      try {
        (handler as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        debug(`Lighthouse listener for ${event} threw`, error);
      }
    }
  }
}

/** Errors in the shape Lighthouse inspects (it matches Puppeteer's messages, e.g. /Target closed/). */
function toPuppeteerError(method: string, error: unknown): Error {
  if (error instanceof CdpProtocolError) {
    return Object.assign(new Error(error.protocolMessage), {data: error.data, code: error.code});
  }
  if (error instanceof TargetClosedError) {
    return new Error(`Protocol error (${method}): Target closed`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
