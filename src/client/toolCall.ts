/**
 * `cdp-mcp <tool> [--param value ...]`: one tool call on the background
 * server. The parameters are read and checked here, against the same tool
 * definitions the server uses (so a typo is exit code 2 with the parameter's
 * name, before anything runs); the result's text goes to stdout, its images
 * to temp files whose paths are printed.
 */
import {randomBytes} from 'node:crypto';
import {writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';

import * as v from 'valibot';

import {type Config, parseConfig} from '../cli/options.js';
import {paramDocs, parseToolArgs, UsageError} from '../cli/toolParams.js';
import {createTools, type RegisteredTool} from '../tools/registry.js';
import {callTool, type ToolResult} from './connection.js';
import {type Output, runningDaemon, startDaemon} from './daemon.js';
import {toolHelp} from './help.js';

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

/** Text to stdout; each image to a temp file (0600), its path printed as chrome-devtools' CLI does. */
function print(result: ToolResult, tool: string, io: Output): void {
  const parts: string[] = [];
  for (const item of result.content) {
    if (item.type === 'text' && item.text !== undefined) {
      parts.push(item.text);
    } else if (item.type === 'image' && item.data !== undefined) {
      const extension = IMAGE_EXTENSIONS[item.mimeType ?? ''] ?? 'bin';
      const path = join(tmpdir(), `cdp-mcp-${tool}-${randomBytes(6).toString('hex')}.${extension}`);
      writeFileSync(path, Buffer.from(item.data, 'base64'), {mode: 0o600, flag: 'wx'});
      parts.push(`Saved to ${path}.`);
    }
  }
  io.out(`${parts.join('\n')}\n`);
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
  try {
    args = parseToolArgs(name, registered.inputSchema, argv);
    checkArgs(registered, args);
  } catch (error) {
    if (!(error instanceof UsageError)) {
      throw error;
    }
    io.err(`cdp-mcp ${name}: ${error.message}\nRun cdp-mcp ${name} --help for its parameters.\n`);
    return EXIT_USAGE;
  }
  // The server may run elsewhere (its cwd is where it was started): paths mean what they mean here.
  for (const key of registered.tool.filePaths ?? []) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') {
      args[key] = resolve(value);
    }
  }
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
    print(result, name, io);
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
