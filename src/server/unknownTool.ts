/**
 * A call names no tool of this server (one turned off still is one: its
 * refusal names the flag). MCP makes this a protocol error, not a result: the
 * SDK answers an error with a numeric `code` as that JSON-RPC error, message
 * unchanged (its McpError would prefix "MCP error -32602: ").
 */
export class UnknownToolError extends Error {
  /** JSON-RPC "Invalid params". */
  readonly code = -32602;
}
