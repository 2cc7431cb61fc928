import { errorMessage } from '@quiver/types';
import { COORDINATOR_ALLOWED_TOOLS } from '../agents/agent-policies.js';
import { firstNaming } from '../agents/tool-name-resolver.js';
import type { PoolTool, SessionAgentKind } from '../contracts.js';
import { callsOtherTools } from './repl-mode.js';
import type { StageResult } from './stage-result.js';

/** Simple mode keeps the shell, read and edit tools only. */
export const SIMPLE_MODE_TOOLS: readonly string[] = [
  'terminal',
  'read_file',
  'edit_file',
  'multi_edit',
  'apply_patch',
  'write_file',
];

/**
 * Stage 4: each tool's own `isEnabled()` / `isAvailable()` (a check that throws counts as
 * unavailable), then simple mode. External tools are exempt from simple mode: the SDK client
 * handed them to this very session. A coordinator's simple set is its own delegation tools
 * (agent, send-message, task-stop, structured output), whoever supplies them.
 */
export function applyEnabledFilter(
  tools: readonly PoolTool[],
  options: {
    simpleMode?: boolean;
    repl?: boolean;
    agent?: SessionAgentKind;
    /** MCP servers the personality enables, told to each tool's isAvailable(). */
    mcpServers?: readonly string[];
  } = {},
): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const simple = new Set(SIMPLE_MODE_TOOLS);
  for (const tool of tools) {
    const refusal = checkTool(tool, options.mcpServers ?? []);
    if (refusal) {
      result.removed.push({ name: tool.name, reason: { stage: 'enabled', ...refusal } });
      continue;
    }
    // In REPL mode the repl tool is the simple tool set: the primitives are reached inside it.
    const replTool = options.repl === true && callsOtherTools(tool);
    const coordinatorTool =
      options.agent === 'coordinator' &&
      firstNaming(COORDINATOR_ALLOWED_TOOLS, {
        name: tool.name,
        aliases: tool.tool.aliases,
        pluginId: tool.pluginId,
        mcpServer: tool.mcpServer,
      }) !== undefined;
    if (
      options.simpleMode &&
      tool.source !== 'external' &&
      !simple.has(tool.name) &&
      !replTool &&
      !coordinatorTool
    ) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'enabled',
          rule: 'simpleMode: true',
          reason: `simple mode keeps only ${SIMPLE_MODE_TOOLS.join(', ')}`,
        },
      });
      continue;
    }
    result.kept.push(tool);
  }
  return result;
}

function checkTool(
  tool: PoolTool,
  mcpServers: readonly string[],
): { rule: string; reason: string } | undefined {
  try {
    if (tool.tool.isEnabled && !tool.tool.isEnabled())
      return { rule: 'isEnabled()', reason: 'the tool reports itself disabled' };
    const availability = tool.tool.isAvailable?.({ mcpServers });
    if (availability === false)
      return { rule: 'isAvailable()', reason: 'the tool reports itself unavailable' };
    if (typeof availability === 'object' && !availability.available) {
      return {
        rule: 'isAvailable()',
        reason: availability.reason
          ? `unavailable: ${availability.reason}`
          : 'the tool reports itself unavailable',
      };
    }
  } catch (error) {
    return {
      rule: 'isEnabled()/isAvailable()',
      reason: `its availability check threw: ${errorMessage(error)}`,
    };
  }
  return undefined;
}
