import CDP from 'chrome-remote-interface';

import type {CdpCommand, CdpEvent, CdpEventParams, CdpParams, CdpResult} from '../../protocol/index.js';
import {CancelledError, withTimeout} from '../util/async.js';
import {debug} from '../util/logger.js';
import {CdpProtocolError, ConnectionClosedError, TargetClosedError} from './errors.js';
import {openHeaderSocket} from './headerSocket.js';
import {type CallOutcome, DEFAULT_COMMAND_TIMEOUT_MS, PendingCalls} from './pendingCalls.js';
import type {RawClient, RawEvent} from './rawClient.js';

export {DEFAULT_COMMAND_TIMEOUT_MS} from './pendingCalls.js';
/**
 * Bound of the WebSocket handshake. Generous: a Chrome attached through
 * chrome://inspect/#remote-debugging holds it until its user allows the connection.
 */
export const HANDSHAKE_TIMEOUT_MS = 60_000;

/**
 * How long a command may take (`timeout`, ms; 0 for unbounded) and the signal
 * of the tool call that sent it: when the client cancels the call, the
 * command is abandoned (Chrome's late answer is dropped) and rejects with a
 * CancelledError. A bare number is the timeout.
 */
export type SendOptions = number | {timeout?: number; signal?: AbortSignal};

function sendOptions(options: SendOptions | undefined): {timeout: number; signal: AbortSignal | undefined} {
  if (typeof options === 'number') {
    return {timeout: options, signal: undefined};
  }
  return {timeout: options?.timeout ?? DEFAULT_COMMAND_TIMEOUT_MS, signal: options?.signal};
}

type Listener = (params: never) => void;

/** Chrome's answer to a command for a session that no longer exists. */
const SESSION_GONE = 'Session with given id not found.';

/**
 * Tests (CDP_MCP_TRACE_CDP=1, with --logFile): every command is logged with
 * how many answers the connection had taken in before it went. Commands sent
 * together share that number, and one sent after awaiting an answer has a
 * larger one, whatever the machine's scheduling: test/support/cdpSends.ts
 * counts a call's round trips from it.
 */
const TRACE_SENDS = process.env['CDP_MCP_TRACE_CDP'] === '1';

/** Chrome's answer to a command (chrome-remote-interface's callback) as an outcome. */
function outcomeOf(method: string, sessionId: string | undefined, error: unknown, result: unknown): CallOutcome {
  if (error === true) {
    const e = result as {code?: number; message?: string; data?: string};
    // The target went away before Chrome read the command (its detach event may still be on its way).
    if (sessionId !== undefined && e.message === SESSION_GONE) {
      return {error: new TargetClosedError(`${method}: the target has closed.`)};
    }
    return {error: new CdpProtocolError(method, e.code, e.message ?? 'unknown error', e.data)};
  }
  if (error) {
    return {
      error:
        error instanceof Error && /closed/i.test(error.message)
          ? new ConnectionClosedError(`${method}: the browser connection is closed.`)
          : (error as Error),
    };
  }
  return {result};
}

/**
 * The protocol descriptor chrome-remote-interface builds its `client.Domain.method`
 * shorthands from. We only use `send()` and the raw event stream, which work
 * for every method without one: an empty descriptor spares reading and
 * keeping the 700 KB one (and, with `local`, fetching /json/protocol).
 */
const NO_SHORTHANDS = {version: {major: '1', minor: '3'}, domains: []} as unknown as CDP.Protocol;

/**
 * One connection to the browser target (a WebSocket, or a launched Chrome's
 * debugging pipe: see pipeClient.ts). Sessions of page and frame
 * targets are multiplexed on it (flat mode). Adds what chrome-remote-interface
 * lacks: a timeout on every command, rejection of pending commands when their
 * target detaches or the socket closes, and typed per-session event routing.
 */
export class CdpConnection {
  readonly #client: RawClient;
  readonly #pending = new PendingCalls();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #sessions = new Map<string, CdpSession>();
  readonly #closeHandlers = new Set<() => void>();
  #closed = false;
  /** Answers taken in so far (CDP_MCP_TRACE_CDP). */
  #answers = 0;

  static async connect(wsUrl: string, headers?: Record<string, string>): Promise<CdpConnection> {
    const opening: Promise<RawClient> = headers
      ? openHeaderSocket(wsUrl, headers)
      : CDP({target: wsUrl, local: true, protocol: NO_SHORTHANDS});
    const client = await withTimeout(
      opening,
      HANDSHAKE_TIMEOUT_MS,
      `The browser did not complete the WebSocket handshake within ${HANDSHAKE_TIMEOUT_MS / 1000} s.`,
    ).catch((error: unknown) => {
      // A handshake that completes after we gave up must not leave its socket open.
      void opening.then(late => late.close()).catch(() => undefined);
      throw error;
    });
    return new CdpConnection(client);
  }

