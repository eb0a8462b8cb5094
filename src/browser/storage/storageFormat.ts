/**
 * The storage state file of save_storage_state / load_storage_state: the
 * shape of Playwright's `storageState()` (cookies with Playwright's fields,
 * origins with their localStorage) plus optional fields Playwright ignores:
 * `sessionStorage` per origin and the cookie attributes it has no field for.
 * Playwright files load here, and our files load in Playwright.
 */
import type {Protocol} from '../../../protocol/index.js';

export type SameSite = 'Strict' | 'Lax' | 'None';

export interface StorageItem {
  name: string;
  value: string;
}

export interface StateCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: SameSite;
  /** Beyond Playwright's fields. */
  priority?: 'Low' | 'Medium' | 'High';
  sourceScheme?: 'Unset' | 'NonSecure' | 'Secure';
  sourcePort?: number;
  /** Top-level site of a partitioned (CHIPS) cookie, as Playwright spells it. */
  partitionKey?: string;
  partitionHasCrossSiteAncestor?: boolean;
}

export interface StateOrigin {
  /** Serialized origin, e.g. `https://example.com`. */
  origin: string;
  localStorage: StorageItem[];
  /** Beyond Playwright's fields: the tab's sessionStorage of this origin. */
  sessionStorage?: StorageItem[];
}

export interface StorageState {
  cookies: StateCookie[];
  origins: StateOrigin[];
}

/** A file we refuse to read as a state file (it says what is wrong). */
export class StateFormatError extends Error {
  override name = 'StateFormatError';
}

const SAME_SITE = ['Strict', 'Lax', 'None'] as const;
const PRIORITIES = ['Low', 'Medium', 'High'] as const;
const SCHEMES = ['Unset', 'NonSecure', 'Secure'] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field<T>(object: Json, key: string, where: string, check: (v: unknown) => v is T, expected: string): T {
  const value = object[key];
  if (!check(value)) {
    throw new StateFormatError(`"${where}.${key}" must be ${expected}, not ${describe(value)}`);
  }
  return value;
}

function optional<T>(
  object: Json,
  key: string,
  where: string,
  check: (v: unknown) => v is T,
  expected: string,
): T | undefined {
  return object[key] === undefined ? undefined : field(object, key, where, check, expected);
}

function describe(value: unknown): string {
  if (value === undefined) {
    return 'missing';
  }
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : `${typeof value} ${JSON.stringify(value)}`;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (v: unknown): v is T =>
    typeof v === 'string' && (values as readonly string[]).includes(v);

function items(list: unknown, where: string): StorageItem[] {
  if (!Array.isArray(list)) {
    throw new StateFormatError(`"${where}" must be an array of {name, value}, not ${describe(list)}`);
  }
  return list.map((item, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(item)) {
      throw new StateFormatError(`"${at}" must be an object {name, value}, not ${describe(item)}`);
    }
    return {name: field(item, 'name', at, isString, 'a string'), value: field(item, 'value', at, isString, 'a string')};
  });
}

function cookie(raw: unknown, i: number): StateCookie {
  const at = `cookies[${i}]`;
  if (!isObject(raw)) {
    throw new StateFormatError(`"${at}" must be an object, not ${describe(raw)}`);
  }
  const domain = field(raw, 'domain', at, isString, 'a string');
  if (!domain) {
    throw new StateFormatError(`"${at}.domain" must not be empty`);
  }
  const path = optional(raw, 'path', at, isString, 'a string') ?? '/';
  if (!path.startsWith('/')) {
    throw new StateFormatError(`"${at}.path" must start with "/", not ${JSON.stringify(path)}`);
  }
  const expires = optional(raw, 'expires', at, isNumber, 'a number (seconds since 1970, or -1)') ?? -1;
  if (expires < 0 && expires !== -1) {
    throw new StateFormatError(`"${at}.expires" must be -1 (session cookie) or a time in seconds, not ${expires}`);
  }
  const sourcePort = optional(raw, 'sourcePort', at, isNumber, 'a port number');
  if (sourcePort !== undefined && (!Number.isInteger(sourcePort) || sourcePort < -1 || sourcePort > 65_535)) {
    throw new StateFormatError(`"${at}.sourcePort" must be a port number, not ${sourcePort}`);
  }
  return {
    name: field(raw, 'name', at, isString, 'a string'),
    value: field(raw, 'value', at, isString, 'a string'),
    domain,
    path,
    expires,
    httpOnly: optional(raw, 'httpOnly', at, isBoolean, 'true or false') ?? false,
    secure: optional(raw, 'secure', at, isBoolean, 'true or false') ?? false,
    sameSite: optional(raw, 'sameSite', at, oneOf(SAME_SITE), '"Strict", "Lax" or "None"') ?? 'Lax',
    priority: optional(raw, 'priority', at, oneOf(PRIORITIES), '"Low", "Medium" or "High"'),
    sourceScheme: optional(raw, 'sourceScheme', at, oneOf(SCHEMES), '"Unset", "NonSecure" or "Secure"'),
    sourcePort,
    partitionKey: optional(raw, 'partitionKey', at, isString, 'a string (the top-level site)'),
    partitionHasCrossSiteAncestor: optional(raw, 'partitionHasCrossSiteAncestor', at, isBoolean, 'true or false'),
  };
}

