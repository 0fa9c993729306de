/** The injection token of the resolved module options (`McpSettings`). */
export const MCP_SETTINGS = Symbol('MCP_SETTINGS');
