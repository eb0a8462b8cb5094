import {toJsonSchema} from '@valibot/to-json-schema';
import * as v from 'valibot';

import type {Config} from '../cli/options.js';
import {getConsoleMessage, listConsoleMessages} from './console.js';
import {getCssStyles} from './css.js';
import {CATEGORY_FLAGS, CATEGORY_LABELS, pageIdEntry, type Tool, type ToolSource} from './defineTool.js';
import {listDownloads} from './downloads.js';
import {emulate, resizePage} from './emulation.js';
import {click, clickAt, drag, fill, fillForm, hover, pressKey, typeTextTool, uploadFile} from './input.js';
import {lighthouseAudit} from './lighthouse.js';
import {
  closeHeapSnapshot,
  getHeapSnapshotClassNodes,
  getHeapSnapshotDetails,
  getHeapSnapshotDuplicateStrings,
  getHeapSnapshotSummary,
  queryHeapSnapshotObjects,
  takeHeapSnapshot,
} from './memory.js';
import {
  analyzeHeapSnapshotContexts,
  compareHeapSnapshots,
  getHeapSnapshotDominators,
  getHeapSnapshotEdges,
  getHeapSnapshotObjectDetails,
  getHeapSnapshotRetainers,
  getHeapSnapshotRetainingPaths,
} from './memoryGraph.js';
import {navigatePage, waitFor} from './navigation.js';
import {getNetworkRequest, listNetworkRequests} from './network.js';
import {clearNetworkMocks, mockNetworkRequest} from './networkMocks.js';
import {closePage, handleDialog, listPages, newPage, selectPage} from './pages.js';
import {getPageText} from './pageText.js';
import {performanceAnalyzeInsight, performanceStartTrace, performanceStopTrace} from './performance.js';
import {sendCdpCommand} from './rawCdp.js';
import {screencastStart, screencastStop} from './screencast.js';
import {takeScreenshot} from './screenshot.js';
import {evaluateScript} from './script.js';
import {takeSnapshot} from './snapshot.js';
import {loadStorageState, saveStorageState} from './storage.js';

/** Every tool family, explicitly. */
export const TOOL_SOURCES: ToolSource[] = [
  listPages,
  selectPage,
  newPage,
  closePage,
  handleDialog,
  navigatePage,
  waitFor,
  evaluateScript,
  takeScreenshot,
  takeSnapshot,
  click,
  clickAt,
  hover,
  fill,
  fillForm,
  drag,
  pressKey,
  typeTextTool,
  uploadFile,
  resizePage,
  emulate,
  listConsoleMessages,
  getConsoleMessage,
  listNetworkRequests,
  getNetworkRequest,
  lighthouseAudit,
  screencastStart,
  screencastStop,
  mockNetworkRequest,
  clearNetworkMocks,
  saveStorageState,
  loadStorageState,
  listDownloads,
  getPageText,
  sendCdpCommand,
  takeHeapSnapshot,
  closeHeapSnapshot,
  getHeapSnapshotSummary,
  getHeapSnapshotDetails,
  getHeapSnapshotClassNodes,
  getHeapSnapshotDuplicateStrings,
  queryHeapSnapshotObjects,
  getHeapSnapshotRetainers,
  getHeapSnapshotEdges,
  getHeapSnapshotDominators,
  getHeapSnapshotRetainingPaths,
  getHeapSnapshotObjectDetails,
  analyzeHeapSnapshotContexts,
  compareHeapSnapshots,
  performanceStartTrace,
  performanceStopTrace,
  performanceAnalyzeInsight,
  getCssStyles,
];

/** A tool as registered: its final schema (pageId added when routing) and gating. */
export interface RegisteredTool {
  tool: Tool;
  schema: v.ObjectSchema<v.ObjectEntries, undefined>;
  inputSchema: Record<string, unknown>;
  /** Why the tool is off, with the flag that turns it on; undefined when enabled. */
  disabledReason: string | undefined;
}

export function toolDisabledReason(tool: Tool, config: Config): string | undefined {
  const flag = CATEGORY_FLAGS[tool.annotations.category];
  if (flag && config[flag] === false) {
    return `Tool ${tool.name} is in category ${CATEGORY_LABELS[tool.annotations.category]} which is currently disabled. Restart the server with --${flag}=true to enable it.`;
  }
  for (const condition of tool.annotations.conditions ?? []) {
    if (!config[condition]) {
      return `Tool ${tool.name} requires experimental feature --${condition} and is currently disabled. Restart the server with --${condition}=true to enable it.`;
    }
  }
  return undefined;
}

/** JSON Schema (draft 2020-12) of a tool's input, as sent in tools/list. */
export function inputJsonSchema(schema: v.ObjectSchema<v.ObjectEntries, undefined>): Record<string, unknown> {
  const json = toJsonSchema(schema, {target: 'draft-2020-12', errorMode: 'throw', typeMode: 'input'}) as Record<
    string,
    unknown
  >;
  delete json['$schema'];
  json['type'] = 'object';
  json['properties'] ??= {};
  return json;
}

/** Evaluates factories with the configuration, adds pageId routing, sorts by name. */
export function createTools(config: Config, sources: ToolSource[] = TOOL_SOURCES): RegisteredTool[] {
  return sources
    .map(source => (typeof source === 'function' ? source(config) : source))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(tool => {
      const entries = tool.pageScoped && config.pageIdRouting ? {...pageIdEntry, ...tool.schema} : {...tool.schema};
      const schema = v.object(entries);
      return {tool, schema, inputSchema: inputJsonSchema(schema), disabledReason: toolDisabledReason(tool, config)};
    });
}
