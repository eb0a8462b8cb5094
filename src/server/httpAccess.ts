import {createHash, randomBytes, timingSafeEqual} from 'node:crypto';
import type {IncomingMessage} from 'node:http';
import {isIP} from 'node:net';

// Where the token may come from besides --authToken (a leaf: the stdio server's start-up loads no node:crypto).
export {AUTH_TOKEN_ENV} from '../config/daemonState.js';

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

/**
 * The host names a request's `Host` header may carry (DNS rebinding: a page of
 * another site resolved to our address still sends its own name): the
 * listening address, every loopback name on loopback, and the given ones;
 * undefined (no check) on a wildcard address with none given. The SDK's
 * hostHeaderValidation does the same as an Express middleware; this server is
 * plain node:http, so the check is here.
 */
export function allowedHostnames(host: string, extra: string[]): Set<string> | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  const given = extra.map(h => h.toLowerCase());
  if (bare === '0.0.0.0' || bare === '::') {
    return given.length ? new Set(given) : undefined;
  }
  const own = isIP(bare) === 6 ? `[${bare}]` : bare.toLowerCase();
  const loopback = isLoopbackHost(host) ? ['localhost', '127.0.0.1', '[::1]'] : [];
  return new Set([own, ...loopback, ...given]);
}

/** The host name of a `Host` header (port dropped, IPv6 in brackets), or undefined when it is none. */
export function requestHostname(header: string | undefined): string | undefined {
  if (!header) {
    return undefined;
  }
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}
