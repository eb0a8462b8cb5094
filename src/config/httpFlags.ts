/**
 * The flags of the Streamable HTTP transport: where it listens, who may call
 * it, and how its sessions share the browser.
 */
import {defineFlags} from './flagSpec.js';
import {origins} from './valueParsers.js';

export const HTTP_FLAG_TABLE = defineFlags({
  port: {
    type: 'number',
    group: 'http',
    min: 0,
    max: 65_535,
    integer: true,
    placeholder: '<port>',
    description:
      'Serve MCP Streamable HTTP at `http://<host>:<port>/mcp` instead of stdio (`0`: any free port, printed on stderr).',
  },
  host: {
    type: 'string',
    group: 'http',
    default: '127.0.0.1',
    placeholder: '<address>',
    description: 'Address the HTTP server listens on. A non-loopback address needs an explicit `--authToken`.',
  },
  authToken: {
    type: 'string',
    group: 'http',
    placeholder: '<token>',
    description:
      'Bearer token every HTTP request must carry (`Authorization: Bearer <token>`). Without it: `CDP_MCP_AUTH_TOKEN`, else a random token printed once on stderr.',
  },
  allowedOrigin: {
    type: 'array',
    group: 'http',
    key: 'allowedOrigins',
    placeholder: '<origin>',
    parse: origins,
    description:
      "Origin (besides the server's own) whose browser pages may call the HTTP endpoint; requests from any other `Origin` get 403.",
  },
  allowedHost: {
    type: 'array',
    group: 'http',
    key: 'allowedHosts',
    placeholder: '<hostname>',
    description:
      'Host name (besides the listening address and, on loopback, `localhost`, `127.0.0.1`, `[::1]`) that requests may carry in their `Host` header; others get 403 (DNS rebinding). On `0.0.0.0` or `::` only the names given are checked (none given: any).',
  },
  maxSessions: {
    type: 'number',
    group: 'http',
    min: 1,
    integer: true,
    default: 16,
    description:
      'Most HTTP sessions open at once; a new one closes the session idle longest (503 only while every one runs a call).',
  },
  sessionIdleTimeout: {
    type: 'number',
    group: 'http',
    min: 1,
    default: 1800,
    placeholder: '<seconds>',
    description: 'Seconds without a request after which an HTTP session is closed with its pages and browser context.',
  },
  parallelSessions: {
    type: 'boolean',
    group: 'http',
    description:
      'Run the calls of different MCP sessions in parallel (calls within a session stay in order; browser-wide tools such as traces still run alone). Without it: one call at a time, server-wide.',
  },
  sharedContext: {
    type: 'boolean',
    group: 'http',
    description:
      "HTTP sessions work in the browser's default context (the profile's cookies and storage) instead of a fresh browser context each.",
  },
});
