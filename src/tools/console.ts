import * as v from 'valibot';

import {type DetailContext, entryArguments, entryStack, issueAffectedLines} from '../browser/consoleDetails.js';
import type {Page} from '../browser/Page.js';
import {
  type ConsoleListItem,
  formatConsoleDetail,
  formatConsoleList,
  formatIssueDetail,
} from '../response/formatConsole.js';
import {SECTION_ORDER} from '../response/ResponseBuilder.js';
import type {PathSandbox} from '../util/sandbox.js';
import {definePageTool} from './defineTool.js';

const CONSOLE_TYPES = [
  'log',
  'debug',
  'info',
  'error',
  'warn',
  'dir',
  'dirxml',
  'table',
  'trace',
  'clear',
  'startGroup',
  'startGroupCollapsed',
  'endGroup',
  'assert',
  'profile',
  'profileEnd',
  'count',
  'timeEnd',
  'verbose',
  'issue',
] as const;

function detailContext(page: Page, files: PathSandbox): DetailContext {
  return {
    sourceMaps: page.instrumentation.sourceMaps,
    access: {policy: page.urlPolicy, files, session: page.session, frameId: page.mainFrameId},
  };
}

export const listConsoleMessages = definePageTool({
  name: 'list_console_messages',
  description:
    'List console messages of the page since its last navigation: console.* calls, uncaught errors, browser log entries and DevTools issues, with msgids for get_console_message.',
  annotations: {category: 'debugging', readOnlyHint: true},
  blockedByDialog: false,
  schema: {
    pageSize: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description('Messages per page. Omit (with pageIdx) to list all.'),
      ),
    ),
    pageIdx: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description('0-based page to show. Default is the first page.')),
    ),
    types: v.optional(
      v.pipe(
        v.array(v.picklist(CONSOLE_TYPES)),
        v.description(
          'Only messages of these types (uncaught errors are "error", DevTools issues "issue"). Omit or empty for all.',
        ),
      ),
    ),
    includePreservedMessages: v.optional(
      v.pipe(
        v.boolean(),
        v.description('Also list messages of the last 2 navigations before the current one. Default is false.'),
      ),
    ),
    includeStackTraces: v.optional(
      v.pipe(v.boolean(), v.description('Show the (source-mapped) stack trace under each message. Default is false.')),
    ),
  },
  async handler({params, page}, response, {files}) {
    const types = params.types?.length ? new Set<string>(params.types) : undefined;
    const entries = page.instrumentation.console
      .list(params.includePreservedMessages ?? false)
      .filter(entry => !types || types.has(entry.type));
    const ctx = params.includeStackTraces ? detailContext(page, files) : undefined;
    const items = await Promise.all(
      entries.map(async (entry): Promise<ConsoleListItem> => ({
        id: entry.id,
        type: entry.type,
        text: entry.text,
        argsCount: entry.argsCount,
        issueCount: entry.kind === 'issue' ? entry.count : undefined,
        stack: ctx ? await entryStack(entry, ctx) : undefined,
      })),
    );
    response.section(SECTION_ORDER.consoleList, formatConsoleList(items, params.pageSize, params.pageIdx));
  },
});

export const getConsoleMessage = definePageTool({
  name: 'get_console_message',
  description:
    'Show one console message by msgid (from list_console_messages): its arguments, (source-mapped) stack trace and error causes, or the details of a DevTools issue.',
  annotations: {category: 'debugging', readOnlyHint: true},
  blockedByDialog: false,
  schema: {
    msgid: v.pipe(v.number(), v.description('The msgid of a message from list_console_messages.')),
  },
  async handler({params, page}, response, {files, config}) {
    const entry = page.instrumentation.console.findById(params.msgid);
    if (!entry) {
      throw new Error(
        `No console message with msgid ${params.msgid} on page ${page.id}. Call list_console_messages to see the msgids.`,
      );
    }
    if (entry.kind === 'issue') {
      const affected = issueAffectedLines(
        entry,
        page.instrumentation.network,
        page.elements?.uidForBackendNodeId?.bind(page.elements),
        config.redactNetworkHeaders,
      );
      response.section(
        SECTION_ORDER.consoleMessage,
        formatIssueDetail({
          id: entry.id,
          title: entry.text,
          explanation: entry.explanation,
          count: entry.count,
          affected,
        }),
      );
      return;
    }
    const ctx = detailContext(page, files);
    const [args, stack] = await Promise.all([
      entry.kind === 'console' ? entryArguments(entry, ctx) : Promise.resolve([]),
      entryStack(entry, ctx),
    ]);
    let text = entry.text;
    let shown = args;
    if (!text && args.length > 0) {
      // Without a text of its own, the first argument stands for it.
      const first = args[0];
      text = typeof first === 'string' ? first : (first?.message ?? '');
      shown = args.slice(1);
    }
    response.section(
      SECTION_ORDER.consoleMessage,
      formatConsoleDetail({id: entry.id, type: entry.type, text, args: shown, stack}),
    );
  },
});
