import {createServer, type IncomingMessage, type Server} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';

import WebSocket from 'ws';

/** One CDP command the client sent through the proxy, with when it went and when Chrome answered. */
export interface ProxiedCommand {
  method: string;
  sessionId: string | undefined;
  /** performance.now() when the proxy forwarded it. */
  sent: number;
  answered?: number;
}

/**
 * Sequential round trips among `commands` (say, one session's during one
 * call): how many of them went while none of the others was awaiting an
 * answer, i.e. after the client had waited for every answer before asking
 * again. Commands sent together count once.
 */
export function roundTrips(commands: ProxiedCommand[]): number {
  return commands.filter(c => startsRoundTrip(c, commands)).length;
}

/** Whether `command` went while none of `commands` awaited an answer. */
export function startsRoundTrip(command: ProxiedCommand, commands: ProxiedCommand[]): boolean {
  return !commands.some(d => d !== command && d.sent < command.sent && (d.answered ?? Infinity) > command.sent);
}

/**
 * A stand-in for a browser farm's CDP gateway: a WebSocket proxy that wants
 * a header on the handshake, forwards frames to a real Chromium, can refuse
 * the next handshakes (a node restarting), drop every live connection, and
 * records the commands the client sends (a count of what went to Chrome).
 */
export class WsProxy {
  readonly #http: Server;
  readonly #wss = new WebSocket.Server({noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024});
  readonly #live = new Set<{client: WebSocket; upstream: WebSocket}>();
  #refuse = 0;
  /** The CDP commands the client sent through the proxy, in order (what a test counts). */
  readonly commands: ProxiedCommand[] = [];
  /** Per method, the most commands of it sent and not yet answered at one time. */
  readonly maxInFlight = new Map<string, number>();
  /** Commands awaiting an answer, by connection and id. */
  readonly #pending = new Map<string, ProxiedCommand>();
  #connections = 0;
  readonly #inFlight = new Map<string, number>();
  /** Handshakes seen: accepted, rejected for the header, refused on purpose. */
  readonly handshakes: Array<'accepted' | 'unauthorized' | 'refused'> = [];
  port = 0;

  constructor(
    readonly upstreamUrl: string,
    readonly header: {name: string; value: string},
  ) {
    this.#http = createServer((_req, res) => res.writeHead(404).end());
    this.#http.on('upgrade', (req, socket, head) => this.#upgrade(req, socket as Socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>(resolve => this.#http.listen(0, '127.0.0.1', resolve));
    this.port = (this.#http.address() as AddressInfo).port;
    return this;
  }

  /** The farm URL for the same browser path. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}${new URL(this.upstreamUrl).pathname}`;
  }

  get liveConnections(): number {
    return this.#live.size;
  }

  /** The next `count` handshakes get a 503, as from a gateway whose node restarts. */
  refuseNext(count: number): void {
    this.#refuse = count;
  }

  /** Terminates every live connection (both sides), as a farm recycling sockets. */
  dropAll(): void {
    for (const {client, upstream} of this.#live) {
      client.terminate();
      upstream.terminate();
    }
    this.#live.clear();
  }

  async stop(): Promise<void> {
    this.dropAll();
    this.#http.closeAllConnections();
    await new Promise<void>(resolve => this.#http.close(() => resolve()));
  }

  #record(data: WebSocket.Data, connection: number): void {
    // ws 7 gives text frames as strings.
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString() : undefined;
    if (text === undefined) {
      return;
    }
    try {
      const {id, method, sessionId} = JSON.parse(text) as {id?: number; method?: string; sessionId?: string};
      if (!method) {
        return;
      }
      const command: ProxiedCommand = {method, sessionId, sent: performance.now()};
      this.commands.push(command);
      if (id !== undefined) {
        this.#pending.set(`${connection}:${id}`, command);
        const inFlight = (this.#inFlight.get(method) ?? 0) + 1;
        this.#inFlight.set(method, inFlight);
        this.maxInFlight.set(method, Math.max(this.maxInFlight.get(method) ?? 0, inFlight));
      }
    } catch {
      // Not a command.
    }
  }

  /**
   * An answer from Chrome (it starts with its id; events do not) ends its
   * command's flight at once: the client cannot send anything that depends
   * on it before the proxy passes it on, so the in-flight counts are never
   * too high. Its `answered` time is set later, after the client's commands
   * already read in this turn of the event loop: the client sent those before
   * it could see this answer (two cores: its pipelined frames may come in the
   * same turn as Chrome's answer to the first of them), so they do not count
   * as a round trip of their own.
   */
  #answered(data: WebSocket.Data, connection: number): void {
    const head =
      typeof data === 'string' ? data.slice(0, 24) : Buffer.isBuffer(data) ? data.toString('utf8', 0, 24) : '';
    const id = /^\{"id":(\d+)/.exec(head)?.[1];
    const key = `${connection}:${id}`;
    const command = id === undefined ? undefined : this.#pending.get(key);
    if (command !== undefined) {
      const {method} = command;
      this.#pending.delete(key);
      this.#inFlight.set(method, (this.#inFlight.get(method) ?? 1) - 1);
      setImmediate(() => {
        command.answered = performance.now();
      });
    }
  }

  #upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    if (req.headers[this.header.name.toLowerCase()] !== this.header.value) {
      this.handshakes.push('unauthorized');
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    if (this.#refuse > 0) {
      this.#refuse--;
      this.handshakes.push('refused');
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.handshakes.push('accepted');
    const upstream = new WebSocket(this.upstreamUrl, {perMessageDeflate: false, maxPayload: 256 * 1024 * 1024});
    upstream.once('open', () => {
      this.#wss.handleUpgrade(req, socket, head, (client: WebSocket) => {
        const pair = {client, upstream};
        const connection = this.#connections++;
        this.#live.add(pair);
        client.on('message', (data: WebSocket.Data) => {
          this.#record(data, connection);
          if (upstream.readyState === WebSocket.OPEN) {
            upstream.send(data);
          }
        });
        upstream.on('message', (data: WebSocket.Data) => {
          this.#answered(data, connection);
          if (client.readyState === WebSocket.OPEN) {
            client.send(data);
          }
        });
        const close = () => {
          this.#live.delete(pair);
          client.terminate();
          upstream.terminate();
        };
        client.once('close', close);
        upstream.once('close', close);
      });
    });
    upstream.once('error', () => socket.destroy());
  }
}
