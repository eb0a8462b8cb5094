/**
 * The few MCP requests the CLI makes (initialize, tools/call, a cancel) over
 * Streamable HTTP, with fetch. Not the SDK's client: loading it (zod schemas
 * and all) costs a one-shot `cdp-mcp <tool>` 0.4-1 s on every call, several
 * times the call itself; what the CLI needs of the protocol is a POST and
 * reading the answer from JSON or an SSE stream.
 */

/** The version we ask for; the server answers with the one it speaks, which later requests carry. */
const PROTOCOL_VERSION = '2025-06-18';
const CLIENT_INFO = {name: 'cdp-mcp-cli', version: '1.0.0'};
/** Bound of the requests that do no work in the browser (initialize, notifications). */
const HANDSHAKE_TIMEOUT_MS = 15_000;

/** The server does not know the session (it restarted, or the session ended). */
export class SessionGoneError extends Error {}

/** A JSON-RPC error answer. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface RpcMessage {
  id?: number | string;
  result?: unknown;
  error?: {code: number; message: string};
}

let nextId = 1;

/** The messages of an SSE body, as they come (events without data, such as a priming one, skipped). */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<RpcMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, {stream: true}).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter(line => line.startsWith('data:'))
        .map(line => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data.trim()) {
        yield JSON.parse(data) as RpcMessage;
      }
    }
  }
}

/** An MCP session over Streamable HTTP: the endpoint, its bearer token, the session once initialized. */
export class McpHttpSession {
  constructor(
    readonly url: string,
    readonly token: string,
    public sessionId?: string,
    public protocolVersion?: string,
  ) {}

  #headers(): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.sessionId ? {'mcp-session-id': this.sessionId} : {}),
      ...(this.protocolVersion ? {'mcp-protocol-version': this.protocolVersion} : {}),
    };
  }

  async #post(message: object, signal?: AbortSignal): Promise<Response> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.#headers(),
      body: JSON.stringify({jsonrpc: '2.0', ...message}),
      signal,
    });
    if (response.status === 404 && this.sessionId) {
      await response.body?.cancel();
      throw new SessionGoneError(`The server does not know session ${this.sessionId}.`);
    }
    if (!response.ok) {
      const text = await response.text();
      let detail = text;
      try {
        detail = (JSON.parse(text) as RpcMessage).error?.message ?? text;
      } catch {
        // Not JSON: the text as it is.
      }
      throw new Error(`HTTP ${response.status}: ${detail}`);
    }
    return response;
  }

  /**
   * Sends a request and returns its result; throws RpcError on an error
   * answer. Aborted, the server is told to stop working on it.
   */
  async request(method: string, params: object, signal?: AbortSignal): Promise<unknown> {
    const id = nextId++;
    try {
      return await this.#exchange(id, method, params, signal);
    } catch (error) {
      if (signal?.aborted) {
        await this.notify('notifications/cancelled', {requestId: id, reason: 'Interrupted.'}).catch(() => undefined);
      }
      throw error;
    }
  }

  async #exchange(id: number, method: string, params: object, signal?: AbortSignal): Promise<unknown> {
    const response = await this.#post({id, method, params}, signal);
    const type = response.headers.get('content-type') ?? '';
    const messages: AsyncIterable<RpcMessage> = type.includes('text/event-stream')
      ? sseMessages(response.body as ReadableStream<Uint8Array>)
      : (async function* () {
          const body = (await response.json()) as RpcMessage | RpcMessage[];
          yield* Array.isArray(body) ? body : [body];
        })();
    for await (const message of messages) {
      if (message.id !== id) {
        continue; // A notification (progress, logging) on the way.
      }
      if (message.error) {
        throw new RpcError(message.error.code, message.error.message);
      }
      if (method === 'initialize') {
        this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
      }
      await response.body?.cancel().catch(() => undefined);
      return message.result;
    }
    throw new Error(`The server ended its answer to ${method} without a result.`);
  }

  /** Sends a notification (no answer but an HTTP 202). */
  async notify(method: string, params: object = {}): Promise<void> {
    const response = await this.#post({method, params}, AbortSignal.timeout(HANDSHAKE_TIMEOUT_MS));
    await response.body?.cancel();
  }

  /** Opens the session: initialize, then notifications/initialized. */
  async initialize(): Promise<void> {
    const params = {protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO};
    const result = (await this.request('initialize', params, AbortSignal.timeout(HANDSHAKE_TIMEOUT_MS))) as {
      protocolVersion?: string;
    };
    if (!this.sessionId) {
      throw new Error('The server opened no session (no mcp-session-id header).');
    }
    this.protocolVersion = result.protocolVersion ?? PROTOCOL_VERSION;
    await this.notify('notifications/initialized');
  }
}
