import type {CdpSession} from '../../cdp/CdpConnection.js';
import {CdpProtocolError} from '../../cdp/errors.js';
import type {RawEvent} from '../../cdp/rawClient.js';
import {errorMessage} from '../../util/async.js';
import {debug} from '../../util/logger.js';

/** Bound of each command DevTools' models send (the models wait on every answer). */
const DEVTOOLS_COMMAND_TIMEOUT_MS = 10_000;

/** DevTools' CDPConnection observer (core/protocol_client/CDPConnection.ts). */
export interface CdpObserver {
  onEvent(event: {method: string; params: unknown; sessionId?: string}): void;
  onDisconnect(reason: string): void;
}

type Answer = {result: unknown} | {error: {code: number; message: string; data?: string}};

/**
 * The seam between DevTools' SDK and our CDP connection: DevTools' models
 * send through it and observe its events, scoped to one dedicated session
 * (their own, so their DOM node ids never mix with ours). Every command is
 * bounded; errors come back the way DevTools expects them, never thrown.
 */
export class DevToolsConnection {
  readonly #observers = new Set<CdpObserver>();
  /**
   * CSS.getEnvironmentVariables, asked together with the element's matched
   * styles: DevTools' CSS model asks for it only once the styles answered
   * (CSSModel.getMatchedStyles), a round trip of its own on every
   * get_css_styles. Its answer does not depend on the element; it serves the
   * model's ask right after the styles only: any other command first drops
   * it (a lookup that failed, the next call's), so no later ask, after an
   * emulation change say, gets an old answer.
   */
  #environment: Promise<Answer> | undefined;
  readonly #unsubscribe: Array<() => void>;

  constructor(readonly session: CdpSession) {
    this.#unsubscribe = [
      session.onAnyEvent((event: RawEvent) => {
        for (const observer of this.#observers) {
          observer.onEvent({method: event.method, params: event.params, sessionId: event.sessionId});
        }
      }),
      session.onDetached(() => {
        for (const observer of this.#observers) {
          observer.onDisconnect('target closed');
        }
      }),
    ];
  }

  async send(method: string, params: object | undefined, sessionId: string | undefined): Promise<Answer> {
    if (sessionId !== undefined && sessionId !== this.session.id) {
      return {error: {code: -32001, message: `Unknown session ${sessionId}`}};
    }
    const asked = this.#environment;
    this.#environment =
      method === 'CSS.getMatchedStylesForNode' ? this.#send('CSS.getEnvironmentVariables', {}) : undefined;
    return method === 'CSS.getEnvironmentVariables' && asked ? asked : this.#send(method, params);
  }

  async #send(method: string, params: object | undefined): Promise<Answer> {
    try {
      const result = await this.session.connection.send(
        method as never,
        params ?? {},
        this.session.id,
        DEVTOOLS_COMMAND_TIMEOUT_MS,
      );
      return {result};
    } catch (error) {
      debug(`DevTools command ${method} failed`, errorMessage(error));
      return error instanceof CdpProtocolError
        ? {error: {code: error.code ?? -32000, message: error.protocolMessage, data: error.data}}
        : {error: {code: -32000, message: errorMessage(error)}};
    }
  }

  observe(observer: CdpObserver): void {
    this.#observers.add(observer);
  }

  unobserve(observer: CdpObserver): void {
    this.#observers.delete(observer);
  }

  dispose(): void {
    this.#unsubscribe.forEach(off => off());
    this.#observers.clear();
  }
}
