import WebSocket from 'ws';

import type {RawClient, RawEvent} from './rawClient.js';

/**
 * chrome-remote-interface cannot send handshake headers, which remote
 * browsers behind an authenticating proxy need (`--wsHeaders`). This opens the
 * socket with `ws` (the library chrome-remote-interface itself uses) and
 * exposes the same message-level interface.
 */
export async function openHeaderSocket(url: string, headers: Record<string, string>): Promise<RawClient> {
  const socket = new WebSocket(url, {headers, maxPayload: 256 * 1024 * 1024, perMessageDeflate: false});
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return new HeaderSocketClient(socket);
}

/** One protocol message as it comes over the socket: an answer (id) or an event (method). */
interface IncomingMessage {
  id?: number;
  error?: unknown;
  result?: unknown;
  method?: string;
  params?: unknown;
  sessionId?: string;
}

/** The message-level client over an open socket: commands by id, events to listeners. */
class HeaderSocketClient implements RawClient {
  readonly #callbacks = new Map<number, (error: unknown, result: unknown) => void>();
  readonly #eventListeners: Array<(message: RawEvent) => void> = [];
  readonly #disconnectListeners: Array<() => void> = [];
  #nextId = 1;

  constructor(readonly socket: WebSocket) {
    socket.on('message', data => this.#receive(JSON.parse(rawText(data)) as IncomingMessage));
    socket.on('close', () => {
      for (const callback of this.#callbacks.values()) {
        callback(new Error('WebSocket connection closed'), undefined);
      }
      this.#callbacks.clear();
      for (const listener of this.#disconnectListeners) {
        listener();
      }
    });
  }

  #receive(message: IncomingMessage): void {
    if (message.id !== undefined) {
      const callback = this.#callbacks.get(message.id);
      this.#callbacks.delete(message.id);
      if (message.error) {
        callback?.(true, message.error);
      } else {
        callback?.(false, message.result ?? {});
      }
    } else if (message.method) {
      const event: RawEvent = {method: message.method, params: message.params, sessionId: message.sessionId};
      for (const listener of this.#eventListeners) {
        listener(event);
      }
    }
  }

  send(
    method: string,
    params: object,
    sessionId: string | undefined,
    callback: (error: unknown, result: unknown) => void,
  ): void {
    const id = this.#nextId++;
    this.#callbacks.set(id, callback);
    this.socket.send(JSON.stringify({id, method, params, sessionId}), error => {
      if (error) {
        this.#callbacks.delete(id);
        callback(error, undefined);
      }
    });
  }

  on(event: 'event', listener: (message: RawEvent) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  on(event: 'event' | 'disconnect', listener: ((message: RawEvent) => void) | (() => void)): unknown {
    if (event === 'event') {
      this.#eventListeners.push(listener);
    } else {
      this.#disconnectListeners.push(listener as () => void);
    }
    return undefined;
  }

  close(): Promise<void> {
    return new Promise<void>(resolve => {
      if (this.socket.readyState === WebSocket.CLOSED) {
        resolve();
        return;
      }
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/** The text of a WebSocket message (ws hands over a Buffer, an ArrayBuffer or fragments). */
function rawText(data: WebSocket.Data): string {
  if (typeof data === 'string') {
    return data;
  }
  if (Array.isArray(data)) {
    return Buffer.concat(data).toString('utf8');
  }
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}
