import type { z } from 'zod';
import type { CapabilityDeclarations, ResolvedCapabilities } from './capabilities.js';
import type { ToolPermissionSpec } from './permissions.js';
import type { Attachment, ToolResult } from './result.js';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ToolAnnotations {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/** Identity of the agent a call runs for. */
export type AgentKind = 'main' | 'subagent' | 'async' | 'teammate' | 'coordinator';
export interface AgentIdentity {
  kind: AgentKind;
  /** Selected custom agent, if any. */
  name?: string;
  id: string;
}

/** What a running tool may report; the runtime turns these into lifecycle events. */
export type ToolEmission =
  | { type: 'partial'; text: string }
  | { type: 'progress'; progress: number; total?: number; message?: string }
  /** A log message for whoever watches the call (an MCP client of `quiver serve` gets it as `notifications/message`). */
  | { type: 'log'; level: 'debug' | 'info' | 'notice' | 'warning' | 'error'; message: string };

/**
 * Per-session storage for tools (e.g. background shells, last-read file stamps). Values set
 * with a disposer are disposed when the session ends.
 */
export interface SessionState {
  get<T>(key: string): T | undefined;
  set<T>(key: string, value: T, dispose?: (value: T) => void | Promise<void>): void;
  delete(key: string): void;
}

export interface ToolContext {
  callId: string;
  sessionId: string;
  personalityId: string;
  agent: AgentIdentity;
  turn: number;
  /** Aborts when the call is aborted or times out. Reading it creates the call's AbortSignal. */
  signal: AbortSignal;
  /**
   * Runs `listener` once when the call is aborted or times out (at once when it already was),
   * with the abort's reason; the returned function stops listening. Does what `signal` does for
   * a tool that only needs to be told, without creating an AbortSignal and its listener per
   * call (microseconds in Node, more than a cheap tool's own work). Set by Quiver's runner;
   * another caller of `execute` may leave it out, so fall back to `signal`.
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
  emit(emission: ToolEmission): void;
  /** Characters this call's result may take; longer results are trimmed. */
  budget: number;
  dryRun: boolean;
  /** Effective timeout for this call in ms (the runtime enforces it too). */
  timeoutMs?: number;
  capabilities: ResolvedCapabilities;
  attachments: readonly Attachment[];
  session: SessionState;
}

export interface ToolAvailability {
  available: boolean;
  reason?: string;
}

export interface ToolTimeouts {
  defaultMs: number;
  maxMs: number;
}

/** Where an MCP tool comes from; set by the MCP bridge. */
export interface McpToolOrigin {
  server: string;
  /** The name the server knows the tool by. */
  originalName: string;
}

export interface Tool<I extends z.ZodType = z.ZodType> {
  /** 1–64 chars of `[a-zA-Z0-9_-]`. */
  name: string;
  title?: string;
  description: string;
  input: I;
  /** Optional toolset group used by the personality `toolset` gate. */
  toolset?: string;
  maxResultChars?: number;
  capabilities: CapabilityDeclarations;
  /** Bypasses the toolset gate and the `allowedTools` gate (not deny rules or agent lists). */
  alwaysInclude?: boolean;
  annotations?: ToolAnnotations;
  /** Other names prompts may use for this tool (e.g. `Read`). */
  aliases?: string[];
  timeouts?: ToolTimeouts;
  permission?: ToolPermissionSpec<z.infer<I>>;
  mcp?: McpToolOrigin;
  /** JSON Schema to show instead of deriving one from `input` (MCP tools pass the server's). */
  parametersJsonSchema?: Record<string, unknown>;
  /** JSON Schema of `structured` in the tool's results (MCP `outputSchema`). */
  outputSchema?: Record<string, unknown>;
  /**
   * How `quiver serve` may run the tool for an MCP client that speaks the tasks extension:
   * `optional` (the default) becomes a task the client polls when still running after a moment,
   * `required` always runs as a task (clients without the extension are refused), `forbidden`
   * always answers inside the request.
   */
  taskSupport?: 'forbidden' | 'optional' | 'required';
  isEnabled?(): boolean;
  /**
   * Whether the tool can run. Assembly passes what it knows of the session it assembles for
   * (`mcpServers`: the MCP servers its personality enables); a call outside assembly passes nothing.
   */
  isAvailable?(session?: { readonly mcpServers: readonly string[] }): boolean | ToolAvailability;
  execute(args: z.infer<I>, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

/** Declares a tool with `args` typed from its zod schema. */
export function defineTool<I extends z.ZodType>(tool: Tool<I>): Tool<I> {
  return tool;
}

/** What the model sees of a tool: metadata only, never callbacks. */
export interface ToolDefinitionLite {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  title?: string;
  annotations?: ToolAnnotations;
  /** JSON Schema of the structured part of results, when the tool declares one. */
  outputSchema?: Record<string, unknown>;
  deferLoading?: boolean;
}

export interface ToolFilterOpts {
  /** MCP servers whose tools may run; absent = no MCP gate. */
  allowedMcpServers?: readonly string[];
  /** Plugins whose tools may run; absent = no plugin gate. */
  allowedPlugins?: readonly string[];
  /** Built-in toolset gate for definitions; absent = every toolset. */
  toolsets?: readonly string[];
}
