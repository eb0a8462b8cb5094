#!/usr/bin/env node
import {helpText} from '../cli/help.js';
import {parseConfig} from '../cli/options.js';
import {SERVER_VERSION} from '../server/createServer.js';
import {configureLogger, warn} from '../util/logger.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`cdp-mcp needs Node.js 20.19 or newer; this is ${process.version}.\n`);
  process.exit(1);
}

let config;
try {
  config = parseConfig(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`cdp-mcp: ${(error as Error).message}\nRun cdp-mcp --help for the flags.\n`);
  process.exit(2);
}
// --help and --version answer a person, not an MCP client: stdout is theirs.
if (config.help) {
  process.stdout.write(`${helpText()}\n`);
  process.exit(0);
}
if (config.version) {
  process.stdout.write(`${SERVER_VERSION}\n`);
  process.exit(0);
}
configureLogger({logFile: config.logFile});
if (config.unknown.length) {
  warn(`Unknown arguments ignored: ${config.unknown.join(' ')}`);
}
process.on('unhandledRejection', reason => warn('unhandled rejection:', reason));

// Loaded after the checks so that --help stays instant.
const {startServer} = await import('../index.js');
await startServer(config);
