/**
 * Parsers for flag values that are more than a string: each checks one value,
 * returns what the Config holds, and throws an Error that says what to change.
 */
import {readFileSync, realpathSync, statSync} from 'node:fs';
import {resolve} from 'node:path';

import {parseDotenv, Secrets} from '../util/secrets.js';
import {parseUrlPatternFlag} from '../util/urlPattern.js';

/** A content size typed as `1280x720`. */
export interface Size {
  width: number;
  height: number;
}

/** `http(s)://…` (the browser's HTTP debugging endpoint); empty means not given. */
export function httpUrl(raw: string, flag: string): string | undefined {
  if (raw && !/^https?:\/\//.test(raw)) {
    throw new Error(`--${flag} must be an http(s) URL such as http://127.0.0.1:9222, not "${raw}".`);
  }
  return raw || undefined;
}

/** `ws(s)://…` (a browser WebSocket endpoint); empty means not given. */
export function wsUrl(raw: string, flag: string): string | undefined {
  if (raw && !/^wss?:\/\//.test(raw)) {
    throw new Error(`--${flag} must be a ws:// or wss:// URL, not "${raw}".`);
  }
  return raw || undefined;
}

/** A JSON object whose values become strings (HTTP header values). */
export function jsonStringRecord(raw: string, flag: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`--${flag} must be a JSON object: ${(error as Error).message}`, {cause: error});
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`--${flag} must be a JSON object such as {"Authorization":"Bearer x"}.`);
  }
  return Object.fromEntries(Object.entries(parsed).map(([k, value]) => [k, String(value)]));
}

/** `<width>x<height>` in CSS pixels. */
export function size(raw: string, flag: string): Size {
  const match = /^(\d+)x(\d+)$/.exec(raw);
  if (!match) {
    throw new Error(`--${flag} must look like 1280x720, not "${raw}".`);
  }
  return {width: Number(match[1]), height: Number(match[2])};
}

/** URLPattern syntax (`*://*.example.com/*`), every value checked. */
export function urlPatterns(raw: string[], flag: string): string[] {
  for (const pattern of raw) {
    parseUrlPatternFlag(pattern, flag);
  }
  return raw;
}

/** Tool names, comma-separated or one per occurrence (`a,b` `--x c`); which exist is checked with the tools. */
export function toolNameList(raw: string[], flag: string): string[] {
  const names = raw.flatMap(value => value.split(',')).map(name => name.trim());
  const bad = names.find(name => name !== '' && !/^[A-Za-z0-9_-]+$/.test(name));
  if (bad !== undefined) {
    throw new Error(
      `--${flag} takes tool names separated by commas, such as evaluate_script,upload_file, not "${bad}".`,
    );
  }
  return [...new Set(names.filter(name => name !== ''))];
}

/** Web origins (`https://app.example.com`), every value checked. */
export function origins(raw: string[], flag: string): string[] {
  for (const origin of raw) {
    if (!/^https?:\/\/[^/]+\/?$/.test(origin)) {
      throw new Error(`--${flag} must be an origin such as https://app.example.com, not "${origin}".`);
    }
  }
  return raw;
}

/** Directories that exist, as canonical absolute paths (symlinks resolved): the file tools' roots. */
export function existingDirectories(raw: string[], flag: string): string[] {
  return raw.map(dir => {
    let real: string;
    try {
      real = realpathSync(resolve(dir));
    } catch {
      throw new Error(`--${flag} ${dir}: no such directory. Give an existing directory.`);
    }
    if (!statSync(real).isDirectory()) {
      throw new Error(`--${flag} ${dir}: not a directory. Give a directory.`);
    }
    return real;
  });
}

/** A file that exists (an executable the server runs later). */
export function existingFile(raw: string, flag: string): string {
  let isFile = false;
  try {
    isFile = statSync(raw).isFile();
  } catch {
    // Reported below.
  }
  if (!isFile) {
    throw new Error(`--${flag} ${raw}: no such file. Give the path of an existing file.`);
  }
  return resolve(raw);
}

/** A dotenv file of secrets (`NAME=value` per line): read once, at start. */
export function secretsFile(raw: string, flag: string): Secrets {
  let text: string;
  try {
    text = readFileSync(raw, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `--${flag} ${raw}: no such file. Give the path of a dotenv file (NAME=value per line).`
        : `--${flag} ${raw}: cannot read it (${(error as Error).message}).`,
      {cause: error},
    );
  }
  const values = parseDotenv(text);
  const names = Object.keys(values);
  if (!names.length) {
    throw new Error(`--${flag} ${raw}: no secrets in it. Write one NAME=value per line (dotenv format).`);
  }
  const empty = names.find(name => values[name] === '');
  if (empty !== undefined) {
    throw new Error(`--${flag} ${raw}: ${empty} has an empty value. Give it a value or remove the line.`);
  }
  return new Secrets(values);
}
