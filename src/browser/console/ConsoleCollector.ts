import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import {StringPool} from '../../util/intern.js';
import {type Identified, NavigationBuckets} from '../network/NavigationBuckets.js';
import {aggregationKey, describeIssue, issueDetails, issueVariants} from './issues.js';

type RemoteObject = Protocol.Runtime.RemoteObject;
type StackTrace = Protocol.Runtime.StackTrace;

/** Console entries kept per navigation (as the reference). */
export const MAX_MESSAGES_PER_NAVIGATION = 10_000;
/** Approximate memory budget of the console entries of one navigation. */
const MAX_BYTES_PER_NAVIGATION = 8 * 1024 * 1024;
/** Longest message text kept; longer texts are cut and say so. */
export const MAX_TEXT_CHARS = 100_000;
/** Occurrences of one aggregated issue kept for get_console_message. */
const MAX_ISSUE_OCCURRENCES = 50;
/** Distinct raw issues remembered per navigation for de-duplication. */
const MAX_SEEN_ISSUES = 5_000;

interface EntryBase extends Identified {
  readonly id: number;
  /** Session the entry came from (argument objects live there). */
  readonly session: CdpSession;
  /** Console type as tools show it: log, warn, error, …, or issue. */
  readonly type: string;
  readonly text: string;
  readonly argsCount: number;
}

export interface ConsoleApiEntry extends EntryBase {
  readonly kind: 'console';
  readonly args: readonly RemoteObject[];
  readonly stackTrace: StackTrace | undefined;
}

export interface ExceptionEntry extends EntryBase {
  readonly kind: 'exception';
  /** The thrown value (an object id while its context lives). */
  readonly exception: RemoteObject | undefined;
  readonly stackTrace: StackTrace | undefined;
}

export interface LogEntry extends EntryBase {
  readonly kind: 'log';
}

export interface IssueOccurrence {
  readonly details: Record<string, unknown>;
}

export interface IssueEntry extends EntryBase {
  readonly kind: 'issue';
  readonly code: string;
  readonly explanation: string;
  /** Occurrences aggregated into this entry (including those no longer kept). */
  count: number;
  readonly occurrences: IssueOccurrence[];
}

export type ConsoleEntry = ConsoleApiEntry | ExceptionEntry | LogEntry | IssueEntry;

/** CDP console types as the reference names them. */
export function consoleType(type: string): string {
  return type === 'warning' ? 'warn' : type;
}

/**
 * One argument as it appears in the message text: primitives by value
 * (null and undefined as nothing), errors by the first line of their
 * description, other objects as `[<subtype or type> <class>]`.
 */
export function argumentText(arg: RemoteObject): string {
  if (arg.objectId !== undefined) {
    const description = arg.description ?? '';
    if (arg.subtype === 'error' && description) {
      const newline = description.indexOf('\n');
      return newline === -1 ? description : description.slice(0, newline);
    }
    return `[${arg.subtype || arg.type} ${arg.className}]`;
  }
  if (arg.unserializableValue !== undefined) {
    return arg.type === 'bigint'
      ? arg.unserializableValue.replace(/n$/, '')
      : arg.unserializableValue === '-0'
        ? '0'
        : arg.unserializableValue;
  }
  if (arg.value === undefined || arg.value === null) {
    return '';
  }
  return typeof arg.value === 'string' ? arg.value : String(arg.value);
}

/** Message text of a console API call: its arguments' texts joined by spaces. */
export function consoleText(args: readonly RemoteObject[]): string {
  return cut(args.map(argumentText).join(' '));
}

/**
 * Text of an uncaught exception. Chrome's own text says only "Uncaught" or
 * "Uncaught (in promise)"; the thrown value's first line is added as the
 * DevTools console shows it.
 */
