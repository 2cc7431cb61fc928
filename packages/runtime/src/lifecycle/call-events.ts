import type { Span } from '@opentelemetry/api';
import type { QuiverEvent, ToolResult } from '@quiver/types';
import type { createEventFactory } from '../events/event-factory.js';
import { endCallSpan } from './call-span.js';
import type { HookText } from './hook-runner.js';

/** Where a session's lifecycle events go: its bus, and the durable ones to its log. */
export interface CallEventSink {
  makeEvent: ReturnType<typeof createEventFactory>;
  /** `startsAhead`: a call's start that must be on disk before its tool runs (see `startsAhead`). */
  publish(event: QuiverEvent, startsAhead?: boolean): void;
}

/** One call's progress through the pipeline, kept until its completion event is out. */
export interface CallState {
  callId: string;
  toolName: string;
  args: unknown;
  turn: number;
  model?: string;
  interactionId?: string;
  requestedAt: number;
  mcpServer: string | undefined;
  completed: boolean;
  /** The answer the caller already got (an abort that came first); the completion event reports it. */
  answered: ToolResult | undefined;
  suppressedBy: string | undefined;
  contexts: HookText[];
  releaseWriteLock: (() => void) | undefined;
  /** Set for a call a tool made (a repl script): its events name the call that made it. */
  parentCallId?: string;
  /** The call's trace span, ended with its completion. */
  span?: Span;
}

/** Estimated tokens of what the model receives: its text and structured data, characters ÷ 4. */
function resultTokens(result: ToolResult): number {
  const text = result.ok ? result.value : result.error;
  const structured = result.structured === undefined ? '' : (JSON.stringify(result.structured) ?? '');
  return Math.ceil((text.length + structured.length) / 4);
}

function parentOf(state: CallState): { parentCallId?: string } {
  return state.parentCallId === undefined ? {} : { parentCallId: state.parentCallId };
}

export function publishRequested(state: CallState, sink: CallEventSink): void {
  sink.publish(
    sink.makeEvent('tool.user_requested', {
      callId: state.callId,
      toolName: state.toolName,
      arguments: state.args,
      turn: state.turn,
      ...parentOf(state),
    }),
  );
}

/** `ahead`: the start must be committed before the tool runs, decided from the tool being run. */
export function publishStarted(state: CallState, args: unknown, sink: CallEventSink, ahead: boolean): void {
  sink.publish(
    sink.makeEvent('tool.execution_start', {
      callId: state.callId,
      toolName: state.toolName,
      arguments: args,
      ...(state.mcpServer ? { mcpServer: state.mcpServer } : {}),
      turn: state.turn,
      ...parentOf(state),
    }),
    ahead,
  );
}

/**
 * Publishes the call's one completion event and releases its write lock; every call gets one,
 * whether it ran or not. When the caller was already answered (an abort), that answer is reported.
 */
export function completeCall(
  state: CallState,
  outcome: ToolResult,
  sink: CallEventSink,
  durationMs?: number,
): ToolResult {
  if (state.completed) return outcome;
  state.completed = true;
  const result = state.answered ?? outcome;
  state.releaseWriteLock?.();
  state.releaseWriteLock = undefined;
  const elapsed = durationMs ?? performance.now() - state.requestedAt;
  endCallSpan(state.span, result, elapsed);
  const structured = result.structured === undefined ? {} : { structured: result.structured };
  sink.publish(
    sink.makeEvent('tool.execution_complete', {
      callId: state.callId,
      toolName: state.toolName,
      success: result.ok,
      result: result.ok
        ? { ok: true, value: result.value, ...structured }
        : { ok: false, code: result.code, error: result.error, ...structured },
      durationMs: elapsed,
      turn: state.turn,
      ...parentOf(state),
      ...(state.model === undefined ? {} : { model: state.model }),
      ...(state.interactionId === undefined ? {} : { interactionId: state.interactionId }),
      resultTokens: resultTokens(result),
    }),
  );
  return result;
}
