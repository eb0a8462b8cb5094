/** Base class of every error the CDP layer raises. */
export class CdpError extends Error {
  override name = 'CdpError';
}

/** Chrome answered a command with an error. */
export class CdpProtocolError extends CdpError {
  override name = 'CdpProtocolError';
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    readonly protocolMessage: string,
    readonly data?: string,
  ) {
    super(`${method}: ${protocolMessage}${data ? ` (${data})` : ''}`);
  }
}

/** A command got no answer in time. */
export class CdpTimeoutError extends CdpError {
  override name = 'CdpTimeoutError';
}

/** The target the command was sent to went away (tab closed, crashed, detached). */
export class TargetClosedError extends CdpError {
  override name = 'TargetClosedError';
}

/** The connection to the browser closed (browser exited or the socket dropped). */
export class ConnectionClosedError extends CdpError {
  override name = 'ConnectionClosedError';
}
