import type {EventStore} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';

/** Events kept per session for clients that reconnect (Last-Event-ID) to replay. */
const MAX_EVENTS = 500;
/** Bytes of message JSON kept per session (screenshots and snapshots are large). */
const MAX_BYTES = 16 * 1024 * 1024;

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * The resumable-stream buffer of one HTTP session (the SDK's EventStore): the
 * latest events in order, bounded by count and size, so a client whose SSE
 * stream dropped gets what it missed when it reconnects, and a long session
 * does not grow without end. Events older than the bounds are gone; a
 * client that asks for them gets nothing replayed.
 */
export class BoundedEventStore implements EventStore {
  readonly #events: StoredEvent[] = [];
  #bytes = 0;
  #next = 1;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${this.#next++}:${streamId}`;
    const bytes = JSON.stringify(message).length;
    this.#events.push({id, streamId, message, bytes});
    this.#bytes += bytes;
    while (this.#events.length > MAX_EVENTS || (this.#bytes > MAX_BYTES && this.#events.length > 1)) {
      this.#bytes -= this.#events.shift()?.bytes ?? 0;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return streamOf(eventId);
  }

  async replayEventsAfter(
    lastEventId: string,
    {send}: {send: (eventId: string, message: JSONRPCMessage) => Promise<void>},
  ): Promise<string> {
    const streamId = streamOf(lastEventId) ?? '';
    const index = this.#events.findIndex(e => e.id === lastEventId);
    if (index < 0) {
      return streamId;
    }
    for (const event of this.#events.slice(index + 1)) {
      if (event.streamId === streamId) {
        await send(event.id, event.message);
      }
    }
    return streamId;
  }

  /** Events held now (diagnostics). */
  get size(): {events: number; bytes: number} {
    return {events: this.#events.length, bytes: this.#bytes};
  }
}

function streamOf(eventId: string): string | undefined {
  const colon = eventId.indexOf(':');
  return colon > 0 ? eventId.slice(colon + 1) : undefined;
}
