/**
 * Command-line flags. camelCase and kebab-case are both accepted
 * (`--executablePath`, `--executable-path`), booleans take `--no-` to negate,
 * values come as `--flag value` or `--flag=value`, and array flags repeat.
 */

type FlagType = 'boolean' | 'string' | 'number' | 'array';

interface FlagSpec {
  type: FlagType;
  alias?: string;
  description: string;
  /** Shown in --help. */
  defaultText?: string;
}

export const FLAGS = {
  browserUrl: {
    type: 'string',
    alias: 'u',
    description: 'Attach to a running Chrome through its HTTP debugging endpoint, e.g. http://127.0.0.1:9222.',
  },
  wsEndpoint: {
    type: 'string',
    alias: 'w',
    description: 'Attach to a running Chrome through its browser WebSocket URL (ws://…/devtools/browser/<id>).',
  },
  wsHeaders: {
    type: 'string',
    description:
      'JSON object of extra WebSocket handshake headers for --wsEndpoint, e.g. {"Authorization":"Bearer …"}.',
  },
  headless: {type: 'boolean', description: 'Launch Chrome without a window.', defaultText: 'false'},
  executablePath: {
    type: 'string',
    alias: 'e',
    description:
      'Chrome or Chromium binary to launch (else CHROME_PATH, else the --channel install, else auto-detected).',
  },
  channel: {type: 'string', description: 'Installed Chrome channel to launch: stable, beta, dev or canary.'},
  isolated: {
    type: 'boolean',
    description: 'Use a temporary profile that is deleted when the server exits.',
    defaultText: 'false',
  },
  userDataDir: {
    type: 'string',
    description: 'Profile directory for the launched Chrome.',
    defaultText: '~/.cache/cdp-mcp/chrome-profile',
  },
  viewport: {type: 'string', description: 'Initial content size of the first page, e.g. 1280x720.'},
  proxyServer: {type: 'string', description: 'Proxy for the launched Chrome (--proxy-server).'},
  acceptInsecureCerts: {type: 'boolean', description: 'Ignore TLS certificate errors in the launched Chrome.'},
  chromeArg: {type: 'array', description: 'Extra Chrome argument (repeatable).'},
  ignoreDefaultChromeArg: {type: 'array', description: 'Default Chrome argument to leave out (repeatable).'},
  logFile: {type: 'string', description: 'Write debug logs to this file (logs never go to stdout).'},
  pageIdRouting: {
    type: 'boolean',
    description:
      'Page-scoped tools take a required pageId (as chrome-devtools-mcp 1.11). --no-page-id-routing acts on the selected page instead.',
    defaultText: 'true',
  },
  experimentalPageIdRouting: {
    type: 'boolean',
    description: 'Accepted for compatibility; page-id routing is on by default.',
  },
  experimentalVision: {type: 'boolean', description: 'Enable click_at (coordinate clicks).'},
  categoryEmulation: {type: 'boolean', description: 'Emulation tools (emulate, resize_page).', defaultText: 'true'},
  categoryPerformance: {type: 'boolean', description: 'Performance tools.', defaultText: 'true'},
  categoryNetwork: {type: 'boolean', description: 'Network tools.', defaultText: 'true'},
  screenshotFormat: {
    type: 'string',
    description: 'Default take_screenshot format: png, jpeg or webp.',
    defaultText: 'png',
  },
  screenshotQuality: {type: 'number', description: 'Default jpeg/webp quality (0-100).'},
  allowUnrestrictedPaths: {
    type: 'boolean',
    description: 'When the client sends no roots, allow file writes anywhere (default: the OS temp dir only).',
  },
  redactNetworkHeaders: {
    type: 'boolean',
    description: 'Replace sensitive header values (cookies, authorization, …) in network output.',
  },
  blockedUrlPattern: {type: 'array', description: 'URL pattern the browser must not load (repeatable).'},
  allowedUrlPattern: {
    type: 'array',
    description: 'URL pattern the browser may load; everything else is blocked (repeatable).',
  },
  usageStatistics: {type: 'boolean', description: 'Accepted for compatibility; this server sends no telemetry.'},
  performanceCrux: {type: 'boolean', description: 'Accepted for compatibility; this server never contacts CrUX.'},
  help: {type: 'boolean', alias: 'h', description: 'Print this help and exit.'},
  version: {type: 'boolean', alias: 'v', description: 'Print the version and exit.'},
} satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

