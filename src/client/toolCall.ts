/**
 * `cdp-mcp <tool> [--param value ...]`: one tool call on the background
 * server. The parameters are read and checked here, against the same tool
 * definitions the server uses (so a typo is exit code 2 with the parameter's
 * name, before anything runs); the result's text goes to stdout, its images
 * to temp files whose paths are printed. `--output-format json` prints JSON
 * instead, as chrome-devtools' CLI does: the structured content (the server
 * started with --experimentalStructuredContent) with the images' files, else
 * the text parts as an array.
 */
import {randomBytes} from 'node:crypto';
import {writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';

import * as v from 'valibot';

import {type Config, parseConfig} from '../config/options.js';
import {createTools, type RegisteredTool} from '../tools/registry.js';
import {callTool, type ToolResult} from './connection.js';
import {type Output, runningDaemon, startDaemon} from './daemon.js';
import {toolHelp} from './help.js';
import {paramDocs, parseToolArgs, UsageError} from './toolParams.js';

/** Exit codes. */
export const EXIT_OK = 0;
export const EXIT_TOOL_ERROR = 1;
export const EXIT_USAGE = 2;
/** Interrupted (Ctrl-C), as shells report SIGINT. */
const EXIT_INTERRUPTED = 130;

const IMAGE_EXTENSIONS: Record<string, string> = {'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp'};

/** The configuration the tools are read with: the running server's, else a new one's. */
export function cliConfig(args: readonly string[] | undefined): Config {
  try {
    return parseConfig(args ?? ['--viaCli']);
  } catch {
    // A server of another version, with flags this one does not know.
    return parseConfig(['--viaCli']);
  }
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

export function unknownCommand(word: string, tools: RegisteredTool[]): string {
  const close = tools.map(t => t.tool.name).filter(n => distance(n, word) <= 3 || n.includes(word));
  const hint = close.length ? ` Did you mean ${close.slice(0, 3).join(', ')}?` : '';
  return `cdp-mcp: unknown command or tool "${word}".${hint} Run cdp-mcp --help for the commands and tools.\n`;
}

/** Checks the arguments with the tool's own valibot schema: the first problem, with the parameter's name. */
function checkArgs(registered: RegisteredTool, args: Record<string, unknown>): void {
  const result = v.safeParse(registered.schema, args);
  if (result.success) {
    return;
  }
  const issue = result.issues[0];
  const path = issue.path?.map(p => String(p.key)).join('.') ?? '';
  const param = paramDocs(registered.inputSchema).find(p => p.name === issue.path?.[0]?.key);
  const message = issue.message.replace(/\.?$/, '.');
  throw new UsageError(path ? `--${path} (${param?.type ?? 'JSON'}): ${message}` : message);
}

/** How a result is printed (chrome-devtools' CLI has the same two). */
export type OutputFormat = 'md' | 'json';
const OUTPUT_FORMATS: readonly OutputFormat[] = ['md', 'json'];
const OUTPUT_FORMAT_FLAG = '--output-format';

/** Takes `--output-format <md|json>` (or `=`) out of a tool command line: it is the CLI's, not the tool's. */
export function takeOutputFormat(argv: readonly string[]): {format: OutputFormat; rest: string[]} {
  const rest: string[] = [];
  let format: OutputFormat = 'md';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    let value: string | undefined;
    if (arg === OUTPUT_FORMAT_FLAG) {
      value = argv[++i];
    } else if (arg.startsWith(`${OUTPUT_FORMAT_FLAG}=`)) {
      value = arg.slice(OUTPUT_FORMAT_FLAG.length + 1);
    } else {
      rest.push(arg);
      continue;
    }
    if (!OUTPUT_FORMATS.includes(value as OutputFormat)) {
      throw new UsageError(
        `${OUTPUT_FORMAT_FLAG} takes ${OUTPUT_FORMATS.join('|')}, not ${value === undefined ? 'nothing' : `"${value}"`}.`,
      );
    }
    format = value as OutputFormat;
  }
  return {format, rest};
}

/** Each image to a temp file (0600), as chrome-devtools' CLI does. */
function saveImage(item: ToolResult['content'][number], tool: string): {filePath: string; mimeType: string} {
  const mimeType = item.mimeType ?? 'application/octet-stream';
  const extension = IMAGE_EXTENSIONS[mimeType] ?? 'bin';
  const filePath = join(tmpdir(), `cdp-mcp-${tool}-${randomBytes(6).toString('hex')}.${extension}`);
  writeFileSync(filePath, Buffer.from(item.data ?? '', 'base64'), {mode: 0o600, flag: 'wx'});
  return {filePath, mimeType};
}

/** What the CLI prints for a result: its text, images as "Saved to <path>." lines (md), or JSON. */
export function renderResult(result: ToolResult, tool: string, format: OutputFormat): string {
  const parts: Array<string | {filePath: string; mimeType: string}> = [];
  for (const item of result.content) {
    if (item.type === 'text' && item.text !== undefined) {
      parts.push(item.text);
    } else if (item.type === 'image' && item.data !== undefined) {
      parts.push(saveImage(item, tool));
    }
  }
  if (format === 'md') {
    return `${parts.map(part => (typeof part === 'string' ? part : `Saved to ${part.filePath}.`)).join('\n')}\n`;
  }
  const images = parts.filter(part => typeof part !== 'string');
  const json = result.structuredContent
    ? {...result.structuredContent, ...(images.length ? {images} : {})}
    : [...parts.filter(part => typeof part === 'string'), ...images];
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The tool's file parameters as absolute paths: the server may run elsewhere (its cwd is where it was started). */
function resolveFilePaths(registered: {tool: {filePaths?: readonly string[]}}, args: Record<string, unknown>): void {
  for (const key of registered.tool.filePaths ?? []) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') {
      args[key] = resolve(value);
    }
  }
}

