import type { Attachment, QuiverEvent, ToolResult } from '@quiver/types';

/** The protocol version this client speaks (`initialize.protocolVersion`). */
export const PROTOCOL_VERSION = '1';

/** How the project configuration stands against what a person trusted. */
export interface TrustReport {
  state: 'trusted' | 'untrusted' | 'changed';
  /** What of the project configuration was not applied. */
  notice?: string;
  /** How to trust it. */
  fix?: string;
}

export interface InitializeResult {
  protocolVersion: string;
  server: { name: 'quiver'; version: string };
  defaultPersonality: string;
  workspace: string;
  trust: TrustReport;
  readiness: 'session.ready';
}

export type AgentKind = 'main' | 'subagent' | 'async' | 'teammate' | 'coordinator';

export interface PermissionRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** What the model sees of a tool the client runs. */
export interface ExternalToolDefinitionWire {
  name: string;
  description: string;
  title?: string;
  /** JSON Schema of the arguments, an object schema. */
  parameters?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  overridesBuiltInTool?: boolean;
  skipPermission?: boolean;
  timeoutMs?: number;
}

export interface SessionSettings {
  personality?: string;
  agent?: AgentKind;
  customAgent?: string;
  availableTools?: string[];
  excludedTools?: string[];
  defaultAgentExcludedTools?: string[];
  model?: string;
  permissions?: PermissionRules;
}

export interface SessionOpened {
  sessionId: string;
  interruptedCalls: string[];
  personality: string;
}

/** `session.ready`: the tools are assembled, MCP servers included. */
export interface SessionReady {
  sessionId: string;
  signature: string;
  tools: string[];
  diagnostics: Array<{ message: string; code?: string; level?: string; tool?: string }>;
}

export type ProviderFormat = 'anthropic' | 'openai' | 'gemini' | 'mcp';

export interface RenderResult {
  format: ProviderFormat;
  tools: unknown[];
  nameMap: Record<string, string>;
  signature: string;
}

/** A tool definition in MCP's shape (`session.render` with format `mcp`). */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface ToolCallRequest {
  id?: string;
  name: string;
  args?: unknown;
}

export type { Attachment, QuiverEvent, ToolResult };

export interface PermissionQuestion {
  text: string;
  headline: string;
  needsApproval: string[];
  alwaysRule?: string;
  choices: Array<{ value: 'once' | 'session' | 'project' | 'deny'; label: string }>;
}

/** `permission.requested`: show `question`, never `args` raw. */
export interface PermissionRequest {
  sessionId: string;
  callId: string;
  toolName: string;
  args: unknown;
  decision: {
    behavior: 'ask';
    reason: string;
    rule?: string;
    suggestedRule?: string;
    subjects?: Array<{ subject: string; behavior: 'allow' | 'ask' | 'deny'; rule?: string; reason: string }>;
  };
  question: PermissionQuestion;
}

/** `session.check`: what `execute` would do with a call at the permission step, told without running it. */
export interface CallCheck {
  callId?: string;
  toolName: string;
  /** invalid: the call would fail before the permission step (unknown tool, bad arguments). */
  behavior: 'allow' | 'ask' | 'deny' | 'invalid';
  reason: string;
  /** For an ask: the rule a session grant saves. */
  suggestedRule?: string;
  subjects?: Array<{ subject: string; behavior: 'allow' | 'ask' | 'deny'; rule?: string; reason: string }>;
  /** For an ask over rpc: what to show the person (never `args` raw). */
  question?: PermissionQuestion;
}

/** How a person's approval in a framework's own approval step applies to the approved call. */
export type ApprovalScope = 'once' | 'session';

export type PermissionReply =
  | { behavior: 'allow'; scope: 'once' | 'session' | 'project' }
  | { behavior: 'deny'; reason?: string };

interface RelayOrigin {
  sessionId: string;
  callId: string;
  toolName: string;
  mcpServer?: string;
}

/** A bridged server's question, rendered by Quiver: show `message` and the form as given. */
export interface ElicitationRequest extends RelayOrigin {
  message: string;
  requestedSchema: Record<string, unknown>;
}

export type ElicitationReply =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A bridged server asks for a model completion; its system prompt is labelled as the server's. */
export interface SamplingRequest extends RelayOrigin {
  params: Record<string, unknown>;
}

/** MCP's `CreateMessageResult`. */
export type SamplingReply = Record<string, unknown>;

/** What an external tool returns to Quiver. */
export type ExternalToolReply =
  | { ok: true; value: string; structured?: unknown; attachments?: Attachment[] }
  | { ok: false; error: string; code?: string };

export interface SessionSummary {
  id: string;
  open: boolean;
  personalityId?: string;
  agent?: string;
  startedAt: number;
  endedAt?: number;
  calls: number;
  failedCalls: number;
  interruptedCalls: number;
  lastActivityAt: number;
}

export interface CallRecord {
  callId: string;
  toolName: string;
  args: unknown;
  turn?: number;
  startedAt?: number;
  completedAt?: number;
  status: string;
  code?: string;
  durationMs?: number;
}

export interface SessionLog {
  sessionId: string;
  calls: CallRecord[];
  events?: QuiverEvent[];
}