export interface Config {
  browserUrl?: string;
  wsEndpoint?: string;
  wsHeaders?: Record<string, string>;
  headless: boolean;
  executablePath?: string;
  channel?: 'stable' | 'beta' | 'dev' | 'canary';
  isolated: boolean;
  userDataDir?: string;
  viewport?: {width: number; height: number};
  proxyServer?: string;
  acceptInsecureCerts: boolean;
  chromeArgs: string[];
  ignoreDefaultChromeArgs: string[];
  logFile?: string;
  pageIdRouting: boolean;
  experimentalVision: boolean;
  categoryEmulation: boolean;
  categoryPerformance: boolean;
  categoryNetwork: boolean;
  screenshotFormat: 'png' | 'jpeg' | 'webp';
  screenshotQuality?: number;
  allowUnrestrictedPaths: boolean;
  redactNetworkHeaders: boolean;
  blockedUrlPatterns: string[];
  allowedUrlPatterns: string[];
  help: boolean;
  version: boolean;
  /** Unknown flags seen; reported on stderr, not fatal. */
  unknown: string[];
}

export const DEFAULT_CONFIG: Config = {
  headless: false,
  isolated: false,
  acceptInsecureCerts: false,
  chromeArgs: [],
  ignoreDefaultChromeArgs: [],
  pageIdRouting: true,
  experimentalVision: false,
  categoryEmulation: true,
  categoryPerformance: true,
  categoryNetwork: true,
  screenshotFormat: 'png',
  allowUnrestrictedPaths: false,
  redactNetworkHeaders: false,
  blockedUrlPatterns: [],
  allowedUrlPatterns: [],
  help: false,
  version: false,
  unknown: [],
};

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

const ALIASES = new Map<string, FlagName>(
  Object.entries(FLAGS).flatMap(([name, spec]) =>
    'alias' in spec && spec.alias ? [[spec.alias, name as FlagName]] : [],
  ),
);

/** Parses argv into raw values by flag name. Throws on malformed values. */
export function parseFlags(argv: string[]): {values: Partial<Record<FlagName, unknown>>; unknown: string[]} {
  const values: Partial<Record<FlagName, unknown>> = {};
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('-')) {
      unknown.push(arg);
      continue;
    }
    const [rawName, given] = arg.replace(/^--?/, '').split(/=(.*)/s, 2) as [string, string | undefined];
    let inline = given;
    let negated = false;
    let name: string = arg.startsWith('--') ? camel(rawName) : (ALIASES.get(rawName) ?? rawName);
    if (!(name in FLAGS) && name.startsWith('no') && camel(rawName.replace(/^no-?/, '')) !== '') {
      const positive = camel(rawName.replace(/^no-?/, ''));
      const candidate = positive.charAt(0).toLowerCase() + positive.slice(1);
      if (candidate in FLAGS) {
        name = candidate;
        negated = true;
      }
    }
    if (!(name in FLAGS)) {
      unknown.push(arg);
      continue;
    }
    const flag = name as FlagName;
    const spec: FlagSpec = FLAGS[flag];
    if (spec.type === 'boolean') {
      let value = !negated;
      if (inline !== undefined) {
        if (inline !== 'true' && inline !== 'false') {
          throw new Error(`--${flag} takes true or false, not "${inline}".`);
        }
        value = negated ? inline === 'false' : inline === 'true';
      } else if (argv[i + 1] === 'true' || argv[i + 1] === 'false') {
        value = negated ? argv[i + 1] === 'false' : argv[i + 1] === 'true';
        i++;
      }
      values[flag] = value;
      continue;
    }
    if (inline === undefined) {
      inline = argv[i + 1];
      if (inline === undefined) {
        throw new Error(`--${flag} needs a value.`);
      }
      i++;
    }
    if (spec.type === 'number') {
      const n = Number(inline);
      if (!Number.isFinite(n)) {
        throw new Error(`--${flag} takes a number, not "${inline}".`);
      }
      values[flag] = n;
    } else if (spec.type === 'array') {
      values[flag] = [...((values[flag] as string[] | undefined) ?? []), inline];
    } else {
      values[flag] = inline;
    }
  }
  return {values, unknown};
}

