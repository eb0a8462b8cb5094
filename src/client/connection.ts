/**
 * The CLI's MCP session with the background server: one session for all the
 * CLI's calls (a uid from one call's snapshot works in the next), its id kept
 * in the state folder. Each `cdp-mcp <tool>` rejoins it; when the server no
 * longer knows it (it was restarted), a new one is opened.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport, StreamableHTTPError} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';

import {type DaemonState, readSession, writeSession} from '../cli/daemonState.js';

/** A tool call may run long (a trace, a Lighthouse audit, a heap snapshot); Ctrl-C cancels it sooner. */
const CALL_TIMEOUT_MS = 10 * 60_000;
const CLIENT_INFO = {name: 'cdp-mcp-cli', version: '1.0.0'};

/**
 * The SDK checks structured content against a tool's outputSchema only for
 * tools it has listed, and the CLI never lists them (it reads the tool
 * definitions itself): this stands in for Ajv, which the bundle leaves out.
 */
const NO_VALIDATION = {
  getValidator: () => () => ({valid: false as const, data: undefined, errorMessage: 'The CLI does not validate.'}),
};

export interface ToolResult {
  content: Array<{type: string; text?: string; data?: string; mimeType?: string}>;
  isError: boolean;
}

/** The server answered 404 to the session: it does not know it (any more). */
function sessionGone(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

async function open(state: DaemonState, sessionId?: string, protocolVersion?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(state.url), {
    sessionId,
    requestInit: {headers: {Authorization: `Bearer ${state.token}`}},
  });
  if (protocolVersion) {
    transport.setProtocolVersion(protocolVersion);
  }
  const client = new Client(CLIENT_INFO, {capabilities: {}, jsonSchemaValidator: NO_VALIDATION});
  await client.connect(transport);
  return {client, transport};
}

/** Calls one tool in the CLI's session (opening one when there is none or it is gone). */
export async function callTool(
  state: DaemonState,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolResult> {
  const saved = readSession();
  const call = async (client: Client) =>
    (await client.callTool({name, arguments: args}, undefined, {
      timeout: CALL_TIMEOUT_MS,
      signal,
    })) as CallToolResult;
  if (saved?.url === state.url) {
    const {client} = await open(state, saved.sessionId, saved.protocolVersion);
    try {
      return toResult(await call(client));
    } catch (error) {
      if (!sessionGone(error)) {
        throw error;
      }
      // Rejected before it ran: safe to make again in a new session.
    } finally {
      await client.close();
    }
  }
  const {client, transport} = await open(state);
  try {
    if (transport.sessionId) {
      writeSession({url: state.url, sessionId: transport.sessionId, protocolVersion: transport.protocolVersion});
    }
    return toResult(await call(client));
  } finally {
    await client.close();
  }
}

function toResult(result: CallToolResult): ToolResult {
  return {content: result.content, isError: result.isError === true};
}
