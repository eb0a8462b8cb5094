import {toJsonSchema} from '@valibot/to-json-schema';
import * as v from 'valibot';

import type {Config} from '../config/options.js';
import {outputJsonSchema} from '../response/structured.js';
import {closestNames} from '../util/closest.js';
import {toolDisabledReason} from './categories.js';
import {getConsoleMessage, listConsoleMessages} from './console.js';
import {getCssStyles} from './css.js';
import {optionalPageIdEntry, pageIdEntry, type Tool, type ToolSource} from './defineTool.js';
import {listDownloads} from './downloads.js';
import {emulate, resizePage} from './emulation.js';
import {
  installExtension,
  listExtensions,
  reloadExtension,
  triggerExtensionAction,
  uninstallExtension,
} from './extensions.js';
import {click, clickAt, drag, fill, fillForm, hover, pressKey, typeTextTool, uploadFile} from './input.js';
import {getTabId} from './interop.js';
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
import {getOsAppState, installPwa, launchPwa, uninstallPwa} from './pwa.js';
import {sendCdpCommand} from './rawCdp.js';
import {screencastStart, screencastStop} from './screencast.js';
import {takeScreenshot} from './screenshot.js';
import {evaluateScript} from './script.js';
import {slimEvaluate, slimNavigate, slimScreenshot} from './slim.js';
import {findElements, takeSnapshot} from './snapshot.js';
import {loadStorageState, saveStorageState} from './storage.js';
import {execute3pDeveloperTool, list3pDeveloperTools} from './thirdParty.js';
import {executeWebmcpTool, listWebmcpTools} from './webmcp.js';

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
  findElements,
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
  getTabId,
  installPwa,
  uninstallPwa,
  launchPwa,
  getOsAppState,
  list3pDeveloperTools,
  execute3pDeveloperTool,
  listWebmcpTools,
  executeWebmcpTool,
  installExtension,
  uninstallExtension,
  listExtensions,
  reloadExtension,
  triggerExtensionAction,
  slimNavigate,
  slimEvaluate,
  slimScreenshot,
];

/** A tool as registered: its final schema (pageId added when routing) and gating. */
export interface RegisteredTool {
  tool: Tool;
  schema: v.ObjectSchema<v.ObjectEntries, undefined>;
  inputSchema: Record<string, unknown>;
  /** JSON Schema of the tool's structured content (made on first read). */
  readonly outputSchema: Record<string, unknown>;
  /** Why the tool is off, with the flag that turns it on; undefined when enabled. */
  disabledReason: string | undefined;
}

/** JSON Schema (draft 2020-12) of a tool's input, as sent in tools/list. */
export function inputJsonSchema(schema: v.ObjectSchema<v.ObjectEntries, undefined>): Record<string, unknown> {
  const json = toJsonSchema(schema, {target: 'draft-2020-12', errorMode: 'throw', typeMode: 'input'}) as Record<
    string,
    unknown
  >;
  json['type'] = 'object';
  json['properties'] ??= {};
  // Unknown arguments are refused (the pipeline names them): the schema says so.
  json['additionalProperties'] = false;
  return json;
}

/** The four MCP hints of a tool, all set: a read-only tool is neither destructive nor repeatable with effect. */
export function toolHints(tool: Tool): {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
} {
  const {annotations} = tool;
  if (annotations.readOnlyHint) {
    return {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: annotations.openWorldHint ?? false,
    };
  }
  const {destructiveHint, idempotentHint, openWorldHint} = annotations;
  return {readOnlyHint: false, destructiveHint, idempotentHint, openWorldHint};
}

/** The pageId parameter page-scoped tools get: required with routing, optional for the CLI, none in slim mode. */
function pageIdFor(tool: Tool, config: Config): v.ObjectEntries {
  if (!tool.pageScoped || !config.pageIdRouting || config.slim) {
    return {};
  }
  return config.viaCli ? optionalPageIdEntry : pageIdEntry;
}

/**
 * Throws when --disabledTools or --enabledTools names a tool that does not
 * exist, with the names it most likely meant.
 */
export function checkToolLists(config: Config, tools: readonly Tool[]): void {
  const known = tools.map(tool => tool.name);
  for (const flag of ['disabledTools', 'enabledTools'] as const) {
    for (const name of config[flag]) {
      if (!known.includes(name)) {
        const close = closestNames(name, known);
        const hint = close.length
          ? ` Did you mean ${close.map(n => `"${n}"`).join(', ')}?`
          : ' The tool names are in docs/tools.md.';
        throw new Error(`--${flag}: there is no tool "${name}".${hint}`);
      }
    }
  }
}

/** The tools that type a secret given its name (--secrets). */
const SECRET_TYPING_TOOLS = new Set(['fill', 'fill_form', 'type_text', 'press_key']);

/** With --secrets, the typing tools say which names they take. */
function withSecretsNote(tool: Tool, config: Config): Tool {
  const names = config.secrets?.names ?? [];
  if (!names.length || !SECRET_TYPING_TOOLS.has(tool.name)) {
    return tool;
  }
  const note = `To type a secret, give its name as the whole value (${names.join(', ')}); outputs show <secret>NAME</secret>, never the value.`;
  return {...tool, description: `${tool.description} ${note}`};
}

/** Evaluates factories with the configuration, adds pageId routing, gates, sorts by name. */
export function createTools(config: Config, sources: ToolSource[] = TOOL_SOURCES): RegisteredTool[] {
  const tools = sources.map(source => withSecretsNote(typeof source === 'function' ? source(config) : source, config));
  checkToolLists(config, tools);
  // By code unit (names are lower-case ASCII and underscores, where that is localeCompare's
  // order): a collator would page ICU's data into the server's memory at start.
  return tools
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(tool => {
      const schema = v.object({...pageIdFor(tool, config), ...tool.schema});
      let outputSchema: Record<string, unknown> | undefined;
      return {
        tool,
        schema,
        inputSchema: inputJsonSchema(schema),
        // Made on first use: only --experimentalStructuredContent sends it, and making every
        // tool's (the union of the response parts) was half of createTools at start-up.
        get outputSchema() {
          return (outputSchema ??= outputJsonSchema(tool, config.untrustedContentMarkers));
        },
        disabledReason: toolDisabledReason(tool, config),
      };
    });
}