/** Builds the validated configuration. Throws with an actionable message on bad combinations. */
export function parseConfig(argv: string[]): Config {
  const {values: v, unknown} = parseFlags(argv);
  const config: Config = {...DEFAULT_CONFIG, unknown};
  const str = (name: FlagName) => v[name] as string | undefined;
  const bool = (name: FlagName, fallback: boolean) => (v[name] as boolean | undefined) ?? fallback;
  const arr = (name: FlagName) => (v[name] as string[] | undefined) ?? [];

  config.browserUrl = str('browserUrl');
  config.wsEndpoint = str('wsEndpoint');
  if (config.browserUrl && config.wsEndpoint) {
    throw new Error('Use either --browserUrl or --wsEndpoint, not both.');
  }
  if (config.browserUrl && !/^https?:\/\//.test(config.browserUrl)) {
    throw new Error(`--browserUrl must be an http(s) URL such as http://127.0.0.1:9222, not "${config.browserUrl}".`);
  }
  if (config.wsEndpoint && !/^wss?:\/\//.test(config.wsEndpoint)) {
    throw new Error(`--wsEndpoint must be a ws:// or wss:// URL, not "${config.wsEndpoint}".`);
  }
  const wsHeaders = str('wsHeaders');
  if (wsHeaders !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(wsHeaders);
    } catch (error) {
      throw new Error(`--wsHeaders must be a JSON object: ${(error as Error).message}`, {cause: error});
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error('--wsHeaders must be a JSON object such as {"Authorization":"Bearer x"}.');
    }
    if (!config.wsEndpoint) {
      throw new Error('--wsHeaders goes with --wsEndpoint.');
    }
    config.wsHeaders = Object.fromEntries(Object.entries(parsed).map(([k, val]) => [k, String(val)]));
  }
  const attaching = Boolean(config.browserUrl || config.wsEndpoint);
  config.executablePath = str('executablePath');
  const channel = str('channel');
  if (channel !== undefined) {
    if (!['stable', 'beta', 'dev', 'canary'].includes(channel)) {
      throw new Error(`--channel must be stable, beta, dev or canary, not "${channel}".`);
    }
    config.channel = channel as Config['channel'];
  }
  config.headless = bool('headless', false);
  config.isolated = bool('isolated', false);
  config.userDataDir = str('userDataDir');
  if (config.userDataDir && config.isolated) {
    throw new Error('--userDataDir and --isolated exclude each other: --isolated uses a temporary profile.');
  }
  if (attaching && (config.executablePath || config.userDataDir || config.channel)) {
    throw new Error(
      '--executablePath, --userDataDir and --channel are for launching; drop them when attaching with --browserUrl/--wsEndpoint.',
    );
  }
  const viewport = str('viewport');
  if (viewport !== undefined) {
    const m = /^(\d+)x(\d+)$/.exec(viewport);
    if (!m) {
      throw new Error(`--viewport must look like 1280x720, not "${viewport}".`);
    }
    config.viewport = {width: Number(m[1]), height: Number(m[2])};
  }
  config.proxyServer = str('proxyServer');
  config.acceptInsecureCerts = bool('acceptInsecureCerts', false);
  config.chromeArgs = arr('chromeArg');
  config.ignoreDefaultChromeArgs = arr('ignoreDefaultChromeArg');
  config.logFile = str('logFile');
  config.pageIdRouting = bool('pageIdRouting', true);
  config.experimentalVision = bool('experimentalVision', false);
  config.categoryEmulation = bool('categoryEmulation', true);
  config.categoryPerformance = bool('categoryPerformance', true);
  config.categoryNetwork = bool('categoryNetwork', true);
  const format = str('screenshotFormat');
  if (format !== undefined) {
    if (!['png', 'jpeg', 'webp'].includes(format)) {
      throw new Error(`--screenshotFormat must be png, jpeg or webp, not "${format}".`);
    }
    config.screenshotFormat = format as Config['screenshotFormat'];
  }
  const quality = v['screenshotQuality'] as number | undefined;
  if (quality !== undefined && (quality < 0 || quality > 100)) {
    throw new Error('--screenshotQuality must be between 0 and 100.');
  }
  config.screenshotQuality = quality;
  config.allowUnrestrictedPaths = bool('allowUnrestrictedPaths', false);
  config.redactNetworkHeaders = bool('redactNetworkHeaders', false);
  config.blockedUrlPatterns = arr('blockedUrlPattern');
  config.allowedUrlPatterns = arr('allowedUrlPattern');
  if (config.blockedUrlPatterns.length && config.allowedUrlPatterns.length) {
    throw new Error('Use either --blockedUrlPattern or --allowedUrlPattern, not both.');
  }
  config.help = bool('help', false);
  config.version = bool('version', false);
  return config;
}

/**
 * Whether the browser runs on this machine: launched by us, or attached on a
 * loopback address. Paths the browser reads (upload_file) are then ours to check.
 */
export function browserIsLocal(config: Pick<Config, 'browserUrl' | 'wsEndpoint'>): boolean {
  const endpoint = config.browserUrl ?? config.wsEndpoint;
  if (!endpoint) {
    return true;
  }
  try {
    const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

export function helpText(): string {
  const lines = [
    'Usage: cdp-mcp [flags]',
    '',
    'An MCP stdio server that drives Chrome over the DevTools Protocol.',
    '',
    'Flags:',
  ];
  for (const [name, spec] of Object.entries(FLAGS) as Array<[string, FlagSpec]>) {
    const alias = spec.alias ? `, -${spec.alias}` : '';
    const def = spec.defaultText ? ` (default: ${spec.defaultText})` : '';
    lines.push(`  --${name}${alias}${spec.type === 'boolean' ? '' : ' <value>'}`, `      ${spec.description}${def}`);
  }
  return lines.join('\n');
}