export function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  const base = details.text;
  const exception = details.exception;
  let detail = '';
  if (exception) {
    if (exception.description !== undefined && (exception.objectId !== undefined || exception.type === 'object')) {
      const at = exception.description.indexOf('\n    at ');
      detail = at === -1 ? exception.description : exception.description.slice(0, at);
    } else {
      detail = argumentText(exception);
    }
  }
  if ((base === 'Uncaught' || base === 'Uncaught (in promise)') && detail) {
    return cut(`${base} ${detail}`);
  }
  return cut(base || detail);
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}... <truncated>` : text;
}

/** Keeps what formatting needs of an argument; previews and function sources are dropped. */
export function slimObject(arg: RemoteObject): RemoteObject {
  const slim: RemoteObject = {type: arg.type};
  if (arg.subtype !== undefined) {
    slim.subtype = arg.subtype;
  }
  if (arg.className !== undefined) {
    slim.className = arg.className;
  }
  if (arg.objectId !== undefined) {
    slim.objectId = arg.objectId;
  }
  if (arg.unserializableValue !== undefined) {
    slim.unserializableValue = arg.unserializableValue;
  }
  if (arg.value !== undefined) {
    const value: unknown = arg.value;
    slim.value = typeof value === 'string' && value.length > MAX_TEXT_CHARS ? value.slice(0, MAX_TEXT_CHARS) : value;
  }
  if (arg.subtype === 'error' && arg.description !== undefined) {
    slim.description = arg.description.slice(0, MAX_TEXT_CHARS);
  }
  return slim;
}

/** Script URLs, ids and function names: the same few in the stacks of a page's messages, one copy each. */
const pool = new StringPool();

/** What formatting reads of a stack (frames, async parents), its strings shared with earlier messages'. */
export function compactStack(stack: StackTrace | undefined): StackTrace | undefined {
  if (!stack) {
    return undefined;
  }
  const compact: StackTrace = {
    callFrames: stack.callFrames.map(frame => ({
      functionName: pool.intern(frame.functionName),
      scriptId: pool.intern(frame.scriptId),
      url: pool.intern(frame.url),
      lineNumber: frame.lineNumber,
      columnNumber: frame.columnNumber,
    })),
  };
  if (stack.description !== undefined) {
    compact.description = stack.description;
  }
  if (stack.parent) {
    compact.parent = compactStack(stack.parent);
  }
  return compact;
}

export function stackBytes(stack: StackTrace | undefined): number {
  let n = 0;
  for (let s: StackTrace | undefined = stack; s; s = s.parent) {
    n += 64 + s.callFrames.length * 160;
  }
  return n;
}

/**
 * Console API calls, uncaught exceptions, browser log entries and DevTools
 * issues of a page (and of its out-of-process frames and workers), grouped
 * by main-frame navigation. Issues are aggregated per navigation.
 */
/** The entry of one console API call (of a page or a worker session). */
export function consoleApiEntry(
  id: number,
  session: CdpSession,
  e: Protocol.Runtime.ConsoleAPICalledEvent,
): ConsoleApiEntry {
  const args = e.args.map(slimObject);
  const text = consoleText(e.args);
  return {
    kind: 'console',
    id,
    session,
    type: consoleType(e.type),
    text,
    argsCount: args.length,
    args,
    stackTrace: compactStack(e.stackTrace),
    approxBytes: 200 + text.length * 2 + args.length * 120 + stackBytes(e.stackTrace),
  };
}

/** The entry of one uncaught exception. */
export function exceptionEntry(
  id: number,
  session: CdpSession,
  details: Protocol.Runtime.ExceptionDetails,
): ExceptionEntry {
  const text = exceptionText(details);
  return {
    kind: 'exception',
    id,
    session,
    type: 'error',
    text,
    argsCount: 0,
    exception: details.exception ? slimObject(details.exception) : undefined,
    stackTrace: compactStack(details.stackTrace),
    approxBytes: 200 + text.length * 2 + stackBytes(details.stackTrace),
  };
}

export class ConsoleCollector {
  readonly buckets = new NavigationBuckets<ConsoleEntry>({
    maxItems: MAX_MESSAGES_PER_NAVIGATION,
    maxBytes: MAX_BYTES_PER_NAVIGATION,
  });
  #issues = new Map<string, IssueEntry>();
  #seenIssues = new Set<string>();

  /** Subscribes to a session's console sources; returns the unsubscribe function. */
  attach(session: CdpSession, options: {issues: boolean}): () => void {
    const offs = [
      session.on('Runtime.consoleAPICalled', e => this.#onConsole(session, e)),
      session.on('Runtime.exceptionThrown', e => this.#onException(session, e.exceptionDetails)),
      session.on('Log.entryAdded', e => this.#onLog(session, e.entry)),
    ];
    if (options.issues) {
      offs.push(session.on('Audits.issueAdded', e => this.#onIssue(session, e.issue)));
    }
    return () => {
      for (const off of offs) {
        off();
      }
    };
  }

  /** A main-frame cross-document navigation committed. */
  onMainFrameNavigated(): void {
    this.buckets.split();
    this.#issues = new Map();
    this.#seenIssues = new Set();
  }

  list(includePreserved: boolean): ConsoleEntry[] {
    return this.buckets.list(includePreserved);
  }

  findById(id: number): ConsoleEntry | undefined {
    return this.buckets.findById(id);
  }

  #onConsole(session: CdpSession, e: Protocol.Runtime.ConsoleAPICalledEvent): void {
    // Context 0 carries messages of no page context (e.g. from the inspector itself).
    if (e.executionContextId === 0) {
      return;
    }
    this.buckets.add(consoleApiEntry(this.buckets.nextId(), session, e));
  }

  #onException(session: CdpSession, details: Protocol.Runtime.ExceptionDetails): void {
    this.buckets.add(exceptionEntry(this.buckets.nextId(), session, details));
  }

  #onLog(session: CdpSession, entry: Protocol.Log.LogEntry): void {
    // Worker messages also arrive as console API calls of the worker session.
    if (entry.source === 'worker') {
      return;
    }
    const text = cut(entry.text);
    this.buckets.add({
      kind: 'log',
      id: this.buckets.nextId(),
      session,
      type: consoleType(entry.level),
      text,
      argsCount: 0,
      approxBytes: 160 + text.length * 2,
    });
  }

  #onIssue(session: CdpSession, issue: Protocol.Audits.InspectorIssue): void {
    const raw = JSON.stringify(issue);
    if (this.#seenIssues.has(raw)) {
      return;
    }
    if (this.#seenIssues.size >= MAX_SEEN_ISSUES) {
      this.#seenIssues.clear();
    }
    this.#seenIssues.add(raw);
    const details = issueDetails(issue);
    const variants = issueVariants(details);
    const key = aggregationKey(issue.code, variants);
    const existing = this.#issues.get(key);
    if (existing) {
      existing.count++;
      if (existing.occurrences.length < MAX_ISSUE_OCCURRENCES) {
        existing.occurrences.push({details});
        existing.approxBytes += raw.length * 2;
        this.buckets.grew(raw.length * 2);
      }
      return;
    }
    const {title, explanation} = describeIssue(issue.code, variants);
    const entry: IssueEntry = {
      kind: 'issue',
      id: this.buckets.nextId(),
      session,
      type: 'issue',
      text: title,
      argsCount: 0,
      code: issue.code,
      explanation,
      count: 1,
      occurrences: [{details}],
      approxBytes: 300 + raw.length * 2,
    };
    this.#issues.set(key, entry);
    this.buckets.add(entry);
  }
}
