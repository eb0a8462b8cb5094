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
  const callbacks = new Map<number, (error: unknown, result: unknown) => void>();
  const eventListeners: Array<(message: RawEvent) => void> = [];
  const disconnectListeners: Array<() => void> = [];
  let nextId = 1;
  socket.on('message', data => {
    const message = JSON.parse(rawText(data)) as {
      id?: number;
      error?: unknown;
      result?: unknown;
      method?: string;
      params?: unknown;
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const callback = callbacks.get(message.id);
      callbacks.delete(message.id);
      if (message.error) {
        callback?.(true, message.error);
      } else {
        callback?.(false, message.result ?? {});
      }
    } else if (message.method) {
      const event: RawEvent = {method: message.method, params: message.params, sessionId: message.sessionId};
      for (const listener of eventListeners) {
        listener(event);
      }
    }
  });
  socket.on('close', () => {
    for (const callback of callbacks.values()) {
      callback(new Error('WebSocket connection closed'), undefined);
    }
    callbacks.clear();
    for (const listener of disconnectListeners) {
      listener();
    }
  });
  return {
    send(method, params, sessionId, callback) {
      const id = nextId++;
      callbacks.set(id, callback);
      socket.send(JSON.stringify({id, method, params, sessionId}), error => {
        if (error) {
          callbacks.delete(id);
          callback(error, undefined);
        }
      });
    },
    on(event: 'event' | 'disconnect', listener: ((message: RawEvent) => void) | (() => void)) {
      if (event === 'event') {
        eventListeners.push(listener);
      } else {
        disconnectListeners.push(listener as () => void);
      }
      return undefined;
    },
    close() {
      return new Promise<void>(resolve => {
        if (socket.readyState === WebSocket.CLOSED) {
          resolve();
          return;
        }
        socket.once('close', () => resolve());
        socket.close();
      });
    },
  };
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