function origin(raw: unknown, i: number): StateOrigin {
  const at = `origins[${i}]`;
  if (!isObject(raw)) {
    throw new StateFormatError(`"${at}" must be an object {origin, localStorage}, not ${describe(raw)}`);
  }
  const name = field(raw, 'origin', at, isString, 'a string such as "https://example.com"');
  let parsed: URL | undefined;
  try {
    parsed = new URL(name);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== name) {
    throw new StateFormatError(
      `"${at}.origin" must be an http(s) origin such as "https://example.com" (no path), not ${JSON.stringify(name)}`,
    );
  }
  return {
    origin: name,
    localStorage: raw['localStorage'] === undefined ? [] : items(raw['localStorage'], `${at}.localStorage`),
    sessionStorage:
      raw['sessionStorage'] === undefined ? undefined : items(raw['sessionStorage'], `${at}.sessionStorage`),
  };
}

/** Checks a parsed file completely; throws a StateFormatError naming the first problem. */
export function parseStorageState(json: unknown): StorageState {
  if (!isObject(json)) {
    throw new StateFormatError(
      `the file must hold a JSON object {"cookies": [...], "origins": [...]}, not ${describe(json)}`,
    );
  }
  if (!Array.isArray(json['cookies'])) {
    throw new StateFormatError(`"cookies" must be an array, not ${describe(json['cookies'])}`);
  }
  const origins = json['origins'] ?? [];
  if (!Array.isArray(origins)) {
    throw new StateFormatError(`"origins" must be an array, not ${describe(origins)}`);
  }
  const state = {cookies: json['cookies'].map(cookie), origins: origins.map(origin)};
  const seen = new Set<string>();
  for (const {origin: name} of state.origins) {
    if (seen.has(name)) {
      throw new StateFormatError(`origin ${name} is listed twice in "origins"`);
    }
    seen.add(name);
  }
  return state;
}

/** Parses a file's text as JSON and checks it as a state; throws a StateFormatError saying what is wrong. */
export function parseStorageText(text: string): StorageState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StateFormatError(`it is not JSON (${(error as Error).message})`, {cause: error});
  }
  return parseStorageState(json);
}

/** A CDP cookie as the state file keeps it. */
export function cookieToState(c: Protocol.Network.Cookie): StateCookie {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.session || c.expires < 0 ? -1 : c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    // Chrome's "unspecified" behaves as Lax; Playwright's format has no other spelling.
    sameSite: c.sameSite ?? 'Lax',
    priority: c.priority,
    sourceScheme: c.sourceScheme,
    sourcePort: c.sourcePort,
    ...(c.partitionKey
      ? {partitionKey: c.partitionKey.topLevelSite, partitionHasCrossSiteAncestor: c.partitionKey.hasCrossSiteAncestor}
      : {}),
  };
}

/** A state cookie as Storage.setCookies takes it. */
export function cookieToParam(c: StateCookie): Protocol.Network.CookieParam {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    secure: c.secure,
    httpOnly: c.httpOnly,
    sameSite: c.sameSite,
    ...(c.expires === -1 ? {} : {expires: c.expires}),
    ...(c.priority ? {priority: c.priority} : {}),
    ...(c.sourceScheme ? {sourceScheme: c.sourceScheme} : {}),
    ...(c.sourcePort !== undefined ? {sourcePort: c.sourcePort} : {}),
    ...(c.partitionKey
      ? {partitionKey: {topLevelSite: c.partitionKey, hasCrossSiteAncestor: c.partitionHasCrossSiteAncestor ?? false}}
      : {}),
  };
}
