/**
 * The message-level client the CDP layer is built on. chrome-remote-interface
 * provides it; `headerSocket.ts` provides it too, for sockets that need
 * handshake headers. Kept apart from both so neither imports the other.
 */
export interface RawClient {
  /** Sends one command; `callback` gets (error flag or Error, result or protocol error). */
  send(
    method: string,
    params: object,
    sessionId: string | undefined,
    callback: (error: unknown, result: unknown) => void,
  ): void;
  /** Every protocol event, as it arrived. */
  on(event: 'event', listener: (message: RawEvent) => void): unknown;
  /** The socket closed. */
  on(event: 'disconnect', listener: () => void): unknown;
  /** Closes the socket; resolves once it is closed. */
  close(): Promise<void>;
}

/** One protocol event as the raw client delivers it (flat sessions carry a sessionId). */
export interface RawEvent {
  method: string;
  params: unknown;
  sessionId?: string;
}