  constructor(client: RawClient) {
    this.#client = client;
    client.on('event', message => this.#dispatch(message));
    client.on('disconnect', () => this.#onDisconnect());
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Open sessions and commands awaiting an answer (diagnostics, leak checks). */
  get stats(): {sessions: number; pending: number; listeners: number} {
    let listeners = 0;
    for (const set of this.#listeners.values()) {
      listeners += set.size;
    }
    return {sessions: this.#sessions.size, pending: this.#pending.size, listeners};
  }

  /** Sends a command to the browser target, or to a session when `sessionId` is given. */
  send<M extends CdpCommand>(
    method: M,
    params?: CdpParams<M>,
    sessionId?: string,
    options?: SendOptions,
  ): Promise<CdpResult<M>> {
    const {timeout, signal} = sendOptions(options);
    if (this.#closed) {
      return Promise.reject(new ConnectionClosedError(`${method}: the browser connection is closed.`));
    }
    if (sessionId !== undefined && this.#sessions.get(sessionId)?.detached) {
      return Promise.reject(new TargetClosedError(`${method}: the target has closed.`));
    }
    if (signal?.aborted) {
      return Promise.reject(new CancelledError());
    }
    const {id, answer} = this.#pending.add<CdpResult<M>>(method, sessionId, timeout, signal);
    if (TRACE_SENDS) {
      debug(`cdp send ${method} session=${sessionId ?? '-'} after=${this.#answers}`);
    }
    this.#client.send(method, params ?? {}, sessionId, (error, result) => {
      this.#answers++;
      this.#pending.settle(id, outcomeOf(method, sessionId, error, result));
    });
    return answer;
  }

  /** Subscribes to a browser-level event. Returns the unsubscribe function. */
  on<E extends CdpEvent>(event: E, listener: (params: CdpEventParams<E>) => void): () => void {
    return this.#subscribe(event, listener);
  }

  /** The session object for an attached target (created on first use). */
  session(sessionId: string, targetId: string, type: string): CdpSession {
    let session = this.#sessions.get(sessionId);
    if (!session) {
      session = new CdpSession(this, sessionId, targetId, type);
      this.#sessions.set(sessionId, session);
    }
    return session;
  }

  findSession(sessionId: string): CdpSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /**
   * Opens an extra flat session to a target we may already drive (for a
   * client with its own domain state, such as Lighthouse). Chrome also
   * reports it as Target.attachedToTarget: whoever tracks the target must be
   * told beforehand not to take it for a new one.
   */
  async attachToTarget(targetId: string, type: string, timeoutMs?: number): Promise<CdpSession> {
    const {sessionId} = await this.send('Target.attachToTarget', {targetId, flatten: true}, undefined, timeoutMs);
    return this.session(sessionId, targetId, type);
  }

  /** Detaches a session we opened (best effort) and forgets it. */
  async detachFromTarget(session: CdpSession, timeoutMs?: number): Promise<void> {
    if (!session.detached && !this.#closed) {
      await this.send('Target.detachFromTarget', {sessionId: session.id}, undefined, timeoutMs).catch(
        (error: unknown) =>
          debug('Target.detachFromTarget failed (ignored)', error instanceof Error ? error.message : error),
      );
    }
    this.detachSession(session.id);
  }

  onClose(handler: () => void): () => void {
    this.#closeHandlers.add(handler);
    return () => this.#closeHandlers.delete(handler);
  }

  /** Marks a session detached and fails its pending commands. */
  detachSession(sessionId: string): void {
    const session = this.#sessions.get(sessionId);
    this.#sessions.delete(sessionId);
    this.#pending.failSession(
      sessionId,
      method => new TargetClosedError(`${method}: the target closed before answering.`),
    );
    session?.markDetached();
  }

  async close(): Promise<void> {
    if (this.#closed) {
      return;
    }
    try {
      await this.#client.close();
    } catch (error) {
      debug('closing the CDP socket failed', error);
    }
    this.#onDisconnect();
  }

  /** @internal used by CdpSession */
  subscribe(key: string, listener: Listener): () => void {
    return this.#subscribe(key, listener);
  }

  #subscribe(key: string, listener: Listener): () => void {
    let set = this.#listeners.get(key);
    if (!set) {
      set = new Set();
      this.#listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(key) === set) {
        this.#listeners.delete(key);
      }
    };
  }

  #dispatch(message: RawEvent): void {
    if (message.method === 'Target.detachedFromTarget') {
      const {sessionId} = message.params as {sessionId: string};
      // Deliver first so owners can still see which session it was.
      this.#emit(message.method, message.params);
      this.detachSession(sessionId);
      return;
    }
    const key = message.sessionId ? `${message.sessionId}:${message.method}` : message.method;
    this.#emit(key, message.params);
    if (message.sessionId) {
      this.#emit(`${message.sessionId}:*`, message);
    }
  }

  #emit(key: string, params: unknown): void {
    const set = this.#listeners.get(key);
    if (!set) {
      return;
    }
    for (const listener of [...set]) {
      try {
        (listener as (p: unknown) => void)(params);
      } catch (error) {
        debug(`listener for ${key} threw`, error);
      }
    }
  }

  #onDisconnect(): void {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    this.#pending.failAll(method => new ConnectionClosedError(`${method}: the browser connection closed.`));
    for (const session of this.#sessions.values()) {
      session.markDetached();
    }
    this.#sessions.clear();
    for (const handler of this.#closeHandlers) {
      handler();
    }
  }
}

