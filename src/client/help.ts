/**
 * What `cdp-mcp --help` and `cdp-mcp <tool> --help` print: the commands, the
 * tools by category, a tool's description and parameters. From the tool
 * definitions, like docs/tools.md.
 */
import {helpText, wrap} from '../config/flagDocs.js';
import {CATEGORIES, type ToolCategory} from '../tools/categories.js';
import type {RegisteredTool} from '../tools/registry.js';
import {paramDocs} from './toolParams.js';

const COMMANDS: Array<[string, string]> = [
  ['cdp-mcp [flags]', 'Run the MCP server: stdio, or Streamable HTTP with --port (flags below).'],
  [
    'cdp-mcp start [flags]',
    'Start the background server the commands below talk to, one per user (headless and --isolated unless the ' +
      'flags say otherwise). A second start with the same flags keeps it; with other flags it fails: stop it first.',
  ],
  ['cdp-mcp status', 'Whether it runs, its pid, flags, uptime, browser, endpoint. Exit code 1 when none runs.'],
  ['cdp-mcp stop', 'Stop it and the Chrome it launched (waits until they are gone).'],
  [
    'cdp-mcp <tool> [required values] [--param value ...] [--output-format md|json]',
    'Call one tool on the background server (started with the defaults when none runs) and print its text; images ' +
      'are saved to temp files whose paths are printed. With --output-format json: the structured content (a server ' +
      "started with --experimentalStructuredContent) plus the images' files, else the text parts as a JSON array. " +
      'Page-scoped tools act on the selected page unless --pageId is given. Exit code 1 when the tool reports an ' +
      'error, 2 for a wrong command line.',
  ],
  ['cdp-mcp <tool> --help', "The tool's description and parameters."],
];

const PARAM_SYNTAX =
  'Parameters: --name value or --name=value; booleans as --name, --name=false or --no-name; arrays by repeating ' +
  'the parameter or as one JSON array; objects as JSON. Required parameters may also be plain words in schema ' +
  "order, as in chrome-devtools-mcp's CLI: cdp-mcp click 1_7.";

/** The whole of `cdp-mcp --help`: commands, tools, then the server's flags. */
export function mainHelp(tools: RegisteredTool[]): string {
  const lines = ['Commands:'];
  for (const [usage, text] of COMMANDS) {
    lines.push(`  ${usage}`, ...wrap(text, 94).map(l => `      ${l}`));
  }
  lines.push(
    '',
    ...wrap(PARAM_SYNTAX, 100),
    '',
    'Tools (* off with these flags; cdp-mcp <tool> --help says which flag):',
  );
  for (const category of Object.keys(CATEGORIES) as ToolCategory[]) {
    const names = tools
      .filter(t => t.tool.annotations.category === category)
      .map(t => `${t.tool.name}${t.disabledReason ? '*' : ''}`);
    if (names.length) {
      lines.push(`  ${CATEGORIES[category].label}:`, ...wrap(names.join(', '), 94).map(l => `      ${l}`));
    }
  }
  return `${lines.join('\n')}\n\n${helpText()}\n`;
}

/** `cdp-mcp <tool> --help`. */
export function toolHelp(registered: RegisteredTool): string {
  const {tool} = registered;
  const params = paramDocs(registered.inputSchema);
  const usage = params
    .map(p => {
      const value = p.schema.type === 'boolean' ? '' : ` <${p.type}>`;
      return p.required ? `--${p.name}${value}` : `[--${p.name}${value}]`;
    })
    .join(' ');
  const lines = [
    ...wrap(`Usage: cdp-mcp ${tool.name} ${usage}${usage ? ' ' : ''}[--output-format md|json]`, 100),
    '',
    ...wrap(tool.description, 100),
    '',
    `Category: ${CATEGORIES[tool.annotations.category].label}. ${registered.disabledReason ?? 'Enabled.'}`,
  ];
  if (params.length) {
    lines.push('', 'Parameters:');
  }
  for (const p of params) {
    const facts = [
      p.type,
      p.required ? 'required' : 'optional',
      ...(p.defaultValue ? [`default ${p.defaultValue}`] : []),
    ];
    lines.push(`  --${p.name}  (${facts.join(', ')})`, ...wrap(p.description, 94).map(l => `      ${l}`));
  }
  if (params.length) {
    lines.push('', ...wrap(PARAM_SYNTAX, 100));
  }
  return `${lines.join('\n')}\n`;
}
