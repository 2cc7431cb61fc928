import type { PermissionKind, ToolRegistry } from '@quiver/types';

/**
 * The permission kind of every registered tool, as the permission engine reads them (a built-in
 * by its declared kind, an MCP tool as `mcp`), and of the tools of plugins left out of this
 * process as they declare them: what a personality's rules are parsed against.
 */
export function registeredToolKinds(
  registry: Pick<ToolRegistry, 'list' | 'unloaded'>,
): Map<string, PermissionKind> {
  const kinds = new Map<string, PermissionKind>();
  for (const tool of registry.unloaded?.() ?? [])
    if (tool.permissionKind) kinds.set(tool.name, tool.permissionKind);
  for (const { tool } of registry.list()) {
    if (tool.permission) kinds.set(tool.name, tool.permission.kind);
    else if (tool.mcp) kinds.set(tool.name, 'mcp');
  }
  return kinds;
}
