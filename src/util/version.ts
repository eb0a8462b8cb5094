/**
 * The server's name and version, in a leaf of their own: `cdp-mcp --version`
 * reads them without loading the server (the MCP SDK and the rest take
 * seconds on a busy machine).
 */
export const SERVER_NAME = 'cdp-mcp';
export const SERVER_VERSION = '0.1.0';
