// Public surface of @quiver/tools-terminal: the terminal tools, their reducer and the process backend.

export { allocatedTerminalsDirectory, isAllocatedTerminal } from './allocated-terminals.js';
export {
  terminalListTool,
  terminalReadTool,
  terminalStartTool,
  terminalStopTool,
  terminalWriteTool,
} from './background/background-tools.js';
export { DEFAULT_SPILL_LIMIT_BYTES } from './output-window.js';
export type { ProcessBackendOptions } from './process-backend.js';
export { createProcessBackend } from './process-backend.js';
export { sandboxNotice } from './sandbox.js';
export { isSecretName } from './secret-names.js';
export { terminalPlugin, terminalTools } from './terminal-plugin.js';
export { reduceTerminalOutput, terminalReducer } from './terminal-reducer.js';
export type { TerminalRunData } from './terminal-result.js';
export { terminalResultFromRaw } from './terminal-result.js';
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, terminalTool } from './terminal-tool.js';
export type { Worktree, WorktreeOptions } from './worktrees.js';
export { createWorktreeHelpers, WORKTREES_DIRECTORY } from './worktrees.js';
