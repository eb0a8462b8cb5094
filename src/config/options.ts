/**
 * From command-line flags to the validated Config the server runs with. Both
 * are derived from the flag table (`flagTable.ts`); nothing here names a flag.
 */
import {parseArgv} from './argv.js';
import {readConfigFile} from './configFile.js';
import {checkFlagRules} from './flagRules.js';
import type {ConfigOf, FlagSpec, RawOf, RawValuesOf} from './flagSpec.js';
import {type FlagName, FLAGS} from './flagTable.js';

/**
 * The server's configuration: one field per flag of FLAGS that has an effect
 * (named by the entry's `key`, else by the flag), plus the unknown arguments.
 * See flagTable.ts for what each field means.
 */
export type Config = ConfigOf<typeof FLAGS> & {
  /** Unknown flags and stray words from the command line; reported on stderr, not fatal. */
  unknown: string[];
};

/** Raw values by flag name, as the command line or a config file gives them. */
export type RawValues = RawValuesOf<typeof FLAGS>;

function orList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? '');
}

/** Checks one given value against its entry and returns what Config holds. */
function valueOf(flag: string, spec: FlagSpec, raw: RawOf<FlagSpec>): unknown {
  switch (spec.type) {
    case 'boolean':
      return raw;
    case 'string': {
      const text = raw as string;
      if (spec.choices && !spec.choices.includes(text)) {
        throw new Error(`--${flag} must be ${orList(spec.choices)}, not "${text}".`);
      }
      return spec.parse ? spec.parse(text, flag) : text;
    }
    case 'number': {
      const n = raw as number;
      if (spec.integer && !Number.isInteger(n)) {
        throw new Error(`--${flag} must be a whole number, not ${n}.`);
      }
      if (n === spec.off) {
        return n;
      }
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        const range =
          spec.min === undefined
            ? `at most ${spec.max}`
            : spec.max === undefined
              ? `at least ${spec.min}`
              : `between ${spec.min} and ${spec.max}`;
        const off = spec.off === undefined ? '' : ` (or ${spec.off} to turn it off)`;
        throw new Error(`--${flag} must be ${range}${off}, not ${n}.`);
      }
      return n;
    }
    case 'array': {
      const list = raw as string[];
      return spec.parse ? spec.parse(list, flag) : list;
    }
  }
}

/** The value a flag has when it is not given. */
function defaultOf(spec: FlagSpec): unknown {
  switch (spec.type) {
    case 'boolean':
      return spec.default ?? false;
    case 'array':
      return [...(spec.default ?? [])];
    default:
      return spec.default;
  }
}

/**
 * Builds the Config from raw values: the relations between flags first, then
 * each value's own checks. Throws an Error that says what to change.
 */
export function resolveConfig(values: RawValues, unknown: string[] = []): Config {
  checkFlagRules(values);
  const config: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(FLAGS) as Array<[FlagName, FlagSpec]>) {
    if (spec.noEffect !== undefined) {
      continue;
    }
    const raw = values[name];
    config[spec.key ?? name] = raw === undefined ? defaultOf(spec) : valueOf(name, spec, raw);
  }
  config['unknown'] = unknown;
  // Every field of Config was filled above from the entry that declares it.
  return config as Config;
}

/**
 * Parses the command line (without node and the script) into the validated
 * Config; with `--config <file>`, the file's flags first and the command
 * line's over them.
 */
export function parseConfig(argv: readonly string[]): Config {
  const {values, unknown} = parseArgv(argv, FLAGS);
  const fromFile = values.config ? readConfigFile(values.config, FLAGS) : {};
  return resolveConfig({...fromFile, ...values}, unknown);
}

/** The configuration with no flags given. */
export const DEFAULT_CONFIG: Config = parseConfig([]);