/** Runs `cdp-mcp <tool> ...argv`; returns the exit code. */
export async function toolCommand(name: string, argv: readonly string[], io: Output): Promise<number> {
  let state = runningDaemon();
  const tools = createTools(cliConfig(state?.args));
  const registered = tools.find(t => t.tool.name === name);
  if (!registered) {
    io.err(unknownCommand(name, tools));
    return EXIT_USAGE;
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(toolHelp(registered));
    return EXIT_OK;
  }
  let args: Record<string, unknown>;
  let format: OutputFormat;
  try {
    const taken = takeOutputFormat(argv);
    format = taken.format;
    args = parseToolArgs(name, registered.inputSchema, taken.rest);
    checkArgs(registered, args);
  } catch (error) {
    if (!(error instanceof UsageError)) {
      throw error;
    }
    io.err(`cdp-mcp ${name}: ${error.message}\nRun cdp-mcp ${name} --help for its parameters.\n`);
    return EXIT_USAGE;
  }
  resolveFilePaths(registered, args);
  if (!state) {
    state = await startDaemon([]);
    io.err(
      `cdp-mcp: no background server was running: started one with the defaults (pid ${state.pid}). ` +
        'cdp-mcp status shows it, cdp-mcp stop stops it.\n',
    );
  }
  const abort = new AbortController();
  const interrupt = () => abort.abort();
  process.once('SIGINT', interrupt);
  try {
    const result = await callTool(state, name, args, abort.signal);
    io.out(renderResult(result, name, format));
    return result.isError ? EXIT_TOOL_ERROR : EXIT_OK;
  } catch (error) {
    if (abort.signal.aborted) {
      io.err(`cdp-mcp ${name}: interrupted; the call was cancelled.\n`);
      return EXIT_INTERRUPTED;
    }
    io.err(
      `cdp-mcp ${name}: the background server (pid ${state.pid}, ${state.url}) did not answer: ${(error as Error).message}\n` +
        'See cdp-mcp status and its log; cdp-mcp stop, then cdp-mcp start, gives a fresh one.\n',
    );
    return EXIT_TOOL_ERROR;
  } finally {
    process.off('SIGINT', interrupt);
  }
}
