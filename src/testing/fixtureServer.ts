import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Delay before answering, in ms (for slow-load fixtures). */
  delayMs?: number;
}

/**
 * Loopback HTTP server for tests: random port, routes set per test.
 * Unknown paths answer 404. Every request is recorded.
 */
export class FixtureServer {
  readonly #server: Server;
  readonly #routes = new Map<string, Route | RouteHandler>();
  readonly requests: Array<{method: string; url: string; headers: IncomingMessage['headers']; body: string}> = [];
  #port = 0;

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.requests.push({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          body: body.toString(),
        });
        void this.#handle(req, res, body);
      });
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = this.#routes.get(path);
    try {
      if (!route) {
        res.writeHead(404, {'content-type': 'text/plain'}).end('not found');
      } else if (typeof route === 'function') {
        await route(req, res, body);
      } else {
        if (route.delayMs) {
          await new Promise(resolve => setTimeout(resolve, route.delayMs));
        }
        res.writeHead(route.status ?? 200, {'content-type': 'text/html; charset=utf-8', ...route.headers});
        res.end(route.body ?? '');
      }
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(500).end(String(error));
      }
    }
  }

  async start(): Promise<this> {
    await new Promise<void>(resolve => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  get port(): number {
    return this.#port;
  }

  /** Absolute URL of a path on this server. */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.#port}${path}`;
  }

  route(path: string, route: Route | RouteHandler): this {
    this.#routes.set(path, route);
    return this;
  }

  /** Shorthand for an HTML page. */
  html(path: string, html: string): string {
    this.route(path, {body: html});
    return this.url(path);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>(resolve => this.#server.close(() => resolve()));
  }
}
