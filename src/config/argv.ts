/**
 * Reads the command line into raw values by flag name, driven by a flag
 * table. The syntax: `--flagName` or `--flag-name`; `--flag value` or
 * `--flag=value` (a value may start with `-`: `--chromeArg --lang=de`);
 * on/off flags as `--x`, `--no-x`, `--x=false` or `--x false`; repeatable
 * flags once per value; aliases as `-u value` (or `--workspace` for longer
 * ones). Anything else is collected as unknown, not fatal.
 *
 * A small parser rather than node:util parseArgs: parseArgs knows neither
 * kebab-case spellings of camelCase names, nor `--flag true`, nor values that
 * start with a dash (it rejects them in strict mode and stops type-checking
 * in loose mode), so it would need as much code around it as this.
 */
import type {FlagSpec, FlagTable, RawOf, RawValuesOf} from './flagSpec.js';

/** What the command line gave: raw values by flag name, and what was not understood. */
export interface ParsedArgv<T extends FlagTable> {
  values: RawValuesOf<T>;
  /** Unknown flags and stray words, as typed. */
  unknown: string[];
}

/** `executable-path` → `executablePath`. */
function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Finds flags by every spelling the table allows. */
class FlagIndex {
  readonly #long = new Map<string, string>();
  readonly #short = new Map<string, string>();

  constructor(readonly table: FlagTable) {
    for (const [name, spec] of Object.entries(table)) {
      this.#long.set(name, name);
      this.#short.set(name, name);
      for (const alias of spec.alias ?? []) {
        this.#short.set(alias, name);
        if (alias.length > 1) {
          this.#long.set(camel(alias), name);
        }
      }
    }
  }

  /** The flag `--rawName` (long) or `-rawName` means, and whether it is negated. */
  find(rawName: string, long: boolean): {name: string; negated: boolean} | undefined {
    const name = long ? this.#long.get(camel(rawName)) : this.#short.get(rawName);
    if (name) {
      return {name, negated: false};
    }
    // --no-headless, --noHeadless, --no-page-id-routing: negations of on/off flags only.
    const positive = camel(rawName.replace(/^no-?/, ''));
    if (positive === '' || !/^no/.test(rawName)) {
      return undefined;
    }
    const negatedName = this.#long.get(positive.charAt(0).toLowerCase() + positive.slice(1));
    return negatedName && this.table[negatedName]?.type === 'boolean' ? {name: negatedName, negated: true} : undefined;
  }
}

/** The value of an on/off flag: `--x`, `--no-x`, `--x=true|false`, `--x true|false`. */
function booleanValue(
  flag: string,
  negated: boolean,
  inline: string | undefined,
  next: string | undefined,
): {value: boolean; consumed: boolean} {
  const text = inline ?? (next === 'true' || next === 'false' ? next : undefined);
  if (text === undefined) {
    return {value: !negated, consumed: false};
  }
  if (text !== 'true' && text !== 'false') {
    throw new Error(`--${flag} takes true or false, not "${text}".`);
  }
  return {value: (text === 'true') !== negated, consumed: inline === undefined};
}

/** Converts one typed value to the flag's raw type. */
function rawValue(flag: string, spec: FlagSpec, text: string, previous: unknown): RawOf<FlagSpec> {
  if (spec.type === 'number') {
    const n = Number(text);
    if (!Number.isFinite(n)) {
      throw new Error(`--${flag} takes a number, not "${text}".`);
    }
    return n;
  }
  if (spec.type === 'array') {
    return [...((previous as string[] | undefined) ?? []), text];
  }
  return text;
}

/** Parses argv (without node and the script) against `table`. Throws on a malformed value. */
export function parseArgv<T extends FlagTable>(argv: readonly string[], table: T): ParsedArgv<T> {
  const index = new FlagIndex(table);
  const values: Record<string, RawOf<FlagSpec>> = {};
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('-')) {
      unknown.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const [rawName, inline] = arg.replace(/^--?/, '').split(/=(.*)/s, 2) as [string, string | undefined];
    const found = index.find(rawName, long);
    const spec = found && table[found.name];
    if (!found || !spec) {
      unknown.push(arg);
      continue;
    }
    const {name} = found;
    if (spec.type === 'boolean') {
      const {value, consumed} = booleanValue(name, found.negated, inline, argv[i + 1]);
      values[name] = value;
      i += consumed ? 1 : 0;
      continue;
    }
    let text = inline;
    if (text === undefined) {
      text = argv[i + 1];
      if (text === undefined) {
        throw new Error(`--${name} needs a value.`);
      }
      i++;
    }
    values[name] = rawValue(name, spec, text, values[name]);
  }
  // The index above only ever stores a value of the flag's own raw type under its name.
  return {values: values as RawValuesOf<T>, unknown};
}
