import { createBlanketDenyCheck, parsePermissionRule } from '@quiver/permissions';
import type { PermissionKind } from '@quiver/types';
import { namesTool } from '../agents/tool-name-resolver.js';
import type { PoolTool } from '../contracts.js';
import { judgedName } from './judged-as-built-in.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 3: blanket deny rules remove a tool before the model sees it. The permission engine's
 * own check decides by the tool's name, its MCP server and the shell rule space (`terminal`,
 * `mcp__server`, `*` globs), exactly as it refuses the call later; the names only users write
 * (aliases, Claude Code names such as `Bash`, plugin ids) are resolved here. Rules with a
 * specifier (`terminal(rm:*)`) only narrow what a call may do, so they are left to the lifecycle.
 */
export function applyDenyRules(tools: readonly PoolTool[], denyRules: readonly string[]): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const blanket = denyRules.map(parsePermissionRule).filter((rule) => rule.specifier === undefined);
  if (blanket.length === 0) {
    result.kept = [...tools];
    return result;
  }
  const kinds = new Map<string, PermissionKind>();
  for (const tool of tools) if (tool.tool.permission) kinds.set(tool.name, tool.tool.permission.kind);
  const deniedByName = createBlanketDenyCheck(blanket, kinds);
  for (const tool of tools) {
    const named = {
      name: tool.name,
      aliases: tool.tool.aliases,
      pluginId: tool.pluginId,
      mcpServer: tool.mcpServer,
    };
    const rule =
      deniedByName(tool.name, tool.mcpServer) ??
      // A client's tool answering to a built-in's name or alias is denied as that built-in.
      deniedByName(judgedName(tool.tool) ?? tool.name, tool.mcpServer) ??
      blanket.find((candidate) => namesTool(candidate.tool, named));
    if (rule) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'deny_rules',
          rule: rule.source,
          reason: `denied by the permission rule "${rule.source}"`,
        },
      });
    } else {
      result.kept.push(tool);
    }
  }
  return result;
}
