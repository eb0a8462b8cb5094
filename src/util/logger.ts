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
}

/** Where warnings are written, for errors that send the user to the log. */
export function logDestination(): string {
  if (sink) {
    return "the embedding program's log (onLog)";
  }
  return logFile ? `the log file ${logFile}` : "the server's stderr";
}
