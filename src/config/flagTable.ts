/**
 * Every command-line flag of the server, once. The Config type, the defaults,
 * the checks, `--help` and docs/flags.md's flag tables are all derived from this
 * table (`npm run gen-docs` rewrites docs/flags.md; a unit test fails when it
 * drifts). Relations between flags (which exclude or need each other) are in
 * `flagRules.ts`.
 *
 * Names are camelCase as chrome-devtools-mcp spells them; the command line
 * also takes them in kebab-case.
 */
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';

import {CATEGORY_FLAG_TABLE} from './categoryFlags.js';
import {defineFlags} from './flagSpec.js';
import {HTTP_FLAG_TABLE} from './httpFlags.js';
import {TOOL_FLAG_TABLE} from './toolFlags.js';
import {existingDirectories, httpUrl, jsonStringRecord, size, urlPatterns, wsUrl} from './valueParsers.js';

/** Where downloads go unless --downloadsDir says otherwise: inside the temp dir, which is always an allowed root. */
export const DEFAULT_DOWNLOADS_DIR = join(tmpdir(), 'cdp-mcp-downloads');

/**
 * The default of --maxOutputChars, in characters (about 8,000 tokens of
 * snapshot text): well under what clients take. Claude Code writes a tool
 * result over 50,000 characters to a file and shows the model a preview (it
 * warns from 10,000 tokens; MAX_MCP_OUTPUT_TOKENS, 25,000 by default, is its
 * hard limit), and the MCP SDK's stdio client closes the connection on a
 * message over 10 MB.
 */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

