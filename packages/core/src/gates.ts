import type { RegisteredTool, ToolAvailability, ToolFilterOpts } from '@quiver/types';

const MCP_PREFIX = 'mcp__';

/** A built-in is a host tool: neither from an MCP server nor from a plugin. */
export function isBuiltIn(registered: RegisteredTool): boolean {
  return (
    registered.pluginId === undefined &&
    registered.tool.mcp === undefined &&
    !registered.tool.name.startsWith(MCP_PREFIX)
  );
}

/** The MCP server a tool comes from, from its origin or else from its `mcp__server__tool` name. */
export function mcpServerOf(registered: RegisteredTool): string | undefined {
  const origin = registered.tool.mcp;
  if (origin !== undefined) return origin.server;
  const name = registered.tool.name;
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const end = name.indexOf('__', MCP_PREFIX.length);
  return end === -1 ? name.slice(MCP_PREFIX.length) : name.slice(MCP_PREFIX.length, end);
}

/**
 * Why a call may not run here, or undefined when it may: built-ins must be in a non-empty
 * `allowedTools` unless marked `alwaysInclude`; MCP tools pass the server gate; other plugin tools pass the plugin gate.
 */
export function gateRefusal(
  registered: RegisteredTool,
  allowedTools: readonly string[] | undefined,
  filterOpts: ToolFilterOpts | undefined,
): string | undefined {
  const name = registered.tool.name;
  const server = mcpServerOf(registered);
  if (server !== undefined) {
    const servers = filterOpts?.allowedMcpServers;
    if (servers !== undefined && !servers.includes(server)) {
      return `Tool "${name}" is not available here: MCP server "${server}" is not in the allowed MCP servers (${listOrNone(servers)})`;
    }
    return undefined;
  }
  if (registered.pluginId !== undefined) {
    const plugins = filterOpts?.allowedPlugins;
    if (plugins !== undefined && !plugins.includes(registered.pluginId)) {
      return `Tool "${name}" is not available here: plugin "${registered.pluginId}" is not in the allowed plugins (${listOrNone(plugins)})`;
    }
    return undefined;
  }
  // `alwaysInclude` bypasses this gate only; deny rules and agent lists are assembly stages.
  if (
    allowedTools !== undefined &&
    allowedTools.length > 0 &&
    registered.tool.alwaysInclude !== true &&
    !allowedTools.includes(name)
  ) {
    return `Tool "${name}" is not available here: it is not in the allowed tools of this session`;
  }
  return undefined;
}

/**
 * The toolset gate for built-ins in definitions: a tool passes when its toolset or its own
 * name is listed, or when it is marked `alwaysInclude`.
 */
export function passesToolsetGate(
  registered: RegisteredTool,
  toolsets: readonly string[] | undefined,
): boolean {
  if (toolsets === undefined || registered.tool.alwaysInclude === true) return true;
  const { toolset, name } = registered.tool;
  return (toolset !== undefined && toolsets.includes(toolset)) || toolsets.includes(name);
}

/** The tool's own availability; a check that throws counts as unavailable, with its message. */
export function availabilityOf(registered: RegisteredTool): ToolAvailability {
  const check = registered.tool.isAvailable;
  if (check === undefined) return AVAILABLE;
  try {
    const answer = check.call(registered.tool);
    if (typeof answer === 'boolean') return answer ? AVAILABLE : { available: false };
    if (typeof answer === 'object' && answer !== null && answer.available === false) return answer;
    return AVAILABLE;
  } catch (error) {
    return { available: false, reason: `its availability check threw: ${messageOf(error)}` };
  }
}

const AVAILABLE: ToolAvailability = Object.freeze({ available: true });

function listOrNone(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
