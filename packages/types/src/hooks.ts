import type { ToolResult } from './result.js';

export interface HookCallInfo {
  callId: string;
  toolName: string;
  args: unknown;
  sessionId: string;
  personalityId: string;
  agentId: string;
  turn: number;
}

export interface PreToolUseOutcome {
  decision?: 'deny' | 'approve';
  reason?: string;
  /** Replacement arguments; re-validated against the tool schema. */
  updatedArgs?: unknown;
  /** Run the tool but hide its output from the model. */
  suppressOutput?: boolean;
  /** Text added for the model alongside the result. */
  additionalContext?: string;
}

export interface PostToolUseOutcome {
  additionalContext?: string;
}

export interface PostToolUseFailureOutcome {
  /** Guidance the model sees together with the error. */
  guidance?: string;
}

interface HookBase {
  /** Shown in events and errors. */
  name: string;
  /** Tool names this hook applies to: exact names or `*` globs. Absent = every tool. */
  matcher?: string | string[];
  /** Default 30 s. */
  timeoutMs?: number;
}

export interface PreToolUseHook extends HookBase {
  event: 'preToolUse';
  run(
    call: HookCallInfo,
    signal: AbortSignal,
  ): Promise<PreToolUseOutcome | undefined | void> | PreToolUseOutcome | undefined | void;
}
export interface PostToolUseHook extends HookBase {
  event: 'postToolUse';
  run(
    call: HookCallInfo & { result: ToolResult },
    signal: AbortSignal,
  ): Promise<PostToolUseOutcome | undefined | void> | PostToolUseOutcome | undefined | void;
}
export interface PostToolUseFailureHook extends HookBase {
  event: 'postToolUseFailure';
  run(
    call: HookCallInfo & { result: ToolResult },
    signal: AbortSignal,
  ): Promise<PostToolUseFailureOutcome | undefined | void> | PostToolUseFailureOutcome | undefined | void;
}

export type ToolHook = PreToolUseHook | PostToolUseHook | PostToolUseFailureHook;
export type HookEventName = ToolHook['event'];
