/**
 * docs/tools.md: every tool with its category, the flags that turn it on, its
 * parameters and description, from the tool definitions (src/tools/). `npm
 * run gen-docs` writes it; a unit test (test/unit/cli/toolDocs.test.ts) fails
 * when it no longer matches.
 */
import {paramDocs} from '../src/client/toolParams.js';
import {DEFAULT_CONFIG} from '../src/config/options.js';
import {CATEGORIES, type ToolCategory} from '../src/tools/categories.js';
import {gatingFlags} from '../src/tools/categories.js';
import {createTools, type RegisteredTool} from '../src/tools/registry.js';

/** Where `npm run gen-docs` writes it, relative to the repository. */
export const TOOLS_DOC = 'docs/tools.md';

const HEADER = `# Tools

<!-- Generated from the tool definitions in src/tools/ by \`npm run gen-docs\`; do not edit. -->

Every tool of cdp-mcp, by category. A tool is offered when its category is on and the flags it needs
are given; one that is off is not listed, and a call to it answers with the flag that turns it on.
"Enabled by" lists those flags (\`default\`: on without any). The Emulation, Performance, Network,
Debugging, Input, Navigation and Memory categories are on unless turned off (\`--categoryNetwork=false\`);
the others are off unless turned on.

Page-scoped tools take \`pageId\` (the page to act on, from \`list_pages\`): required for MCP clients,
optional on the command line (\`cdp-mcp <tool>\`, where it defaults to the selected page), absent with
\`--pageIdRouting=false\` and in \`--slim\` mode, where they act on the selected page.
The same facts are printed by \`cdp-mcp <tool> --help\`.`;

/** A Markdown table cell: pipes escaped, newlines as spaces. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function anchor(name: string): string {
  return name.replace(/[^a-z0-9_-]/gi, '').toLowerCase();
}

function enabledBy(registered: RegisteredTool): string {
  const flags = gatingFlags(registered.tool, DEFAULT_CONFIG);
  return flags.length ? flags.map(f => `\`${f}\``).join(' + ') : 'default';
}

function toolSection(registered: RegisteredTool): string[] {
  const {tool} = registered;
  const lines = [
    `### \`${tool.name}\``,
    '',
    `Category: ${CATEGORIES[tool.annotations.category].label} · Enabled by: ${enabledBy(registered)} · ` +
      `${tool.annotations.readOnlyHint ? 'Read-only' : 'Changes the page or browser'}` +
      `${tool.pageScoped ? ' · Page-scoped' : ''}`,
    '',
    tool.description.trim(),
    '',
  ];
  const params = paramDocs(registered.inputSchema);
  if (!params.length) {
    return [...lines, 'No parameters.', ''];
  }
  lines.push('| parameter | type | required | default | description |', '| --- | --- | --- | --- | --- |');
  for (const p of params) {
    const def = p.defaultValue ? `\`${cell(p.defaultValue)}\`` : '';
    lines.push(
      `| \`${p.name}\` | \`${cell(p.type)}\` | ${p.required ? 'required' : 'optional'} | ${def} | ${cell(p.description)} |`,
    );
  }
  return [...lines, ''];
}

/** The whole of docs/tools.md. */
export function toolsMarkdown(): string {
  const tools = createTools(DEFAULT_CONFIG);
  const parts = [HEADER, '', '| tool | category | enabled by |', '| --- | --- | --- |'];
  const order = Object.keys(CATEGORIES) as ToolCategory[];
  const sorted = [...tools].sort(
    (a, b) =>
      order.indexOf(a.tool.annotations.category) - order.indexOf(b.tool.annotations.category) ||
      a.tool.name.localeCompare(b.tool.name),
  );
  for (const t of sorted) {
    const {label} = CATEGORIES[t.tool.annotations.category];
    parts.push(`| [\`${t.tool.name}\`](#${anchor(t.tool.name)}) | ${label} | ${enabledBy(t)} |`);
  }
  for (const category of order) {
    const members = sorted.filter(t => t.tool.annotations.category === category);
    if (members.length) {
      parts.push('', `## ${CATEGORIES[category].label}`, '', ...members.flatMap(toolSection));
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}
