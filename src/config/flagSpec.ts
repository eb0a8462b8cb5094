/**
 * The shape of one entry of the flag table (`flagTable.ts`), and the types
 * derived from a table: the raw values the command line (or a config file)
 * gives, and the `Config` the server runs with.
 */

/** Where --help and docs/flags.md list a flag, in this order. */
export const FLAG_GROUPS = {
  launch: 'Launching Chrome',
  attach: 'Attaching to a running Chrome',
  categories: 'Tool categories',
  tools: 'Tools and their output',
  network: 'Network and files',
  http: 'Serving over HTTP, many sessions',
  logging: 'Logging',
  compatibility: 'Accepted for compatibility with chrome-devtools-mcp',
  meta: 'Help',
} as const;

/** A key of FLAG_GROUPS. */
export type FlagGroup = keyof typeof FLAG_GROUPS;

/** What every entry has, whatever its type. */
interface CommonSpec {
  /** One or two sentences for --help and docs/flags.md; code in backticks (docs keep them, --help drops them). */
  description: string;
  /** The section of --help and of docs/flags.md. */
  group: FlagGroup;
  /** Other spellings: a single letter is used as `-u`, a longer name as `--name`. */
  alias?: readonly string[];
  /** The Config field the value lands in, when it is not the flag's own name (repeatable flags are plural there). */
  key?: string;
  /** Accepted for compatibility and ignored: says why. Such a flag has no Config field. */
  noEffect?: string;
  /** How --help and docs/flags.md show the value, e.g. `<url>`. */
  placeholder?: string;
  /** The default as --help shows it, when it is not a literal value (a path under $HOME). */
  defaultText?: string;
}

/** An on/off flag: `--x`, `--no-x`, `--x=false`, `--x false`. */
export interface BooleanSpec extends CommonSpec {
  type: 'boolean';
  /** @default false */
  default?: boolean;
}

/** A flag with one text value: `--x v` or `--x=v`. */
export interface StringSpec extends CommonSpec {
  type: 'string';
  /** The only values accepted; the Config field is their union. */
  choices?: readonly string[];
  /** Without one, the Config field is optional. */
  default?: string;
  /** Checks and converts the value; throws an Error that says what to change. Its result is the Config value. */
  parse?: (raw: string, flag: string) => unknown;
}

/** A flag with one numeric value. */
export interface NumberSpec extends CommonSpec {
  type: 'number';
  /** Smallest accepted value. */
  min?: number;
  /** Largest accepted value. */
  max?: number;
  /** Only whole numbers (a port, a count). */
  integer?: boolean;
  /** A value accepted outside min-max that turns the feature off (0 for a cap). */
  off?: number;
  /** Without one, the Config field is optional. */
  default?: number;
}

/** A repeatable flag: every occurrence adds one value. */
export interface ArraySpec extends CommonSpec {
  type: 'array';
  /** @default [] */
  default?: readonly string[];
  /** Checks and converts all values at once; throws an Error that says what to change. */
  parse?: (raw: string[], flag: string) => unknown;
}

/** One entry of the flag table. */
export type FlagSpec = BooleanSpec | StringSpec | NumberSpec | ArraySpec;

/** A flag table: flag name (camelCase, as typed after `--`) → entry. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** The value the command line gives for a flag, before its checks: what a config file must hold too. */
export type RawOf<S extends FlagSpec> = S extends {type: 'boolean'}
  ? boolean
  : S extends {type: 'number'}
    ? number
    : S extends {type: 'array'}
      ? string[]
      : string;

/** Raw values by flag name, for the flags that were given. */
export type RawValuesOf<T extends FlagTable> = {-readonly [N in keyof T]?: RawOf<T[N]>};

/** The value a flag leaves in Config: its parser's result, one of its choices, or its raw type. */
export type ValueOf<S extends FlagSpec> = S extends {parse: (...args: never[]) => infer V}
  ? V
  : S extends {choices: readonly (infer C)[]}
    ? C
    : RawOf<S>;

/** The Config field of a flag. */
type KeyOf<N, S> = S extends {key: infer K extends string} ? K : N;

/** Booleans and repeatable flags always have a value; the others when they have a default. */
type HasValue<S> = S extends {type: 'boolean' | 'array'} ? true : S extends {default: unknown} ? true : false;

/** Flags that do something (the others have no Config field). */
type Live<T extends FlagTable> = {[N in keyof T as T[N] extends {noEffect: string} ? never : N]: T[N]};

type Simplify<T> = {[K in keyof T]: T[K]} & {};

/** The configuration a flag table describes: one field per flag that has an effect. */
export type ConfigOf<T extends FlagTable> = Simplify<
  {
    -readonly [N in keyof Live<T> as HasValue<Live<T>[N]> extends true ? KeyOf<N, Live<T>[N]> : never]: ValueOf<
      Live<T>[N]
    >;
  } & {
    -readonly [N in keyof Live<T> as HasValue<Live<T>[N]> extends true ? never : KeyOf<N, Live<T>[N]>]?: ValueOf<
      Live<T>[N]
    >;
  }
>;

/** Declares a flag table, keeping its literal types (choices, keys) for `ConfigOf`. */
export function defineFlags<const T extends FlagTable>(table: T): T {
  return table;
}
