/**
 * Reports a step of a long tool call (an MCP progress notification when the
 * client sent a progressToken; nothing otherwise). Never throws, never blocks.
 */
export type ProgressReporter = (message: string) => void;

export const NO_PROGRESS: ProgressReporter = () => {};
