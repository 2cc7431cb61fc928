/** Permission kinds a call can be checked as. */
export const PERMISSION_KINDS = ['shell', 'read', 'write', 'mcp', 'url', 'memory', 'custom'] as const;
export type PermissionKind = (typeof PERMISSION_KINDS)[number];

/**
 * How a tool's arguments map to the resources a permission rule talks about. The runtime
 * uses it to check `Tool(specifier)` rules; tools with none are checked by name only.
 */
export type ToolPermissionSpec<A = any> =
  | { kind: 'shell'; command: (args: A) => string; cwd?: (args: A) => string | undefined }
  | { kind: 'read' | 'write'; paths: (args: A) => string[] }
  | { kind: 'url'; url: (args: A) => string }
  | { kind: 'memory' | 'custom'; specifier?: (args: A) => string | undefined };

export type PermissionBehavior = 'allow' | 'ask' | 'deny';
export type GrantScope = 'once' | 'session' | 'project';

/** The permission section of a personality or of session options. Each entry is `Tool(specifier)` or `Tool`. */
export interface PermissionRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

export interface PermissionSubjectDecision {
  /** A subcommand, path or URL that was checked. */
  subject: string;
  behavior: PermissionBehavior;
  rule?: string;
  reason: string;
}

export interface PermissionDecision {
  behavior: PermissionBehavior;
  /** The rule that decided, as written in the config, when one did. */
  rule?: string;
  reason: string;
  /** For shell commands and multi-path calls: one entry per subject. */
  subjects?: PermissionSubjectDecision[];
  /** For an `ask`: a rule that, if added to `allow`, would allow this call. */
  suggestedRule?: string;
}

export interface PermissionPrompt {
  callId: string;
  toolName: string;
  args: unknown;
  decision: PermissionDecision;
}

export type PermissionAnswer =
  | { behavior: 'allow'; scope: GrantScope }
  | { behavior: 'deny'; reason?: string };

/** A UI answers permission asks through this; headless sessions have none (ask becomes deny). */
export interface PermissionResolver {
  resolve(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionAnswer>;
}
