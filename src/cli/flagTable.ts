/**
 * Every command-line flag of the server, once. The Config type, the defaults,
 * the checks, `--help` and the README's flag table are all derived from this
 * table (`npm run gen-docs` rewrites the README; a unit test fails when it
 * drifts). Relations between flags (which exclude or need each other) are in
 * `flagRules.ts`.
 *
 * Names are camelCase as chrome-devtools-mcp spells them; the command line
 * also takes them in kebab-case.
 */
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';

import {defineFlags} from './flagSpec.js';
import {httpUrl, jsonStringRecord, origins, size, urlPatterns, wsUrl} from './valueParsers.js';

/** Where downloads go unless --downloadsDir says otherwise: inside the temp dir, which is always an allowed root. */
export const DEFAULT_DOWNLOADS_DIR = join(tmpdir(), 'cdp-mcp-downloads');

/** The flag table. Order matters: it is the order of --help and of the README within each group. */
export const FLAGS = defineFlags({
  headless: {
    type: 'boolean',
    group: 'launch',
    description: 'Launch Chrome without a window.',
  },
  executablePath: {
    type: 'string',
    group: 'launch',
    alias: ['e'],
    placeholder: '<path>',
    description:
      'Chrome or Chromium binary to launch. Without it: the `--channel` install, else `CHROME_PATH`, else an installed Chrome or Chromium.',
  },
  channel: {
    type: 'string',
    group: 'launch',
    choices: ['stable', 'beta', 'dev', 'canary'],
    description: 'Installed Chrome channel to launch.',
  },
  isolated: {
    type: 'boolean',
    group: 'launch',
    description: 'Use a temporary profile, deleted when Chrome exits.',
  },
  userDataDir: {
    type: 'string',
    group: 'launch',
    placeholder: '<dir>',
    defaultText: '~/.cache/cdp-mcp/chrome-profile',
    description:
      'Profile directory of the launched Chrome (beta, dev and canary get their own: `chrome-profile-<channel>`).',
  },
  viewport: {
    type: 'string',
    group: 'launch',
    placeholder: '<width>x<height>',
    parse: size,
    description: 'Initial content size of the first page, e.g. `1280x720`.',
  },
  proxyServer: {
    type: 'string',
    group: 'launch',
    placeholder: '<proxy>',
    description: 'Proxy for the launched Chrome (passed as its `--proxy-server`).',
  },
  acceptInsecureCerts: {
    type: 'boolean',
    group: 'launch',
    description: 'Ignore TLS certificate errors in the launched Chrome.',
  },
  chromeArg: {
    type: 'array',
    group: 'launch',
    key: 'chromeArgs',
    placeholder: '<arg>',
    description: 'Extra argument for the launched Chrome, e.g. `--chromeArg=--lang=de`.',
  },
  ignoreDefaultChromeArg: {
    type: 'array',
    group: 'launch',
    key: 'ignoreDefaultChromeArgs',
    placeholder: '<arg>',
    description: 'Default argument to leave out when launching Chrome (the list: `src/cdp/flags.ts`).',
  },
  browserUrl: {
    type: 'string',
    group: 'attach',
    alias: ['u'],
    placeholder: '<url>',
    parse: httpUrl,
    description: 'Attach to a running Chrome through its HTTP debugging endpoint, e.g. `http://127.0.0.1:9222`.',
  },
  wsEndpoint: {
    type: 'string',
    group: 'attach',
    alias: ['w'],
    placeholder: '<url>',
    parse: wsUrl,
    description: 'Attach to a running Chrome through its browser WebSocket URL (`ws://…/devtools/browser/<id>`).',
  },
  wsHeaders: {
    type: 'string',
    group: 'attach',
    placeholder: '<json>',
    parse: jsonStringRecord,
    description:
      'JSON object of extra WebSocket handshake headers for `--wsEndpoint`, e.g. `{"Authorization":"Bearer …"}`.',
  },
  pageIdRouting: {
    type: 'boolean',
    group: 'tools',
    default: true,
    description:
      'Page-scoped tools take a required `pageId`, as in chrome-devtools-mcp 1.11. `--no-page-id-routing` makes them act on the selected page.',
  },
  experimentalVision: {
    type: 'boolean',
    group: 'tools',
    description: 'Enable `click_at` (clicks at page coordinates).',
  },
  memoryDebugging: {
    type: 'boolean',
    group: 'tools',
    alias: ['experimentalMemory'],
    description: 'Enable the heap snapshot analysis tools (`take_heapsnapshot` is always on).',
  },
  heapSnapshotMemoryLimit: {
    type: 'number',
    group: 'tools',
    min: 1,
    placeholder: '<MB>',
    defaultText: 'half the RAM, at most 8192',
    description:
      'Memory in MB that loaded heap snapshots may use together; loading one more unloads the least recently used first.',
  },
  categoryEmulation: {
    type: 'boolean',
    group: 'tools',
    default: true,
    description: 'Emulation tools (`emulate`, `resize_page`); `=false` removes them.',
  },
  categoryPerformance: {
    type: 'boolean',
    group: 'tools',
    default: true,
    description: 'Performance tools; `=false` removes them.',
  },
  categoryNetwork: {
    type: 'boolean',
    group: 'tools',
    default: true,
    description: 'Network tools (`list_network_requests`, `get_network_request`); `=false` removes them.',
  },
  screenshotFormat: {
    type: 'string',
    group: 'tools',
    choices: ['png', 'jpeg', 'webp'],
    default: 'png',
    description: 'Default format of `take_screenshot`.',
  },
  screenshotQuality: {
    type: 'number',
    group: 'tools',
    min: 0,
    max: 100,
    description: 'Default jpeg and webp quality of `take_screenshot`.',
  },
  screencastFps: {
    type: 'number',
    group: 'tools',
    alias: ['experimentalScreencastFps'],
    placeholder: '<fps>',
    min: 1,
    integer: true,
    description:
      'Frame rate of `screencast_start` recordings: the most Chrome records, or the constant rate of the legacy recorder (30 without this flag).',
  },
  experimentalScreencast: {
    type: 'boolean',
    group: 'tools',
    description:
      'Record screencasts the legacy way: PNG frames piped to ffmpeg (`.mp4` or `.webm`). Without it Chrome records `.mp4` itself and no ffmpeg is needed.',
  },
  experimentalFfmpegPath: {
    type: 'string',
    group: 'tools',
    placeholder: '<path>',
    description: 'The ffmpeg binary of the legacy screencast recorder (default: `ffmpeg` from PATH).',
  },
  redactNetworkHeaders: {
    type: 'boolean',
    group: 'tools',
    description: 'Replace sensitive header values (cookies, authorization, …) in network output.',
  },
  maxOutputChars: {
    type: 'number',
    group: 'tools',
    min: 500,
    placeholder: '<chars>',
    defaultText: 'off',
    description:
      'Cap on the text of every tool response; longer output is cut at a line boundary with a note saying how much was left out and how to get it.',
  },
  experimentalRawCdp: {
    type: 'boolean',
    group: 'tools',
    description:
      'Enable `send_cdp_command` (one raw CDP command per call; commands that would break the server are refused).',
  },
  downloadsDir: {
    type: 'string',
    group: 'network',
    placeholder: '<dir>',
    default: DEFAULT_DOWNLOADS_DIR,
    defaultText: '<OS temp dir>/cdp-mcp-downloads',
    parse: raw => {
      if (raw.trim() === '') {
        throw new Error('--downloadsDir needs a folder path.');
      }
      return resolve(raw);
    },
    description: 'Folder downloads are saved to. It must be inside the allowed roots; downloads are refused otherwise.',
  },
  allowUnrestrictedPaths: {
    type: 'boolean',
    group: 'network',
    description: 'When the client sends no MCP roots, allow file writes anywhere (else only inside the OS temp dir).',
  },
  blockedUrlPattern: {
    type: 'array',
    group: 'network',
    key: 'blockedUrlPatterns',
    placeholder: '<pattern>',
    parse: urlPatterns,
    description: 'URL pattern (URLPattern syntax, e.g. `*://*.example.com/*`) the browser must not load.',
  },
  allowedUrlPattern: {
    type: 'array',
    group: 'network',
    key: 'allowedUrlPatterns',
    placeholder: '<pattern>',
    parse: urlPatterns,
    description: 'URL pattern the browser may load; everything else is blocked.',
  },
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
  maxSessions: {
    type: 'number',
    group: 'http',
    min: 1,
    integer: true,
    default: 16,
    description: 'Most HTTP sessions open at once; one more gets 503.',
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
  logFile: {
    type: 'string',
    group: 'logging',
    placeholder: '<path>',
    description:
      'Write debug logs to this file. Logs never go to stdout; without this flag only warnings go to stderr (`CDP_MCP_DEBUG=1` for everything).',
  },
  experimentalPageIdRouting: {
    type: 'boolean',
    group: 'compatibility',
    noEffect: 'page-id routing is on by default (see `--pageIdRouting`)',
    description: 'Page-id routing, experimental in earlier chrome-devtools-mcp releases.',
  },
  usageStatistics: {
    type: 'boolean',
    group: 'compatibility',
    noEffect: 'this server sends no telemetry',
    description: 'Usage statistics.',
  },
  performanceCrux: {
    type: 'boolean',
    group: 'compatibility',
    noEffect:
      'this server never contacts the Chrome UX Report: trace summaries print field data as `n/a – no data for this page in CrUX`, as the reference does without CrUX',
    description: 'Field data from the Chrome UX Report in performance insights.',
  },
  help: {
    type: 'boolean',
    group: 'meta',
    alias: ['h'],
    description: 'Print the flags and exit.',
  },
  version: {
    type: 'boolean',
    group: 'meta',
    alias: ['v'],
    description: 'Print the version and exit.',
  },
});

/** The name of a flag, as typed after `--` (camelCase). */
export type FlagName = keyof typeof FLAGS;
