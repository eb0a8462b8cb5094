/**
 * The size of tools/list with default flags (issue 22): at most
 * TOOLS_LIST_CEILING of chrome-devtools-mcp 1.11's characters per tool
 * (test/support/toolListBudget.ts; `npm run bench:toollist` measures both).
 * A size check on our own output, not a timed one.
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import {startServer, type TestServer} from '../support/mcpClient.js';
import {charsPerTool, REFERENCE_TOOLS_LIST, TOOLS_LIST_CEILING, toolsListRatio} from '../support/toolListBudget.js';

describe('tools/list size', () => {
  let mcp: TestServer;

  before(async () => {
    mcp = await startServer();
  });

  after(async () => {
    await mcp?.close();
  });

  it(`costs at most ${TOOLS_LIST_CEILING}x chrome-devtools-mcp 1.11's characters per tool`, async () => {
    const result = await mcp.client.listTools();
    const ratio = toolsListRatio(result);
    const budget = (TOOLS_LIST_CEILING * REFERENCE_TOOLS_LIST.chars) / REFERENCE_TOOLS_LIST.tools;
    assert.ok(
      ratio <= TOOLS_LIST_CEILING,
      `tools/list is ${charsPerTool(result).toFixed(0)} characters per tool (${ratio.toFixed(3)}x the reference's), over the budget of ${budget.toFixed(0)}: shorten descriptions (npm run bench:toollist names the largest tools)`,
    );
  });

  it('says each thing once: no description repeats the title, no annotations.title', async () => {
    const {tools} = await mcp.client.listTools();
    for (const tool of tools) {
      assert.equal(tool.annotations?.title, undefined, tool.name);
      assert.notEqual(tool.description, tool.title, tool.name);
    }
  });
});
