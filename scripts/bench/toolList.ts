/**
 * Tool list benchmark (issue 22): the characters an agent reads in
 * `tools/list` before its first call, per tool, ours against
 * chrome-devtools-mcp 1.11.0's, both with default flags (no browser starts).
 *
 *   npm run bench:toollist            # totals, ratio, and the largest tools
 *   npm run bench:toollist -- --all   # every tool, and what the texts cost
 *
 * It also says when test/support/toolListBudget.ts's recorded reference
 * figure no longer matches the installed reference.
 */
import {startServer} from '../../test/support/mcpClient.js';
import {referenceBin} from '../../test/support/oracle.js';
import {
  charsPerTool,
  REFERENCE_TOOLS_LIST,
  TOOLS_LIST_CEILING,
  TOOLS_LIST_TARGET,
} from '../../test/support/toolListBudget.js';

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: {properties?: Record<string, {description?: string; items?: {properties?: Record<string, unknown>}}>};
}

async function listTools(side: 'ours' | 'theirs'): Promise<{tools: ListedTool[]}> {
  const server =
    side === 'ours'
      ? await startServer()
      : await startServer({
          bin: referenceBin(),
          replaceFlags: true,
          env: {CI: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1'},
        });
  try {
    return await server.client.listTools();
  } finally {
    await server.close();
  }
}

/** Characters of the descriptions (the tool's and its parameters'). */
function textChars(tool: ListedTool): number {
  const params = Object.values(tool.inputSchema.properties ?? {});
  return (tool.description ?? '').length + params.reduce((sum, p) => sum + (p.description ?? '').length, 0);
}

async function main(): Promise<void> {
  const all = process.argv.includes('--all');
  const ours = await listTools('ours');
  const theirs = await listTools('theirs');
  const line = (name: string, result: {tools: ListedTool[]}) => {
    const chars = JSON.stringify(result).length;
    const texts = result.tools.reduce((sum, t) => sum + textChars(t), 0);
    return `${name.padEnd(8)} ${String(chars).padStart(7)} chars  ${String(result.tools.length).padStart(3)} tools  ${charsPerTool(result).toFixed(0).padStart(5)} per tool  (descriptions ${texts})`;
  };
  const ratio = charsPerTool(ours) / charsPerTool(theirs);
  const theirsChars = JSON.stringify(theirs).length;
  console.log('tools/list, default flags: JSON.stringify(result) characters');
  console.log(line('ours', ours));
  console.log(line('theirs', theirs));
  console.log(
    `ratio    ${ratio.toFixed(3)} per tool (goal ${TOOLS_LIST_TARGET}: ${(TOOLS_LIST_TARGET * charsPerTool(theirs)).toFixed(0)} per tool; test ceiling ${TOOLS_LIST_CEILING})`,
  );
  if (theirsChars !== REFERENCE_TOOLS_LIST.chars || theirs.tools.length !== REFERENCE_TOOLS_LIST.tools) {
    console.log(
      `note: the recorded reference (${REFERENCE_TOOLS_LIST.chars} chars, ${REFERENCE_TOOLS_LIST.tools} tools) is stale: update test/support/toolListBudget.ts`,
    );
  }
  const sized = ours.tools
    .map(t => ({name: t.name, chars: JSON.stringify(t).length, texts: textChars(t)}))
    .sort((a, b) => b.chars - a.chars);
  console.log(all ? '\nevery tool (chars, of which descriptions):' : '\nlargest tools (chars, of which descriptions):');
  for (const t of all ? sized : sized.slice(0, 10)) {
    console.log(`  ${String(t.chars).padStart(5)} ${String(t.texts).padStart(5)}  ${t.name}`);
  }
}

await main();
