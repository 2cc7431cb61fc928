import type { AssemblyStage, ToolPool } from '../contracts.js';
import { resolveToolName } from '../providers/resolve-tool-name.js';

const STAGE_LABELS: Record<AssemblyStage, string> = {
  candidates: 'candidate selection',
  overrides: 'overrides',
  deny_rules: 'deny rules',
  enabled: 'enabled/available checks',
  session_filter: 'session allow/exclude',
  agent_context: 'agent context',
  model_profile: 'model profile',
  repl: 'REPL mode',
  defer: 'deferred loading',
};

/** One sentence on whether the model can call `name` and, if not, which stage and rule removed it. */
export function explainTool(pool: ToolPool, name: string): string {
  const tool = pool.executables.get(name);
  if (tool) {
    const origin =
      tool.source === 'mcp'
        ? `an MCP tool of server "${tool.mcpServer}"`
        : tool.source === 'external'
          ? 'an external tool from the SDK client'
          : tool.pluginId
            ? `a built-in tool of plugin "${tool.pluginId}"`
            : 'a built-in tool of the host';
    const deferred = tool.deferred
      ? '; it is deferred: the model finds it through tool_search before calling it'
      : '';
    return `"${name}" is available: ${origin}${deferred}.`;
  }
  const reason = pool.removed.get(name);
  if (reason)
    return `"${name}" was removed at the ${STAGE_LABELS[reason.stage]} stage by "${reason.rule}": ${reason.reason}.`;
  const resolved = resolveToolName(name, pool);
  if (resolved !== undefined) return `"${name}" refers to "${resolved}". ${explainTool(pool, resolved)}`;
  return `"${name}" is not a known tool: no enabled plugin registers it, no enabled MCP server lists it and no external tool defines it.`;
}
