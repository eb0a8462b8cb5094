/**
 * The CLI's commands: `start`, `status`, `stop`, `help` and one per tool.
 * The bin hands over when the first word is not a flag.
 */
import {type Output, runningDaemon, startCommand, statusCommand, stopCommand} from './daemon.js';
import {mainHelp} from './help.js';
import {cliConfig, EXIT_USAGE, toolCommand} from './toolCall.js';

export const COMMANDS = ['start', 'status', 'stop', 'help'] as const;

/** The help of `cdp-mcp --help`, with the tools as the running server (or a new one) offers them. */
export async function helpCommand(io: Output): Promise<number> {
  const {createTools} = await import('../tools/registry.js');
  io.out(mainHelp(createTools(cliConfig(runningDaemon()?.args))));
  return 0;
}

/** Runs a command line whose first word is a command or a tool name; returns the exit code. */
export async function runCommand(argv: readonly string[], io: Output): Promise<number> {
  const [word = '', ...rest] = argv;
  const noMore = (command: string) => {
    if (rest.length) {
      io.err(`cdp-mcp ${command} takes no arguments (got ${rest.join(' ')}).\n`);
      return false;
    }
    return true;
  };
  if ((COMMANDS as readonly string[]).includes(word) && (rest.includes('--help') || rest.includes('-h'))) {
    return helpCommand(io);
  }
  try {
    switch (word) {
      case 'start':
        return await startCommand(rest, io);
      case 'status':
        return noMore(word) ? statusCommand(io) : EXIT_USAGE;
      case 'stop':
        return noMore(word) ? await stopCommand(io) : EXIT_USAGE;
      case 'help':
        return await helpCommand(io);
      default:
        return await toolCommand(word, rest, io);
    }
  } catch (error) {
    io.err(`cdp-mcp ${word}: ${(error as Error).message}\n`);
    return 1;
  }
}
