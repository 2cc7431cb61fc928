// Public surface of @quiver/tools-repl.
import { replPlugin } from './repl-plugin.js';

export { REPL_PLUGIN_VERSION, replPlugin } from './repl-plugin.js';
export type { ReplLimits } from './repl-tool.js';
export { createReplTool, DEFAULT_REPL_LIMITS, REPL_TOOL_NAME, replTool } from './repl-tool.js';
export type { RunFailureReason, RunOutcome, RunRequest, SandboxHost, SandboxLimits } from './sandbox.js';
export { DEFAULT_SANDBOX_LIMITS, openSandbox, ReplSandbox, warmSandboxThread } from './sandbox.js';

export default replPlugin;
