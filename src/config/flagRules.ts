/**
 * Relations between flags: which exclude each other and which need another.
 * Checked on the raw values before each value's own checks, so that a
 * contradiction is reported as such.
 */
import type {FlagSpec, RawOf} from './flagSpec.js';
import type {FlagName} from './flagTable.js';

/** The flags on one side of `excludes` are not allowed with those on the other. */
interface Excludes {
  excludes: readonly [readonly FlagName[], readonly FlagName[]];
  /** @default "Use either --a or --b, not both." */
  message?: string;
}

/** `flag` is only allowed with one of `needs`. */
interface Requires {
  flag: FlagName;
  needs: readonly FlagName[];
  /** @default "--flag goes with --need." */
  message?: string;
}

/** One relation between flags. */
export type FlagRule = Excludes | Requires;

/** The relations between the flags of FLAGS. */
export const FLAG_RULES: readonly FlagRule[] = [
  {excludes: [['browserUrl'], ['wsEndpoint']]},
  {
    excludes: [['userDataDir'], ['isolated']],
    message: '--userDataDir and --isolated exclude each other: --isolated uses a temporary profile.',
  },
  {
    excludes: [
      ['browserUrl', 'wsEndpoint'],
      ['executablePath', 'userDataDir', 'channel'],
    ],
    message:
      '--executablePath, --userDataDir and --channel are for launching; drop them when attaching with --browserUrl/--wsEndpoint.',
  },
  {flag: 'wsHeaders', needs: ['wsEndpoint']},
  {
    excludes: [['autoConnect'], ['browserUrl', 'wsEndpoint', 'executablePath', 'isolated']],
    message:
      '--autoConnect attaches to the Chrome running on your profile; drop --browserUrl/--wsEndpoint/--executablePath/--isolated.',
  },
  {
    excludes: [['categoryPwa'], ['autoConnect', 'browserUrl', 'wsEndpoint']],
    message:
      '--categoryPwa is only supported with a pipe connection (a Chrome this server launches); autoConnect, browserUrl, and wsEndpoint are not supported.',
  },
  {excludes: [['blockedUrlPattern'], ['allowedUrlPattern']]},
  {
    excludes: [['disabledTools'], ['enabledTools']],
    message: '--enabledTools already turns off every tool it does not name: use either it or --disabledTools.',
  },
  ...(['host', 'authToken', 'allowedOrigin', 'maxSessions', 'sessionIdleTimeout'] as const).map(flag => ({
    flag,
    needs: ['port'] as const,
    message: `--${flag} only applies to the HTTP server: add --port <n>.`,
  })),
  {
    excludes: [['allowUnrestrictedPaths'], ['filesystemRoot']],
    message: '--allowUnrestrictedPaths is the older spelling of --filesystemRoot /: use one of them.',
  },
  {
    flag: 'experimentalFfmpegPath',
    needs: ['experimentalScreencast'],
    message:
      '--experimentalFfmpegPath is for the legacy screencast recorder: add --experimentalScreencast, or drop the path (Chrome records without ffmpeg).',
  },
];

/** Raw values by flag name, as far as the rules need them. */
type Given = Partial<Record<FlagName, RawOf<FlagSpec>>>;

/** Whether a flag counts as set: given, and not false, empty or an empty list. */
function isSet(value: RawOf<FlagSpec> | undefined): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false && value !== '';
}

function either(flags: readonly FlagName[]): string {
  return flags.map(flag => `--${flag}`).join('/');
}

/** Throws with the rule's message when the given flags break one of `rules`. */
export function checkFlagRules(given: Given, rules: readonly FlagRule[] = FLAG_RULES): void {
  const set = (flags: readonly FlagName[]) => flags.some(flag => isSet(given[flag]));
  for (const rule of rules) {
    if ('excludes' in rule) {
      const [left, right] = rule.excludes;
      if (set(left) && set(right)) {
        throw new Error(rule.message ?? `Use either ${either(left)} or ${either(right)}, not both.`);
      }
    } else if (isSet(given[rule.flag]) && !set(rule.needs)) {
      throw new Error(rule.message ?? `--${rule.flag} goes with ${either(rule.needs)}.`);
    }
  }
}

/** The rules that mention `flag`, as sentences for --help and docs/flags.md. */
export function rulesOf(flag: FlagName, rules: readonly FlagRule[] = FLAG_RULES): string[] {
  const excluded = new Set<FlagName>();
  const needs: string[] = [];
  for (const rule of rules) {
    if ('excludes' in rule) {
      const [left, right] = rule.excludes;
      for (const other of left.includes(flag) ? right : right.includes(flag) ? left : []) {
        excluded.add(other);
      }
    } else if (rule.flag === flag) {
      needs.push(`Needs ${rule.needs.map(other => `\`--${other}\``).join(' or ')}.`);
    }
  }
  const names = [...excluded].map(other => `\`--${other}\``);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  return [...needs, ...(list ? [`Not with ${list}.`] : [])];
}