/** The flag table. Order matters: it is the order of --help and of docs/flags.md within each group. */
export const FLAGS = defineFlags({
  headless: {
    type: 'boolean',
    group: 'launch',
    description:
      "Launch Chrome without a window. Its pages are laid out as in chrome-devtools-mcp's headless Chrome: in a window sized for a 3840x2160 screen, without scrollbars.",
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
    description: 'Installed Chrome channel to launch (with `--autoConnect`: whose running Chrome to attach to).',
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
      'Profile directory of the launched Chrome (beta, dev and canary get their own: `chrome-profile-<channel>`). With `--autoConnect`: the profile of the running Chrome to attach to.',
  },
  viewport: {
    type: 'string',
    group: 'launch',
    placeholder: '<width>x<height>',
    parse: size,
    description:
      "Initial content size of the first page, e.g. `1280x720`. Without it, the launched Chrome's window has its default size for the screen, as chrome-devtools-mcp's.",
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
  autoConnect: {
    type: 'boolean',
    group: 'attach',
    description:
      "Attach to the Chrome already running on the user's own profile of `--channel` (default stable; or the profile in `--userDataDir`), found through its `DevToolsActivePort` file (profiles are looked for where Chrome keeps them, e.g. `~/.config/google-chrome`; `CDP_MCP_CHROME_USER_DATA_ROOT` names another folder of profiles). Turn on remote debugging in that Chrome first, at chrome://inspect/#remote-debugging. It is never closed by the server.",
  },
  wsHeaders: {
    type: 'string',
    group: 'attach',
    placeholder: '<json>',
    parse: jsonStringRecord,
    description:
      'JSON object of extra WebSocket handshake headers for `--wsEndpoint`, e.g. `{"Authorization":"Bearer …"}`.',
  },
  filesystemRoot: {
    type: 'array',
    group: 'network',
    alias: ['workspace'],
    key: 'filesystemRoots',
    placeholder: '<dir>',
    defaultText: 'none',
    parse: existingDirectories,
    description:
      "A directory file tools may read and write. The MCP client's roots can only narrow these; without this flag the stdio client's roots stand as they are, and an HTTP client's give nothing. Besides: the OS temp dir for stdio and the CLI, a private folder of its own for each HTTP session.",
  },
  maxOutputChars: {
    type: 'number',
    group: 'tools',
    min: 500,
    off: 0,
    integer: true,
    placeholder: '<chars>',
    default: DEFAULT_MAX_OUTPUT_CHARS,
    description:
      'Cap on the text of every tool response; longer output is cut at a line boundary, the whole text is written to a file, and a note says where, how much was left out and how to ask for less. `0` turns the cap off (chrome-devtools-mcp has none).',
  },
  experimentalRawCdp: {
    type: 'boolean',
    group: 'tools',
    description:
      "Enable `send_cdp_command` (one raw CDP command per call, inside the calling session's own browser context and pages; commands that would break the server, reach other sessions or the whole browser, or do what a switch or the file roots forbid are refused).",
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
    description:
      'Folder downloads of the default browser context are saved to (the stdio client, `--sharedContext` sessions). It must be inside the allowed roots; downloads are refused otherwise. HTTP sessions download into their own folder.',
  },
  allowUnrestrictedPaths: {
    type: 'boolean',
    group: 'network',
    description:
      'Deprecated (use `--filesystemRoot /`): when the client sends no MCP roots, file tools may read and write anywhere.',
  },
  blockedUrlPattern: {
    type: 'array',
    group: 'network',
    key: 'blockedUrlPatterns',
    placeholder: '<pattern>',
    parse: urlPatterns,
    description:
      'URL pattern the browser must not load: URLPattern syntax (`*://*.example.com/*`; a wildcard host matches any port), a Playwright-style glob (`**/ads/*`: any site) or a path (`/api/*`: any origin).',
  },
  allowedUrlPattern: {
    type: 'array',
    group: 'network',
    key: 'allowedUrlPatterns',
    placeholder: '<pattern>',
    parse: urlPatterns,
    description: 'URL pattern the browser may load (written as for `--blockedUrlPattern`); everything else is blocked.',
  },
  ...CATEGORY_FLAG_TABLE,
  ...TOOL_FLAG_TABLE,
  ...HTTP_FLAG_TABLE,
  logFile: {
    type: 'string',
    group: 'logging',
    placeholder: '<path>',
    description:
      'Write debug logs to this file. Logs never go to stdout; without this flag only warnings go to stderr (`CDP_MCP_DEBUG=1` for everything).',
  },
  experimentalDataFormat: {
    type: 'string',
    group: 'compatibility',
    choices: ['default', 'toon', 'gcf'],
    noEffect: 'output is always the default text format (TOON and GCF encodings are not offered)',
    description: 'Compact encodings of lists and snapshots in chrome-devtools-mcp.',
  },
  experimentalToonFormat: {
    type: 'boolean',
    group: 'compatibility',
    noEffect: 'see `--experimentalDataFormat`',
    description: 'Older spelling of `--experimentalDataFormat=toon`.',
  },
  devtoolsComments: {
    type: 'boolean',
    group: 'compatibility',
    noEffect:
      'the DevTools comments tools of chrome-devtools-mcp are an internal work in progress there and not offered here',
    description: 'DevTools comments tools.',
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
    noEffect: 'this server collects and sends no usage statistics or other telemetry',
    description: 'Usage statistics.',
  },
  performanceCrux: {
    type: 'boolean',
    group: 'compatibility',
    noEffect:
      'this server never contacts the Chrome UX Report: trace summaries print field data as `n/a – no data for this page in CrUX`, as the reference does without CrUX',
    description: 'Field data from the Chrome UX Report in performance insights.',
  },
  viaCli: {
    type: 'boolean',
    group: 'meta',
    description:
      'Set by `cdp-mcp start` for its background server: `pageId` becomes optional (page-scoped tools default to the selected page).',
  },
  config: {
    type: 'string',
    group: 'meta',
    placeholder: '<file.json>',
    description:
      'Read flags from a JSON object with the flag names as keys (`{"headless": true, "chromeArg": ["--lang=de"]}`); flags on the command line win.',
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
