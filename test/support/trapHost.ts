/**
 * A host the URL policy blocks, for the security tests: it counts every TCP
 * connection and every request (WebSocket upgrades included) that reaches it,
 * so a test can show that nothing did.
 */
import {createServer, type Server} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';

export class TrapHost {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  connections = 0;
  readonly requests: string[] = [];

  constructor() {
    this.#server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      const type = req.url?.endsWith('.js') ? 'text/javascript' : 'text/html';
      res.writeHead(200, {'content-type': type, 'access-control-allow-origin': '*'}).end('trapped');
    });
    this.#server.on('connection', socket => {
      this.connections++;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    this.#server.on('upgrade', (req, socket) => {
      this.requests.push(`upgrade ${req.url}`);
      socket.destroy();
    });
  }

  async start(): Promise<this> {
    await new Promise<void>(resolve => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** A URL of this host (as `localhost`, another site than the fixture server's 127.0.0.1). */
  url(path: string, scheme = 'http'): string {
    return `${scheme}://localhost:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) {
      socket.destroy();
    }
    await new Promise<void>(resolve => this.#server.close(() => resolve()));
  }
}
