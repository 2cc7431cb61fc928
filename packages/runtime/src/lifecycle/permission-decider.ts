import type { PermissionDecision, PermissionRules, Tool } from '@quiver/types';

/** What a permission question is about: the tool, its arguments, and the MCP server it came from. */
interface PermissionRequest {
  toolName: string;
  args: unknown;
  spec?: Tool['permission'];
  mcpServer?: string;
  byNameOnly?: boolean;
}

/** The part of `@quiver/permissions`' PermissionEngine the lifecycle relies on. */
export interface PermissionDecider {
  decide(request: PermissionRequest): Promise<PermissionDecision>;
  /** The decision at once, when it needs no wait; undefined when only `decide` can tell. */
  decideNow?(request: PermissionRequest): PermissionDecision | undefined;
  grant(rule: string, scope: 'session' | 'project'): unknown;
}

export interface SessionPermissionEngine extends PermissionDecider {
  close(): void;
}

export interface SessionPermissionRules {
  rules: PermissionRules;
  parentDenies: readonly string[];
  /** The signed-in caller the session runs for; a grant it saves for the project records them. */
  caller?: string;
}

/**
 * A personality's permission engine as its sessions use it (`PersonalityPermissionEngine`): one
 * view per session, which adds the session's rules, its parent's denies and its grants.
 */
export interface SharedPermissionEngine {
  forSession(session: SessionPermissionRules): SessionPermissionEngine;
  close(): void;
}
