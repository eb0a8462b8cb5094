import * as v from 'valibot';

import type {Config} from '../config/options.js';
import {
  type ConsoleListItem,
  formatConsoleDetail,
  formatConsoleList,
  formatIssueDetail,
} from '../response/formatConsole.js';
import {definePageTool, paginationEntries} from './defineTool.js';

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

/** list_console_messages' parameters. */
const LIST_CONSOLE_SCHEMA = {
  ...paginationEntries('Messages'),
  types: v.optional(v.pipe(v.array(v.picklist(CONSOLE_TYPES)), v.description('Only these types; omit for all.'))),
  includePreservedMessages: v.optional(v.pipe(v.boolean(), v.description("Also the last 2 navigations' messages."))),
  includeStackTraces: v.optional(v.pipe(v.boolean(), v.description('Add stack traces.'))),
  serviceWorkerId: v.optional(
    v.pipe(
      v.string(),
      v.description("An extension id (list_extensions, not sw-<n>): list its service worker's messages instead."),
    ),
  ),
};

export const listConsoleMessages = (config: Config) =>
  definePageTool({
    name: 'list_console_messages',
    title: 'List console messages',
    description: `Console messages, errors, log entries and DevTools issues since the last navigation.${config.categoryExtensions ? " This includes messages of extensions' content scripts." : ''}`,
    annotations: {category: 'debugging', readOnlyHint: true},
    blockedByDialog: false,
    sections: ['consoleList'],
    outputHint: 'Page through the messages with pageSize and pageIdx, or filter them with types.',
    schema: LIST_CONSOLE_SCHEMA,
    async handler({params, page}, response, {browser}) {
      const types = params.types?.length ? new Set<string>(params.types) : undefined;
      // As in the reference: worker messages come without stack traces, whatever includeStackTraces says.
      const fromWorker = Boolean(params.serviceWorkerId);
      const entries = (
        params.serviceWorkerId
          ? browser.serviceWorkerMessages(params.serviceWorkerId)
          : page.console.list(params.includePreservedMessages ?? false)
      ).filter(entry => !types || types.has(entry.type));
      const items = await Promise.all(
        entries.map(async (entry): Promise<ConsoleListItem> => ({
          id: entry.id,
          type: entry.type,
          text: entry.text,
          argsCount: entry.argsCount,
          issueCount: entry.kind === 'issue' ? entry.count : undefined,
          stack: params.includeStackTraces && !fromWorker ? await page.console.stack(entry) : undefined,
        })),
      );
      const {pageSize, pageIdx} = params;
      response.section('consoleList', formatConsoleList(items, pageSize, pageIdx), {items, pageSize, pageIdx});
    },
  });

export const getConsoleMessage = definePageTool({
  name: 'get_console_message',
  title: 'Get console message',
  description: 'One console message by msgid: arguments, stack trace, error causes or issue details.',
  annotations: {category: 'debugging', readOnlyHint: true},
  blockedByDialog: false,
  sections: ['consoleMessage'],
  schema: {
    msgid: v.pipe(v.number(), v.description('The msgid of a message from list_console_messages.')),
  },
  async handler({params, page}, response) {
    const entry = page.console.find(params.msgid);
    if (!entry) {
      throw new Error(
        `No console message with msgid ${params.msgid} on page ${page.id}. Call list_console_messages to see the msgids.`,
      );
    }
    if (entry.kind === 'issue') {
      const {id, text: title, explanation, count} = entry;
      const detail = {id, title, explanation, count, affected: page.console.issueOccurrences(entry)};
      response.section('consoleMessage', formatIssueDetail(detail), detail);
      return;
    }
    const [args, stack] = await Promise.all([page.console.arguments(entry), page.console.stack(entry)]);
    let text = entry.text;
    let shown = args;
    if (!text && args.length > 0) {
      // Without a text of its own, the first argument stands for it.
      const first = args[0];
      text = typeof first === 'string' ? first : (first?.message ?? '');
      shown = args.slice(1);
    }
    const detail = {id: entry.id, type: entry.type, text, args: shown, stack};
    response.section('consoleMessage', formatConsoleDetail(detail), {...detail, argsCount: entry.argsCount});
  },
});
