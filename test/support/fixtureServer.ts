import {createReadStream} from 'node:fs';
import {realpath, stat} from 'node:fs/promises';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {extname, join, sep} from 'node:path';

import {TEST_NODE_MODULES} from './testDeps.js';

/**
 * The node_modules the real apps of the test corpus come from: the test
 * command's own packages (test/deps, installed by scripts/test-deps.mjs).
 */
export const NODE_MODULES = TEST_NODE_MODULES;

/** Content types of the files real apps ship (anything else is served as bytes). */
const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.yml': 'text/yaml; charset=utf-8',
};

export function mimeType(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

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
/**
 * Ports of the fixture servers this test process started, in order: a
 * reference record names them by their place here (referenceRecord.ts).
 */
export const startedPorts: number[] = [];

export class FixtureServer {
  readonly #server: Server;
  readonly #routes = new Map<string, Route | RouteHandler>();
  /** URL prefix → directory served under it (longest prefix wins). */
  readonly #mounts: Array<{prefix: string; dir: string}> = [];
  readonly requests: Array<{method: string; url: string; headers: IncomingMessage['headers']; body: string}> = [];
  #port = 0;

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      // No Date header: pages that show response headers (API consoles) look the same on every run.
      res.sendDate = false;
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
      if (!route && (await this.#serveFile(path, req, res))) {
        return;
      }
      if (!route) {
        res.writeHead(404, {'content-type': 'text/plain'}).end('not found');
      } else if (typeof route === 'function') {
        await route(req, res, body);
      } else {
        if (route.delayMs) {
          // Unref'd: a long delay must not keep the test process alive after stop().
          await new Promise(resolve => setTimeout(resolve, route.delayMs).unref());
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

  /** Answers from a mounted directory; false when no mount has the file. */
  async #serveFile(path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const mount = this.#mounts.find(m => path.startsWith(m.prefix));
    if (!mount) {
      return false;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(path.slice(mount.prefix.length));
    } catch {
      return false;
    }
    let file: string;
    try {
      // Resolved with symlinks followed, then kept inside the mount: no `..` or link escapes.
      file = await realpath(join(mount.dir, relative));
      if (!file.startsWith(mount.dir + sep) || !(await stat(file)).isFile()) {
        return false;
      }
    } catch {
      return false;
    }
    res.writeHead(200, {'content-type': mimeType(file), 'cache-control': 'no-cache'});
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    await new Promise<void>((resolve, reject) => {
      createReadStream(file).on('error', reject).on('end', resolve).pipe(res);
    });
    return true;
  }

  /**
   * Serves the files of `dir` under the URL prefix `prefix` (e.g. '/node_modules/'),
   * with the content type of their extension. Explicit routes win over files.
   */
  async mount(prefix: string, dir: string): Promise<this> {
    const root = await realpath(dir);
    this.#mounts.push({prefix: prefix.endsWith('/') ? prefix : `${prefix}/`, dir: root});
    this.#mounts.sort((a, b) => b.prefix.length - a.prefix.length);
    return this;
  }

  /** Serves the test packages' node_modules under /node_modules/ (real apps from their npm packages). */
  serveNodeModules(): Promise<this> {
    return this.mount('/node_modules/', NODE_MODULES);
  }

  async start(): Promise<this> {
    await new Promise<void>(resolve => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    startedPorts.push(this.#port);
    return this;
  }

  get port(): number {
    return this.#port;
  }

  /** Absolute URL of a path on this server. */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.#port}${path}`;
  }

  /**
   * The same path under another loopback host name (`localhost` instead of
   * `127.0.0.1`): another site for Chrome, so a frame loaded from it is a
   * cross-site, out-of-process iframe.
   */
  crossSiteUrl(path = '/'): string {
    return `http://localhost:${this.#port}${path}`;
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
