/**
 * Pure formatters for console messages: the list, the detail view and
 * (source-mapped) stack traces, in the reference's text formats.
 */
import {paginate} from './format.js';

/*
 * The shapes below are what these formatters render. The browser model's own
 * types (browser/stacks.ts) have the same shape, so its data is passed in as
 * is; this layer does not import the model.
 */

/** A frame as shown: `at <name> (<location>)`. */
export interface StackFrameView {
  functionName: string;
  /** `file.js:line:col` (1-based), or undefined when unknown. */
  location: string | undefined;
}

/** Frames between two async boundaries. */
export interface StackFragmentView {
  description: string | undefined;
  frames: StackFrameView[];
}

export interface StackView {
  fragments: StackFragmentView[];
  cause?: {message: string; stack: StackView | undefined};
}

export interface ConsoleListItem {
  id: number;
  type: string;
  text: string;
  argsCount: number;
  /** Aggregated issue count (issues only). */
  issueCount?: number;
  stack?: StackView;
}

/** Stack lines shown before "... and N more frames". */
export const STACK_MAX_LINES = 50;
const SEPARATOR_WIDTH = 40;
const NOTE_DETAIL = 'Note: line and column numbers use 1-based indexing';
const NOTE_LIST = 'Note: stack trace line and column numbers use 1-based indexing';

function frameLine(frame: StackFrameView): string {
  const name = frame.functionName || '<anonymous>';
  return frame.location ? `at ${name} (${frame.location})` : `at ${name}`;
}

function stackBody(stack: StackView | undefined): string[] {
  if (!stack) {
    return [];
  }
  const lines: string[] = [];
  for (const fragment of stack.fragments) {
    if (fragment.frames.length === 0) {
      continue;
    }
    if (fragment.description !== undefined) {
      const prefix = `--- ${fragment.description || 'async'} `;
      lines.push(prefix + '-'.repeat(Math.max(0, SEPARATOR_WIDTH - prefix.length)));
    }
    lines.push(...fragment.frames.map(frameLine));
  }
  if (stack.cause) {
    lines.push(`Caused by: ${stack.cause.message}`, ...stackBody(stack.cause.stack));
  }
  return lines;
}

/** Stack lines (at most STACK_MAX_LINES), optionally closed by the 1-based note. */
export function formatStack(stack: StackView | undefined, includeNote: boolean): string[] {
  const all = stackBody(stack);
  const lines = all.slice(0, STACK_MAX_LINES);
  if (all.length > lines.length) {
    lines.push(`... and ${all.length - lines.length} more frames`);
  }
  if (includeNote && lines.length > 0) {
    lines.push(NOTE_DETAIL);
  }
  return lines;
}

/** Collapses consecutive console entries with the same type, text and argument count. */
export function groupConsecutive(items: ConsoleListItem[]): Array<{item: ConsoleListItem; repeat: number}> {
  const out: Array<{item: ConsoleListItem; repeat: number}> = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (
      last &&
      item.issueCount === undefined &&
      last.item.issueCount === undefined &&
      last.item.type === item.type &&
      last.item.text === item.text &&
      last.item.argsCount === item.argsCount
    ) {
      last.repeat++;
    } else {
      out.push({item, repeat: 1});
    }
  }
  return out;
}

/** One list line (plus its indented stack when given). */
export function formatConsoleLine(item: ConsoleListItem, repeat = 1): string[] {
  const line =
    item.issueCount !== undefined
      ? `msgid=${item.id} [issue] ${item.text} (count: ${item.issueCount})`
      : `msgid=${item.id} [${item.type}] ${item.text} (${item.argsCount} args)${repeat > 1 ? ` [${repeat} times]` : ''}`;
  return [line, ...formatStack(item.stack, false).map(l => `  ${l}`)];
}

/** The `## Console messages` section; grouping happens before pagination. */
export function formatConsoleList(items: ConsoleListItem[], pageSize?: number, pageIdx?: number): string[] {
  const lines = ['## Console messages'];
  if (items.length === 0) {
    lines.push('<no console messages found>');
    return lines;
  }
  const grouped = groupConsecutive(items);
  const page = paginate(grouped, pageSize, pageIdx);
  lines.push(...page.lines);
  let anyStack = false;
  for (const {item, repeat} of page.items) {
    const rendered = formatConsoleLine(item, repeat);
    anyStack ||= rendered.length > 1;
    lines.push(...rendered);
  }
  if (anyStack) {
    lines.push(NOTE_LIST);
  }
  return lines;
}

/** An argument of the detail view: a plain text, or an error with its own stack. */
export type ArgumentView = string | {message: string; stack: StackView | undefined};

export interface ConsoleDetail {
  id: number;
  type: string;
  text: string;
  args: ArgumentView[];
  stack: StackView | undefined;
}

export function formatConsoleDetail(detail: ConsoleDetail): string[] {
  const lines = [`ID: ${detail.id}`, `Message: ${detail.type}> ${detail.text}`];
  if (detail.args.length > 0) {
    lines.push('### Arguments');
    detail.args.forEach((arg, i) => {
      if (typeof arg === 'string') {
        lines.push(`Arg #${i}: ${arg}`);
      } else {
        lines.push(`Arg #${i}: ${arg.message}`, ...formatStack(arg.stack, true));
      }
    });
  }
  const stack = formatStack(detail.stack, true);
  if (stack.length > 0) {
    lines.push('### Stack trace', ...stack);
  }
  return lines;
}

export interface IssueDetail {
  id: number;
  title: string;
  explanation: string;
  /** How many times it happened (occurrences may be fewer: only the first ones are kept). */
  count: number;
  /** One line per kept occurrence: `reqid=3 data={...}`, `url=... data={...}` or `data={...}`. */
  affected: string[];
}

export function formatIssueDetail(detail: IssueDetail): string[] {
  const lines = [`ID: ${detail.id}`, `Message: issue> ${detail.title}`, '', detail.explanation];
  if (detail.affected.length > 0) {
    lines.push('### Affected resources', ...detail.affected);
    if (detail.count > detail.affected.length) {
      lines.push(`... and ${detail.count - detail.affected.length} more`);
    }
  }
  return lines;
}