/** A flat session bound to one attached target (page, iframe, worker). */
export class CdpSession {
  #detached = false;
  readonly #detachHandlers = new Set<() => void>();
  /**
   * The bound of a command sent without one (ms): DEFAULT_COMMAND_TIMEOUT_MS
   * unless set (a page's session: the bound of its answers, --pageCallTimeout).
   */
  defaultTimeoutMs: number | undefined;
  /** Domains turned on through enableOnce: the answer of the first call, shared. */
  readonly #enabled = new Map<string, Promise<unknown>>();

  constructor(
    readonly connection: CdpConnection,
    readonly id: string,
    readonly targetId: string,
    readonly type: string,
  ) {}

  get detached(): boolean {
    return this.#detached;
  }

  /** `ms`, or the session's default bound when shorter: the bound of a question its target answers at once. */
  answerBound(ms: number): number {
    return Math.min(ms, this.defaultTimeoutMs ?? ms);
  }

  send<M extends CdpCommand>(method: M, params?: CdpParams<M>, options?: SendOptions): Promise<CdpResult<M>> {
    const timeout = this.defaultTimeoutMs;
    const bounded =
      timeout === undefined || typeof options === 'number' || options?.timeout !== undefined
        ? options
        : {...options, timeout};
    return this.connection.send(method, params, this.id, bounded);
  }

  /**
   * Turns a domain on once for this session (`Performance.enable`, ...): later
   * calls share the first one's answer, and a failed one is forgotten, so the
   * next call asks again.
   */
  enableOnce(method: CdpCommand & `${string}.enable`, signal?: AbortSignal): Promise<unknown> {
    let done = this.#enabled.get(method);
    if (!done) {
      done = this.send(method, undefined, {signal}).catch((error: unknown) => {
        this.#enabled.delete(method);
        throw error;
      });
      this.#enabled.set(method, done);
    }
    return done;
  }

  /** Best-effort command: failures are logged, never thrown. */
  async trySend<M extends CdpCommand>(
    method: M,
    params?: CdpParams<M>,
    options?: SendOptions,
  ): Promise<CdpResult<M> | undefined> {
    try {
      return await this.send(method, params, options);
    } catch (error) {
      debug(`${method} failed (ignored)`, error instanceof Error ? error.message : error);
      return undefined;
    }
  }

  on<E extends CdpEvent>(event: E, listener: (params: CdpEventParams<E>) => void): () => void {
    return this.connection.subscribe(`${this.id}:${event}`, listener);
  }

  /** Every event of this session, raw (for DevTools' own models, which dispatch by method themselves). */
  onAnyEvent(listener: (event: RawEvent) => void): () => void {
    return this.connection.subscribe(`${this.id}:*`, listener);
  }

  onDetached(handler: () => void): () => void {
    if (this.#detached) {
      queueMicrotask(handler);
      return () => {};
    }
    this.#detachHandlers.add(handler);
    return () => this.#detachHandlers.delete(handler);
  }

  /** @internal */
  markDetached(): void {
    if (this.#detached) {
      return;
    }
    this.#detached = true;
    for (const handler of this.#detachHandlers) {
      try {
        handler();
      } catch (error) {
        debug('detach handler threw', error);
      }
    }
    this.#detachHandlers.clear();
  }
}
