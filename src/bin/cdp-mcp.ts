#!/usr/bin/env node
import {parseConfig} from '../config/options.js';
import {configureLogger, warn} from '../util/logger.js';
import {tuneHeap} from './heapTuning.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`cdp-mcp needs Node.js 20.19 or newer; this is ${process.version}.\n`);
  process.exit(1);
}

tuneHeap();

const argv = process.argv.slice(2);
// A first word that is not a flag is a CLI command (start, status, stop) or a tool to call.
if (argv[0] !== undefined && !argv[0].startsWith('-')) {
  const {runCommand} = await import('../client/main.js');
  const io = {out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text)};
  process.exit(await runCommand(argv, io));
} else {
  await serve(argv);
}

async function serve(argv: string[]): Promise<void> {
  let config;
  try {
    config = parseConfig(argv);
  } catch (error) {
    process.stderr.write(`cdp-mcp: ${(error as Error).message}\nRun cdp-mcp --help for the flags.\n`);
    process.exit(2);
  }
  // --help and --version answer a person, not an MCP client: stdout is theirs.
  if (config.help) {
    const {helpCommand} = await import('../client/main.js');
    await helpCommand({out: text => process.stdout.write(text), err: text => process.stderr.write(text)});
    process.exit(0);
  }
  if (config.version) {
    const {SERVER_VERSION} = await import('../util/version.js');
    process.stdout.write(`${SERVER_VERSION}\n`);
    process.exit(0);
  }
  configureLogger({logFile: config.logFile});
  if (config.unknown.length) {
    warn(`Unknown arguments ignored: ${config.unknown.join(' ')}`);
  }
  process.on('unhandledRejection', reason => warn('unhandled rejection:', reason));
  if (config.port === undefined && process.stdin.isTTY) {
    // A person started it in a terminal: silence would look like a hang.
    process.stderr.write(
      'cdp-mcp: an MCP server for Chrome, waiting for an MCP client on stdin/stdout. Start it from your client instead (README: "Use it from an MCP client"); cdp-mcp --help lists the flags and the CLI. Ctrl-C quits.\n',
    );
  }

  // Loaded after the checks so that --help stays instant.
  const {startTransport} = await import('../server/start.js');
  try {
    await startTransport(config, {exitOnSignal: true});
  } catch (error) {
    // Refused to start (a non-loopback address without a token, a port in use…).
    process.stderr.write(`cdp-mcp: ${(error as Error).message}\n`);
    process.exit(2);
  }
}
