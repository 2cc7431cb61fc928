import {
  PermissionEngine,
  ProjectGrantStore,
  type ProtectedPath,
  SessionGrantStore,
} from '@quiver/permissions';
import type { PermissionKind, PermissionRules, ToolRegistry } from '@quiver/types';
import type { PermissionDecider } from './permission-gate.js';

export interface SessionPermissionEngine extends PermissionDecider {
  close(): void;
}

export interface SessionPermissionEngineOptions {
  workspace: string;
  dataDir: string;
  rules: PermissionRules;
  parentDenies: readonly string[];
  /** Registered tools, so path denies written for one tool reach every tool of its kind up front. */
  registry?: ToolRegistry;
  /** What Quiver loads as configuration or code: no tool may write it. */
  protectedPaths?: ReadonlyArray<string | ProtectedPath>;
}

function toolKinds(registry: ToolRegistry | undefined): Record<string, PermissionKind> {
  const kinds: Record<string, PermissionKind> = {};
  for (const { tool } of registry?.list() ?? []) {
    if (tool.permission) kinds[tool.name] = tool.permission.kind;
    else if (tool.mcp) kinds[tool.name] = 'mcp';
  }
  return kinds;
}

/**
 * A session's permission state: its rules bounded by the parent's denies, grants for this
 * session in memory, and project grants in `<dataDir>/permissions.db` so they outlive it.
 */
export function createSessionPermissionEngine(
  options: SessionPermissionEngineOptions,
): SessionPermissionEngine {
  const projectGrants = new ProjectGrantStore({ dataDir: options.dataDir });
  const engine = new PermissionEngine({
    workspace: options.workspace,
    layers: [options.rules],
    parentDenies: [...options.parentDenies],
    sessionGrants: new SessionGrantStore(),
    projectGrants,
    toolKinds: toolKinds(options.registry),
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
  });
  return {
    decide: (request) => engine.decide(request),
    grant: (rule, scope) => engine.grant(rule, scope),
    close: () => projectGrants.close?.(),
  };
}
