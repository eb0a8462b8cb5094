/**
 * `--config <file.json>`: flags from a JSON object whose keys are flag names
 * as typed after `--` in camelCase (`"headless": true`, `"chromeArg":
 * ["--lang=de"]`, `"workspace": ["/src"]`). The values go through the same
 * checks as the command line's; the command line wins over the file.
 */
import {readFileSync} from 'node:fs';

import type {FlagSpec, FlagTable, RawOf, RawValuesOf} from './flagSpec.js';

/** Keys a config file may not hold: they are about the command line itself. */
const COMMAND_LINE_ONLY = new Set(['config', 'help', 'version']);

/** The flag a key names (its name or a longer alias). */
function flagFor(key: string, table: FlagTable): string | undefined {
  if (key in table) {
    return key;
  }
  return Object.keys(table).find(name => table[name]?.alias?.some(alias => alias.length > 1 && alias === key));
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** The raw value of one key, in the type the command line would give. Throws naming the key. */
function rawFromJson(key: string, spec: FlagSpec, value: unknown, file: string): RawOf<FlagSpec> {
  const wrong = (expected: string) =>
    new Error(`${file}: "${key}" must be ${expected}, not ${typeName(value)} (${JSON.stringify(value)}).`);
  switch (spec.type) {
    case 'boolean':
      if (typeof value !== 'boolean') {
        throw wrong('true or false');
      }
      return value;
    case 'number':
      if (typeof value !== 'number') {
        throw wrong('a number');
      }
      return value;
    case 'string':
      if (typeof value !== 'string') {
        throw wrong('a string');
      }
      return value;
    case 'array':
      if (typeof value === 'string') {
        return [value];
      }
      if (!Array.isArray(value) || value.some(item => typeof item !== 'string')) {
        throw wrong('a list of strings');
      }
      return value as string[];
  }
}

/** Reads and checks a config file against `table`. Throws an Error that names the file and the key. */
export function readConfigFile<T extends FlagTable>(file: string, table: T): RawValuesOf<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `--config ${file}: no such file. Give the path of a JSON file.`
        : `--config ${file}: cannot read it (${(error as Error).message}).`,
      {cause: error},
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`--config ${file} is not valid JSON: ${(error as Error).message}`, {cause: error});
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`--config ${file} must hold a JSON object of flags, e.g. {"headless": true}.`);
  }
  const values: Record<string, RawOf<FlagSpec>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const name = flagFor(key, table);
    const spec = name === undefined ? undefined : table[name];
    if (name === undefined || spec === undefined || COMMAND_LINE_ONLY.has(name)) {
      const hint = name === undefined ? ` Keys are flag names in camelCase, e.g. "executablePath".` : '';
      throw new Error(`${file}: unknown key "${key}".${hint}`);
    }
    values[name] = rawFromJson(key, spec, value, file);
  }
  // Each value was checked against the raw type of its own flag above.
  return values as RawValuesOf<T>;
}
