import {appendFileSync} from 'node:fs';
import {format} from 'node:util';

/**
 * Logging never touches stdout (it carries the MCP protocol). Lines go to
 * `--logFile` when set, else to stderr when `CDP_MCP_DEBUG` is set or the line
 * is a warning.
 */
let logFile: string | undefined;
let verbose = Boolean(process.env['CDP_MCP_DEBUG']);

export type LogLevel = 'debug' | 'warn';
/** An embedder's log sink: gets every line, debug ones included. */
let sink: ((level: LogLevel, message: string) => void) | undefined;

export function configureLogger(options: {
  logFile?: string;
  verbose?: boolean;
  sink?: (level: LogLevel, message: string) => void;
}): void {
  logFile = options.logFile;
  sink = options.sink;
  if (options.verbose !== undefined) {
    verbose = options.verbose;
  }
}

/** Told every warning (the MCP sessions send them to their clients as log messages). */
type WarningListener = (message: string) => void;
const listeners = new Set<WarningListener>();
/** Warnings from before the first listener (startup: ignored flags), told to each new one; bounded. */
const early: string[] = [];
const MAX_EARLY = 20;
let listened = false;

/**
 * Calls `listener` with each later warning, and at once with those written
 * before any listener existed. Returns the unsubscribe function.
 */
export function onWarning(listener: WarningListener): () => void {
  for (const message of early) {
    listener(message);
  }
  listeners.add(listener);
  listened = true;
  return () => listeners.delete(listener);
}

function tell(message: string): void {
  if (!listened && early.length < MAX_EARLY) {
    early.push(message);
  }
  for (const listener of listeners) {
    try {
      listener(message);
    } catch {
      // A failing listener must not break the server (nor the other listeners).
    }
  }
}

/** Applied to every line before it is written (--secrets: their values never reach a log). */
const redactions = new Set<(text: string) => string>();

/** Adds a redaction of every log line; returns its removal. */
export function addLogRedaction(redact: (text: string) => string): () => void {
  redactions.add(redact);
  return () => redactions.delete(redact);
}

function formatted(args: unknown[]): string {
  let text = format(...args);
  for (const redact of redactions) {
    text = redact(text);
  }
  return text;
}

function write(level: LogLevel, args: unknown[]): void {
  if (sink) {
    try {
      sink(level, formatted(args));
    } catch {
      // A failing sink must not break the server.
    }
    return;
  }
  const line = `${new Date().toISOString()} ${level} ${formatted(args)}\n`;
  if (logFile) {
    try {
      appendFileSync(logFile, line);
      return;
    } catch {
      // Fall through to stderr when the log file cannot be written.
    }
  }
  process.stderr.write(line);
}

/** Debug detail: only with --logFile or CDP_MCP_DEBUG. */
export function debug(...args: unknown[]): void {
  if (logFile || verbose || sink) {
    write('debug', args);
  }
}

/** Something the user should know about; always written. */
export function warn(...args: unknown[]): void {
  write('warn', args);
  tell(formatted(args));
}

/**
 * A warning for the operator's log only, never sent to MCP clients: one
 * about the MCP connection itself (sending it there could fail the same way).
 */
export function warnLocally(...args: unknown[]): void {
  write('warn', args);
}

/** Where warnings are written, for errors that send the user to the log. */
export function logDestination(): string {
  if (sink) {
    return "the embedding program's log (onLog)";
  }
  return logFile ? `the log file ${logFile}` : "the server's stderr";
}
