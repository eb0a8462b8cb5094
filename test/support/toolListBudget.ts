/**
 * The size of `tools/list` (issue 22): characters of JSON.stringify(result)
 * per listed tool, ours against chrome-devtools-mcp 1.11.0's, both with default
 * flags. `npm run bench:toollist` measures both live (and says when the
 * reference figure below is stale); test/e2e/toolListSize.test.ts holds ours
 * under the ceiling.
 */

/** chrome-devtools-mcp 1.11.0's tools/list with default flags: characters and tools. */
export const REFERENCE_TOOLS_LIST = {chars: 28_628, tools: 32} as const;

/** Issue 22's goal: at most this share of the reference's characters per tool. */
export const TOOLS_LIST_TARGET = 0.7;

/**
 * What the test enforces today, a ratchet: lower it as the list shrinks, never
 * raise it. The goal is not reached: measured 2026-12-04, ours was 0.90x with
 * 9.3 KB of descriptions (the reference: 13.2 KB); with every description
 * emptied (the keys kept) it would still be 0.63x, because every tool carries
 * a title, all four hints and a closed 2020-12 schema (issue 20; the
 * reference sends readOnlyHint only and no title: without those ours is 0.80x).
 */
export const TOOLS_LIST_CEILING = 0.92;

/** Characters per tool of a tools/list result. */
export function charsPerTool(result: {tools: readonly unknown[]}): number {
  return JSON.stringify(result).length / result.tools.length;
}

/** Ours per tool over the reference's per tool. */
export function toolsListRatio(result: {tools: readonly unknown[]}): number {
  return charsPerTool(result) / (REFERENCE_TOOLS_LIST.chars / REFERENCE_TOOLS_LIST.tools);
}
