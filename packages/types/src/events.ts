import { z } from 'zod';

const base = {
  /** Unique event id. */
  id: z.string(),
  sessionId: z.string(),
  /** ms since epoch. */
  timestamp: z.number(),
};

const resultSummary = z.object({
  ok: z.boolean(),
  value: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  structured: z.unknown().optional(),
});

const permissionDecision = z.object({
  behavior: z.enum(['allow', 'ask', 'deny']),
  rule: z.string().optional(),
  reason: z.string(),
  subjects: z
    .array(
      z.object({
        subject: z.string(),
        behavior: z.enum(['allow', 'ask', 'deny']),
        rule: z.string().optional(),
        reason: z.string(),
      }),
    )
    .optional(),
  suggestedRule: z.string().optional(),
});

export const toolUserRequestedEvent = z.object({
  ...base,
  type: z.literal('tool.user_requested'),
  callId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  turn: z.number(),
});
export const toolExecutionStartEvent = z.object({
  ...base,
  type: z.literal('tool.execution_start'),
  callId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  mcpServer: z.string().optional(),
  turn: z.number(),
});
export const toolExecutionPartialResultEvent = z.object({
  ...base,
  type: z.literal('tool.execution_partial_result'),
  callId: z.string(),
  text: z.string(),
});
export const toolExecutionProgressEvent = z.object({
  ...base,
  type: z.literal('tool.execution_progress'),
  callId: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export const toolExecutionCompleteEvent = z.object({
  ...base,
  type: z.literal('tool.execution_complete'),
  callId: z.string(),
  toolName: z.string(),
  success: z.boolean(),
  result: resultSummary,
  durationMs: z.number(),
  turn: z.number(),
});
export const permissionRequestedEvent = z.object({
  ...base,
  type: z.literal('permission.requested'),
  callId: z.string(),
  toolName: z.string(),
  decision: permissionDecision,
});
export const permissionCompletedEvent = z.object({
  ...base,
  type: z.literal('permission.completed'),
  callId: z.string(),
  toolName: z.string(),
  behavior: z.enum(['allow', 'deny']),
  scope: z.enum(['once', 'session', 'project', 'rule']).optional(),
  rule: z.string().optional(),
  reason: z.string(),
});
export const hookStartedEvent = z.object({
  ...base,
  type: z.literal('hook.started'),
  callId: z.string(),
  hook: z.string(),
  hookEvent: z.enum(['preToolUse', 'postToolUse', 'postToolUseFailure']),
});
export const hookCompletedEvent = z.object({
  ...base,
  type: z.literal('hook.completed'),
  callId: z.string(),
  hook: z.string(),
  hookEvent: z.enum(['preToolUse', 'postToolUse', 'postToolUseFailure']),
  outcome: z.enum(['ok', 'deny', 'approve', 'error', 'timeout']),
  message: z.string().optional(),
});
export const sessionToolsUpdatedEvent = z.object({
  ...base,
  type: z.literal('session.tools_updated'),
  signature: z.string(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  count: z.number(),
});
export const sessionInfoEvent = z.object({
  ...base,
  type: z.literal('session.info'),
  code: z.string().optional(),
  message: z.string(),
});
export const sessionWarningEvent = z.object({
  ...base,
  type: z.literal('session.warning'),
  code: z.string().optional(),
  message: z.string(),
});
export const abortEvent = z.object({
  ...base,
  type: z.literal('abort'),
  reason: z.string(),
  turn: z.number().optional(),
});

export const quiverEventSchema = z.discriminatedUnion('type', [
  toolUserRequestedEvent,
  toolExecutionStartEvent,
  toolExecutionPartialResultEvent,
  toolExecutionProgressEvent,
  toolExecutionCompleteEvent,
  permissionRequestedEvent,
  permissionCompletedEvent,
  hookStartedEvent,
  hookCompletedEvent,
  sessionToolsUpdatedEvent,
  sessionInfoEvent,
  sessionWarningEvent,
  abortEvent,
]);

export type QuiverEvent = z.infer<typeof quiverEventSchema>;
export type QuiverEventType = QuiverEvent['type'];
export type QuiverEventOf<T extends QuiverEventType> = Extract<QuiverEvent, { type: T }>;

/** Start, partial and progress events are transient; everything else is durable. */
export const TRANSIENT_EVENT_TYPES: ReadonlySet<QuiverEventType> = new Set([
  'tool.execution_start',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'hook.started',
]);

export function isDurableEvent(event: QuiverEvent): boolean {
  return !TRANSIENT_EVENT_TYPES.has(event.type);
}

/** Distributes events; a slow subscriber never blocks publishing. */
export interface EventBus {
  publish(event: QuiverEvent): void;
  subscribe(listener: (event: QuiverEvent) => void): () => void;
  /** An async iterator of events from now on; ends when `signal` aborts. */
  stream(signal?: AbortSignal): AsyncIterableIterator<QuiverEvent>;
}
