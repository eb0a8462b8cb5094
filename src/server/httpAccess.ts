import {createHash, randomBytes, timingSafeEqual} from 'node:crypto';
import type {IncomingMessage} from 'node:http';
import {isIP} from 'node:net';

/** The environment variable that may carry the token instead of --authToken. */
export const AUTH_TOKEN_ENV = 'CDP_MCP_AUTH_TOKEN';

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** A token for a server started without one: 192 random bits. */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the request carries `Authorization: Bearer <token>`. Compared in
 * constant time (over digests, so the length does not leak either).
 */
export function hasToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * The origins a browser page may call us from: the server's own (every
 * loopback spelling when it listens on loopback) and the configured ones.
 * Anything else is a page on another site (DNS rebinding, CSRF).
 */
export function allowedOrigins(host: string, port: number, extra: string[]): Set<string> {
  const hosts = isLoopbackHost(host) ? ['127.0.0.1', 'localhost', '[::1]', host] : [host];
  const own = hosts.map(h => `http://${isIP(h) === 6 ? `[${h}]` : h}:${port}`);
  return new Set([...own, ...extra.map(o => o.replace(/\/$/, ''))]);
}
