/**
 * `--secrets`: values the client may have typed into pages by name, and may
 * never read back. Tools that type take a secret's name in place of its
 * value; every output the server produces (responses, saved files, log lines)
 * goes through redact(), which replaces each value, and the forms pages and
 * tools commonly encode it in, by `<secret>NAME</secret>`.
 */

/** What a secret's value is replaced by. */
export function secretMarker(name: string): string {
  return `<secret>${name}</secret>`;
}

/** Encoded fragments shorter than this are not redacted inside longer encoded text (they would match by chance). */
const MIN_FRAGMENT = 8;

const HTML_ESCAPES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'};

function base64(bytes: Buffer): string[] {
  const plain = bytes.toString('base64');
  return [plain, plain.replace(/=+$/, ''), bytes.toString('base64url')];
}

/**
 * The base64 characters that depend only on `value`'s bytes, for each of the
 * three alignments it can have inside a longer encoded text.
 */
function base64Fragments(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const fragments: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const fragment = encoded.slice(first, end);
    if (fragment.length >= MIN_FRAGMENT) {
      fragments.push(fragment, fragment.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return fragments;
}

/** The forms of `value` that are redacted: as is, JSON-escaped (once, twice), URL-encoded, HTML-escaped, base64. */
export function secretForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const uri = encodeURIComponent(value);
  const forms = [
    value,
    json,
    JSON.stringify(json).slice(1, -1),
    uri,
    uri.replace(/%20/g, '+'),
    uri.replace(/%[0-9A-F]{2}/g, hex => hex.toLowerCase()),
    encodeURI(value),
    value.replace(/[&<>"']/g, c => HTML_ESCAPES[c] ?? c),
    ...base64(Buffer.from(value, 'utf8')),
    ...base64Fragments(value),
  ];
  return [...new Set(forms)].filter(form => form.length > 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A writer that redacts text given in pieces: a value split across two pieces is still found. */
export interface RedactingWriter {
  write(chunk: string): void;
  /** Writes what is held back. */
  end(): void;
}

/** The operator's secrets: name → value. */
export class Secrets {
  readonly #values: ReadonlyMap<string, string>;
  /** Each form of each value → the marker it becomes. */
  readonly #markers = new Map<string, string>();
  /** Byte (latin1) forms → markers, for binary content. */
  readonly #byteMarkers = new Map<string, string>();
  readonly #pattern: RegExp;
  readonly #bytePattern: RegExp;
  readonly #longest: number;

  constructor(values: Record<string, string>) {
    this.#values = new Map(Object.entries(values));
    for (const [name, value] of this.#values) {
      for (const form of secretForms(value)) {
        if (!this.#markers.has(form)) {
          this.#markers.set(form, secretMarker(name));
          this.#byteMarkers.set(Buffer.from(form, 'utf8').toString('latin1'), secretMarker(name));
        }
      }
    }
    this.#pattern = alternation([...this.#markers.keys()]);
    this.#bytePattern = alternation([...this.#byteMarkers.keys()]);
    this.#longest = Math.max(0, ...[...this.#markers.keys()].map(form => form.length));
  }

  get names(): string[] {
    return [...this.#values.keys()];
  }

  /**
   * What a tool argument stands for: the secret's value when the whole
   * argument is its name (or its marker), else the argument as given.
   */
  resolve(argument: string): string {
    const name = /^<secret>(.*)<\/secret>$/s.exec(argument)?.[1] ?? argument;
    return this.#values.get(name) ?? argument;
  }

  /** `text` with every form of every value replaced by its marker. */
  redact(text: string): string {
    if (!this.#values.size || typeof text !== 'string') {
      return text;
    }
    return text.replace(this.#pattern, form => this.#markers.get(form) ?? form);
  }

  /** The same for bytes (a body, a file): the values' UTF-8 forms are replaced. */
  redactBytes(data: Uint8Array): Uint8Array {
    if (!this.#values.size) {
      return data;
    }
    const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
    const redacted = text.replace(this.#bytePattern, form => {
      const marker = this.#byteMarkers.get(form) ?? '';
      return Buffer.from(marker, 'utf8').toString('latin1');
    });
    return redacted === text ? data : Buffer.from(redacted, 'latin1');
  }

  /** Every string of a JSON-like value (keys included), redacted. */
  redactDeep<T>(value: T): T {
    if (!this.#values.size) {
      return value;
    }
    return this.#deep(value) as T;
  }

  #deep(value: unknown): unknown {
    if (typeof value === 'string') {
      return this.redact(value);
    }
    if (Array.isArray(value)) {
      return value.map(item => this.#deep(item));
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, item]) => [this.redact(k), this.#deep(item)]));
    }
    return value;
  }

  /** A writer to `out` that redacts across pieces: it holds back what could be the start of a value. */
  writer(out: (chunk: string) => void): RedactingWriter {
    let pending = '';
    const hold = Math.max(0, this.#longest - 1);
    return {
      write: chunk => {
        pending += chunk;
        const safe = pending.length - hold;
        if (safe <= 0) {
          return;
        }
        const {text, cut} = this.#redactUpTo(pending, safe);
        pending = pending.slice(cut);
        if (text) {
          out(text);
        }
      },
      end: () => {
        if (pending) {
          out(this.redact(pending));
        }
        pending = '';
      },
    };
  }

  /** Redacts matches that start before `safe` (they are complete: `hold` characters follow). */
  #redactUpTo(text: string, safe: number): {text: string; cut: number} {
    let out = '';
    let last = 0;
    let cut = safe;
    if (this.#values.size) {
      for (const match of text.matchAll(this.#pattern)) {
        if (match.index >= cut) {
          break;
        }
        out += text.slice(last, match.index) + (this.#markers.get(match[0]) ?? match[0]);
        last = match.index + match[0].length;
        cut = Math.max(cut, last);
      }
    }
    return {text: out + text.slice(last, cut), cut};
  }
}

/** One regular expression matching any of `forms`, the longest first. */
function alternation(forms: string[]): RegExp {
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.length ? sorted.map(escapeRegExp).join('|') : '(?!)', 'g');
}

/** A dotenv line: `NAME=value`, `export NAME=value`, quoted or not, `#` comments. */
const DOTENV_LINE =
  /^\s*(?:export\s+)?([\w.-]+)\s*=\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|[^#\r\n]*)\s*(?:#.*)?$/gm;

/**
 * Parses dotenv text as the dotenv package does: single-quoted values are
 * literal, double-quoted ones expand \n and \r, unquoted ones are trimmed and
 * end at `#`; quoted values may span lines. Returns name → value.
 */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(DOTENV_LINE)) {
    const name = match[1] ?? '';
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length > 1) {
      value = value.slice(1, -1);
      if (quote === '"') {
        value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
      }
    }
    values[name] = value;
  }
  return values;
}
