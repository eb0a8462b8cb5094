import type {TraceMetadata} from './bundle.js';

/**
 * Splits a JSON trace (`[event, …]` or `{"traceEvents": [event, …], "metadata": {…}}`)
 * into its events without turning the whole buffer into one string: V8 caps
 * strings at about 512 MB, and long traces of busy pages get there. Each event
 * is parsed on its own; a syntax error names the byte offset.
 */
export interface TraceFileContents {
  events: unknown[];
  metadata: TraceMetadata;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

class TraceSyntaxError extends Error {
  constructor(what: string, offset: number) {
    super(`the trace is not valid JSON (${what} at byte ${offset})`);
  }
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(buf: Uint8Array, at: number): number {
  let i = at;
  while (i < buf.length && isSpace(buf[i])) {
    i++;
  }
  return i;
}

/** `at` is on the opening quote; returns the index after the closing one. */
function skipString(buf: Uint8Array, at: number): number {
  let i = at + 1;
  while (i < buf.length) {
    const byte = buf[i];
    if (byte === BACKSLASH) {
      i += 2;
    } else if (byte === QUOTE) {
      return i + 1;
    } else {
      i++;
    }
  }
  throw new TraceSyntaxError('unterminated string', at);
}

/** Returns the index just after the JSON value starting at `at`. */
function skipValue(buf: Uint8Array, at: number): number {
  const first = buf[at];
  if (first === QUOTE) {
    return skipString(buf, at);
  }
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let i = at;
    while (i < buf.length) {
      const byte = buf[i];
      if (byte === QUOTE) {
        i = skipString(buf, i);
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          return i + 1;
        }
      }
      i++;
    }
    throw new TraceSyntaxError('unterminated object or array', at);
  }
  let i = at;
  while (i < buf.length && !isSpace(buf[i]) && buf[i] !== COMMA && buf[i] !== CLOSE_BRACE && buf[i] !== CLOSE_BRACKET) {
    i++;
  }
  if (i === at) {
    throw new TraceSyntaxError('missing value', at);
  }
  return i;
}

function parseSlice(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString('utf8', start, end));
  } catch {
    throw new TraceSyntaxError('malformed value', start);
  }
}

/** Parses the array starting at `at` element by element; returns the index after it. */
function readArray(buf: Buffer, at: number, into: unknown[]): number {
  let i = skipSpace(buf, at + 1);
  if (buf[i] === CLOSE_BRACKET) {
    return i + 1;
  }
  for (;;) {
    const end = skipValue(buf, i);
    into.push(parseSlice(buf, i, end));
    i = skipSpace(buf, end);
    if (buf[i] === COMMA) {
      i = skipSpace(buf, i + 1);
    } else if (buf[i] === CLOSE_BRACKET) {
      return i + 1;
    } else {
      throw new TraceSyntaxError('expected "," or "]"', i);
    }
  }
}

export function parseTraceFile(buf: Buffer): TraceFileContents {
  const events: unknown[] = [];
  let metadata: TraceMetadata = {};
  let i = skipSpace(buf, 0);
  // A UTF-8 byte order mark is tolerated.
  if (buf[i] === 0xef && buf[i + 1] === 0xbb && buf[i + 2] === 0xbf) {
    i = skipSpace(buf, i + 3);
  }
  if (buf[i] === OPEN_BRACKET) {
    readArray(buf, i, events);
    return {events, metadata};
  }
  if (buf[i] !== OPEN_BRACE) {
    throw new TraceSyntaxError('expected "[" or "{"', i);
  }
  i = skipSpace(buf, i + 1);
  while (buf[i] !== CLOSE_BRACE) {
    if (buf[i] !== QUOTE) {
      throw new TraceSyntaxError('expected a key', i);
    }
    const keyEnd = skipString(buf, i);
    const key = parseSlice(buf, i, keyEnd);
    i = skipSpace(buf, keyEnd);
    if (buf[i] !== COLON) {
      throw new TraceSyntaxError('expected ":"', i);
    }
    i = skipSpace(buf, i + 1);
    if (key === 'traceEvents' && buf[i] === OPEN_BRACKET) {
      i = readArray(buf, i, events);
    } else {
      const end = skipValue(buf, i);
      if (key === 'metadata') {
        const value = parseSlice(buf, i, end);
        if (value && typeof value === 'object') {
          metadata = value as TraceMetadata;
        }
      }
      i = end;
    }
    i = skipSpace(buf, i);
    if (buf[i] === COMMA) {
      i = skipSpace(buf, i + 1);
    } else if (buf[i] !== CLOSE_BRACE) {
      throw new TraceSyntaxError('expected "," or "}"', i);
    }
  }
  return {events, metadata};
}
