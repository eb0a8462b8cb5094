import {appendFileSync} from 'node:fs';
import {format} from 'node:util';

/**
 * Logging never touches stdout (it carries the MCP protocol). Lines go to
 * `--logFile` when set, else to stderr when `CDP_MCP_DEBUG` is set or the line
 * is a warning.
 */
let logFile: string | undefined;
let verbose = Boolean(process.env['CDP_MCP_DEBUG']);

export function configureLogger(options: {logFile?: string; verbose?: boolean}): void {
  logFile = options.logFile;
  if (options.verbose !== undefined) {
    verbose = options.verbose;
  }
}

function write(level: string, args: unknown[]): void {
  const line = `${new Date().toISOString()} ${level} ${format(...args)}\n`;
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
  if (logFile || verbose) {
    write('debug', args);
  }
}

/** Something the user should know about; always written. */
export function warn(...args: unknown[]): void {
  write('warn', args);
}
