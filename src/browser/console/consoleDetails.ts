/**
 * The detail of a console entry, fetched when a tool asks for it: argument
 * values (while their objects live), error stacks and `cause` chains, all
 * symbolized through the page's source maps, and issue occurrences linked to
 * reqids and snapshot uids.
 */
import type {Protocol} from '../../../protocol/index.js';
import type {CdpSession} from '../../cdp/CdpConnection.js';
import type {NetworkCollector} from '../network/NetworkCollector.js';
import type {SourceMapAccess, SourceMaps} from '../script/sourceMaps.js';
import type {ArgumentText, SymbolizedStack} from '../script/stacks.js';
import {argumentText, type ConsoleApiEntry, type ConsoleEntry, type IssueEntry} from './ConsoleCollector.js';

/** Bound of reading one argument or error property from the page. */
const ARG_TIMEOUT_MS = 2_000;
/** How deep `cause` chains are followed. */
const MAX_CAUSE_DEPTH = 5;

export interface DetailContext {
  sourceMaps: SourceMaps;
  access: SourceMapAccess;
}

/** The entry's own stack (where console.* was called, or where the exception was thrown), plus causes. */
export async function entryStack(entry: ConsoleEntry, ctx: DetailContext): Promise<SymbolizedStack | undefined> {
  if (entry.kind !== 'console' && entry.kind !== 'exception') {
    return undefined;
  }
  const stack = await ctx.sourceMaps.symbolize(entry.stackTrace, entry.session, ctx.access);
  if (entry.kind === 'exception' && entry.exception?.objectId && stack) {
    const cause = await errorCause(entry.session, entry.exception.objectId, ctx, 0);
    if (cause) {
      stack.cause = cause;
    }
  }
  return stack;
}

/** Argument values for the detail view; unavailable ones say so. */
export async function entryArguments(entry: ConsoleApiEntry, ctx: DetailContext): Promise<ArgumentText[]> {
  return Promise.all(
    entry.args.map(async (arg, i): Promise<ArgumentText> => {
      try {
        if (arg.objectId === undefined) {
          return primitiveText(arg);
        }
        if (arg.subtype === 'error') {
          return await errorArgument(entry.session, arg, ctx);
        }
        const {result, exceptionDetails} = await entry.session.send(
          'Runtime.callFunctionOn',
          {functionDeclaration: 'function() { return this; }', objectId: arg.objectId, returnByValue: true},
          ARG_TIMEOUT_MS,
        );
        if (exceptionDetails) {
          throw new Error('not serializable');
        }
        return result.value === undefined ? 'undefined' : JSON.stringify(result.value);
      } catch {
        return `<error: Argument ${i} is no longer available>`;
      }
    }),
  );
}

/** A primitive argument as the detail view prints it (null as "null", undefined as "undefined"). */
export function primitiveText(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.unserializableValue !== undefined || typeof arg.value === 'string') {
    return argumentText(arg);
  }
  if (arg.type === 'undefined') {
    return 'undefined';
  }
  return typeof arg.value === 'object' ? JSON.stringify(arg.value) : String(arg.value);
}

async function errorArgument(
  session: CdpSession,
  error: Protocol.Runtime.RemoteObject,
  ctx: DetailContext,
): Promise<ArgumentText> {
  const message = argumentText(error);
  const stack = await errorStack(session, error.objectId ?? '', ctx);
  const cause = await errorCause(session, error.objectId ?? '', ctx, 0);
  if (cause) {
    return {message, stack: {fragments: stack?.fragments ?? [], cause}};
  }
  return {message, stack};
}

/** Where an Error object was created, as V8 recorded it (Runtime must have been enabled then). */
async function errorStack(
  session: CdpSession,
  objectId: string,
  ctx: DetailContext,
): Promise<SymbolizedStack | undefined> {
  const {exceptionDetails} = await session.send(
    'Runtime.getExceptionDetails',
    {errorObjectId: objectId},
    ARG_TIMEOUT_MS,
  );
  return ctx.sourceMaps.symbolize(exceptionDetails?.stackTrace, session, ctx.access);
}

async function errorCause(
  session: CdpSession,
  objectId: string,
  ctx: DetailContext,
  depth: number,
): Promise<SymbolizedStack['cause']> {
  if (depth >= MAX_CAUSE_DEPTH) {
    return undefined;
  }
  try {
    const {result} = await session.send('Runtime.getProperties', {objectId, ownProperties: true}, ARG_TIMEOUT_MS);
    const cause = result.find(p => p.name === 'cause')?.value;
    if (!cause) {
      return undefined;
    }
    if (cause.subtype === 'error' && cause.objectId) {
      const stack = await errorStack(session, cause.objectId, ctx).catch(() => undefined);
      const deeper = await errorCause(session, cause.objectId, ctx, depth + 1);
      return {message: argumentText(cause), stack: deeper ? {fragments: stack?.fragments ?? [], cause: deeper} : stack};
    }
    return {
      message: cause.objectId ? (cause.description ?? argumentText(cause)) : primitiveText(cause),
      stack: undefined,
    };
  } catch {
    return undefined;
  }
}

/** Values in issue details that name DOM nodes by backend node id. */
const NODE_ID_KEYS = ['violatingNodeId', 'nodeId', 'documentNodeId', 'backendNodeId'];

/**
 * One line per kept occurrence: `reqid=<n>` when the request is known,
 * `uid=<uid>` when the node is in the latest snapshot, else `url=<url>`,
 * then the remaining details as JSON.
 */
export function issueAffectedLines(
  entry: IssueEntry,
  network: NetworkCollector,
  uidOf: ((backendNodeId: number) => string | undefined) | undefined,
  redact: boolean,
): string[] {
  return entry.occurrences.map(({details}) => {
    const data: Record<string, unknown> = structuredClone(details);
    const prefix: string[] = [];
    delete data['frameId'];
    const request = data['request'] as {requestId?: string; url?: string} | undefined;
    if (request?.requestId) {
      const record = network.findByRequestId(request.requestId);
      if (record) {
        prefix.push(`reqid=${record.id}`);
        delete request.requestId;
      }
    }
    for (const key of NODE_ID_KEYS) {
      const id = data[key];
      const uid = typeof id === 'number' ? uidOf?.(id) : undefined;
      if (uid) {
        prefix.push(`uid=${uid}`);
        delete data[key];
      }
    }
    if (prefix.length === 0 && typeof data['url'] === 'string') {
      prefix.push(`url=${data['url']}`);
      delete data['url'];
    }
    if (redact && typeof data['rawCookieLine'] === 'string') {
      data['rawCookieLine'] = '<redacted>';
    }
    return [...prefix, `data=${JSON.stringify(data)}`].join(' ');
  });
}
