/**
 * The CLI's MCP session with the background server: one session for all the
 * CLI's calls (a uid from one call's snapshot works in the next), its id kept
 * in the state folder. Each `cdp-mcp <tool>` rejoins it; when the server no
 * longer knows it (it was restarted), a new one is opened.
 */
import {type DaemonState, readSession, writeSession} from '../config/daemonState.js';
import {McpHttpSession, SessionGoneError} from './mcpHttp.js';

/** A tool call may run long (a trace, a Lighthouse audit, a heap snapshot); Ctrl-C cancels it sooner. */
const CALL_TIMEOUT_MS = 10 * 60_000;

export interface ToolResult {
  content: Array<{type: string; text?: string; data?: string; mimeType?: string}>;
  isError: boolean;
  /** Present when the server runs with --experimentalStructuredContent. */
  structuredContent?: Record<string, unknown>;
}

function toResult(result: unknown): ToolResult {
  const {content, isError, structuredContent} = (result ?? {}) as Partial<ToolResult>;
  return {
    content: content ?? [],
    isError: isError === true,
    ...(structuredContent && typeof structuredContent === 'object' ? {structuredContent} : {}),
  };
}

/** Calls one tool in the CLI's session (opening one when there is none or it is gone). */
export async function callTool(
  state: DaemonState,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]);
  const params = {name, arguments: args};
  const saved = readSession();
  if (saved?.url === state.url) {
    const session = new McpHttpSession(state.url, state.token, saved.sessionId, saved.protocolVersion);
    try {
      return toResult(await session.request('tools/call', params, bounded));
    } catch (error) {
      if (!(error instanceof SessionGoneError)) {
        throw error;
      }
      // Refused before it ran: safe to make again in a new session.
    }
  }
  const session = new McpHttpSession(state.url, state.token);
  await session.initialize();
  writeSession({url: state.url, sessionId: session.sessionId ?? '', protocolVersion: session.protocolVersion});
  return toResult(await session.request('tools/call', params, bounded));
}
