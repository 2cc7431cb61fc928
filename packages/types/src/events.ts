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

/** The levels of MCP's `notifications/message`, least severe first (a tool logs at the first five). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const toolUserRequestedEvent = z.object({
  ...base,
  type: z.literal('tool.user_requested'),
  callId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  turn: z.number(),
  /** The call whose tool made this one (a repl script's inner call). */
  parentCallId: z.string().optional(),
});
export const toolExecutionStartEvent = z.object({
  ...base,
  type: z.literal('tool.execution_start'),
  callId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  mcpServer: z.string().optional(),
  turn: z.number(),
  /** The call whose tool made this one (a repl script's inner call). */
  parentCallId: z.string().optional(),
});
export const toolExecutionPartialResultEvent = z.object({
  ...base,
  type: z.literal('tool.execution_partial_result'),
  callId: z.string(),
  text: z.string(),
});
/** A running tool's log message (`ctx.emit({ type: 'log', … })`), for a UI or an MCP client. */
export const toolExecutionLogEvent = z.object({
  ...base,
  type: z.literal('tool.execution_log'),
  callId: z.string(),
  toolName: z.string(),
  level: z.enum(['debug', 'info', 'notice', 'warning', 'error']),
  message: z.string(),
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
  /** The call whose tool made this one (a repl script's inner call). */
  parentCallId: z.string().optional(),
  /** The model that asked for the call (the session's, unless the batch named another). */
  model: z.string().optional(),
  /** The embedder's id of the model interaction (one request and its response) the call belongs to. */
  interactionId: z.string().optional(),
  /** Estimated tokens of what the model receives back (characters ÷ 4, as for definitions). */
  resultTokens: z.number().optional(),
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
  /** Estimated tokens of the definitions the model is shown (characters of their JSON ÷ 4). */
  definitionTokens: z.number().optional(),
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
/**
 * The tools a plugin registers changed outside any session (an MCP server connected, re-listed
 * or went away). Published on the host's bus with session id `*`; sessions reassemble on their
 * next pool, and `serve` forwards it to its clients as `notifications/tools/list_changed`.
 */
export const toolsListChangedEvent = z.object({
  ...base,
  type: z.literal('tools.list_changed'),
  /** Id of the plugin whose tools changed. */
  pluginId: z.string(),
  /** The MCP server whose tools changed, for the MCP bridge. */
  server: z.string().optional(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
});
const relayKind = z.enum(['elicitation', 'sampling', 'roots']);
/** A bridged MCP server asked the session's client something (a question, a model completion). */
export const clientRelayRequestedEvent = z.object({
  ...base,
  type: z.literal('client_relay.requested'),
  mcpServer: z.string(),
  kind: relayKind,
  /** The call that was running on the server; absent when none was. */
  callId: z.string().optional(),
  toolName: z.string().optional(),
  /** What the server said it wants, cleaned of control characters and cut. */
  message: z.string().optional(),
});
/** How a relayed request ended: the answer's action, or `refused` with the reason. */
export const clientRelayCompletedEvent = z.object({
  ...base,
  type: z.literal('client_relay.completed'),
  mcpServer: z.string(),
  kind: relayKind,
  callId: z.string().optional(),
  toolName: z.string().optional(),
  outcome: z.enum(['accept', 'decline', 'cancel', 'completed', 'refused', 'failed']),
  reason: z.string().optional(),
});
/**
 * A log message of a bridged MCP server (`notifications/message`), cleaned of escapes and
 * invisible characters and rate-limited per server; `dropped` marks Quiver's own notice of how
 * many the limit held back. Published on the host's bus with session id `*`.
 */
export const mcpServerLoggedEvent = z.object({
  ...base,
  type: z.literal('mcp_server.logged'),
  mcpServer: z.string(),
  level: z.enum(LOG_LEVELS),
  logger: z.string().optional(),
  message: z.string(),
  dropped: z.number().optional(),
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
  toolExecutionLogEvent,
  toolExecutionCompleteEvent,
  permissionRequestedEvent,
  permissionCompletedEvent,
  hookStartedEvent,
  hookCompletedEvent,
  sessionToolsUpdatedEvent,
  sessionInfoEvent,
  sessionWarningEvent,
  toolsListChangedEvent,
  clientRelayRequestedEvent,
  clientRelayCompletedEvent,
  mcpServerLoggedEvent,
  abortEvent,
]);

export type QuiverEvent = z.infer<typeof quiverEventSchema>;
export type QuiverEventType = QuiverEvent['type'];
export type QuiverEventOf<T extends QuiverEventType> = Extract<QuiverEvent, { type: T }>;

/** Start, partial, progress and log events and servers' log messages are transient; everything else is durable. */
export const TRANSIENT_EVENT_TYPES: ReadonlySet<QuiverEventType> = new Set([
  'tool.execution_start',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'tool.execution_log',
  'hook.started',
  'mcp_server.logged',
]);

export function isDurableEvent(event: QuiverEvent): boolean {
  return !TRANSIENT_EVENT_TYPES.has(event.type);
}

/** Distributes events; a slow subscriber never blocks publishing. */
export interface EventBus {
  publish(event: QuiverEvent): void;
  /** Every event from now on goes to `listener`; the returned function ends that. */
  subscribe(listener: (event: QuiverEvent) => void): () => void;
  /**
   * Only events of these types go to `listener`: a subscriber that wants a few kinds of event is
   * not called for every tool call's events (a bus carries several per call). A bus written before
   * this form may ignore `types`: for a bus that may be one, use `subscribeToTypes`.
   */
  subscribe<T extends QuiverEventType>(
    listener: (event: QuiverEventOf<T>) => void,
    types: readonly T[],
  ): () => void;
  /** An async iterator of events from now on; ends when `signal` aborts. */
  stream(signal?: AbortSignal): AsyncIterableIterator<QuiverEvent>;
}

/**
 * Subscribes `listener` to the events of `types` on `bus` and checks each event's type too, for a
 * bus that ignores `types` (one written before typed subscriptions, such as an embedder's own):
 * the listener gets those types only, on any bus.
 */
export function subscribeToTypes<T extends QuiverEventType>(
  bus: EventBus,
  types: readonly T[],
  listener: (event: QuiverEventOf<T>) => void,
): () => void {
  const wanted: ReadonlySet<QuiverEventType> = new Set(types);
  return bus.subscribe((event: QuiverEvent) => {
    if (wanted.has(event.type)) listener(event as QuiverEventOf<T>);
  }, types);
}
