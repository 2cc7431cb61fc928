import { z } from 'zod';

/** Changes when a message changes shape; a client names the version it speaks in `initialize`. */
export const RPC_PROTOCOL_VERSION = '1';

const agentKind = z.enum(['main', 'subagent', 'async', 'teammate', 'coordinator']);
const rules = z
  .strictObject({
    allow: z.array(z.string()).optional(),
    ask: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
  })
  .describe("Permission rules added to the personality's for this session, in its rule syntax.");

export const externalToolDefinition = z
  .strictObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of [a-zA-Z0-9_-]'),
    description: z.string(),
    title: z.string().optional(),
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('JSON Schema of the arguments, an object schema; absent: no arguments.'),
    annotations: z.record(z.string(), z.unknown()).optional(),
    overridesBuiltInTool: z.boolean().optional(),
    skipPermission: z
      .boolean()
      .optional()
      .describe('Run without asking when no rule decides the call; deny rules still apply.'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(3_600_000)
      .optional()
      .describe('How long Quiver waits for the client to answer `external_tool.requested` (default 120000).'),
  })
  .describe('A tool the client runs: Quiver gates, checks and logs each call, the client executes it.');

const sessionOptions = {
  personality: z.string().optional().describe("Personality name; default: the configuration's default."),
  agent: agentKind.optional(),
  customAgent: z.string().optional(),
  availableTools: z.array(z.string()).optional(),
  excludedTools: z.array(z.string()).optional(),
  defaultAgentExcludedTools: z.array(z.string()).optional(),
  model: z.string().optional().describe('Model name; picks the model profile.'),
  permissions: rules.optional(),
  externalTools: z.array(externalToolDefinition).optional(),
};

export const initializeParams = z.strictObject({
  protocolVersion: z.string(),
  client: z.strictObject({ name: z.string(), version: z.string().optional() }),
  capabilities: z
    .strictObject({
      permissions: z
        .boolean()
        .optional()
        .describe('The client answers `permission.requested`; without it asks follow headless rules.'),
    })
    .optional(),
});
export const initializeResult = z.object({
  protocolVersion: z.string(),
  server: z.object({ name: z.literal('quiver'), version: z.string() }),
  defaultPersonality: z.string(),
  workspace: z.string(),
});

export const sessionCreateParams = z
  .strictObject({ sessionId: z.string().min(1).max(200).optional(), ...sessionOptions })
  .describe('A new session; its id may be chosen, to resume it later.');
export const sessionResumeParams = z
  .strictObject({ sessionId: z.string().min(1).max(200), ...sessionOptions })
  .describe('A session of an earlier process: calls it left unfinished are marked interrupted.');
export const sessionOpened = z.object({
  sessionId: z.string(),
  /** Calls an earlier process of this session started and never completed. */
  interruptedCalls: z.array(z.string()),
});
export const sessionUpdateParams = z.strictObject({
  sessionId: z.string(),
  availableTools: sessionOptions.availableTools,
  excludedTools: sessionOptions.excludedTools,
  defaultAgentExcludedTools: sessionOptions.defaultAgentExcludedTools,
  model: sessionOptions.model,
  permissions: sessionOptions.permissions,
  externalTools: sessionOptions.externalTools,
});
export const sessionRef = z.strictObject({ sessionId: z.string() });
export const sessionRenderParams = z.strictObject({
  sessionId: z.string(),
  format: z.enum(['anthropic', 'openai', 'gemini', 'mcp']).optional(),
  includeDeferred: z.boolean().optional(),
});
export const toolCall = z.strictObject({
  id: z.string().optional(),
  name: z.string(),
  args: z.unknown().optional(),
});
export const sessionExecuteParams = z.strictObject({
  sessionId: z.string(),
  calls: z.array(toolCall).max(256),
  turn: z.number().int().nonnegative().optional(),
  dryRun: z.boolean().optional(),
});
export const toolResult = z.union([
  z.object({ ok: z.literal(true), value: z.string(), structured: z.unknown().optional() }),
  z.object({ ok: z.literal(false), code: z.string(), error: z.string(), structured: z.unknown().optional() }),
]);
export const sessionExecuteResult = z.object({ results: z.array(toolResult) });
export const sessionAbortParams = z.strictObject({
  sessionId: z.string(),
  reason: z.string().optional(),
  turn: z.number().int().nonnegative().optional(),
});
export const sessionExplainParams = z.strictObject({ sessionId: z.string(), tool: z.string() });

/** Quiver → client: run an external tool. The reply is the tool's result. */
export const externalToolRequested = z.object({
  sessionId: z.string(),
  callId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
});
export const externalToolReply = z.union([
  z.strictObject({ ok: z.literal(true), value: z.string(), structured: z.unknown().optional() }),
  z.strictObject({
    ok: z.literal(false),
    error: z.string(),
    code: z.string().optional().describe('A Quiver tool error code; default execution_failed.'),
  }),
]);

/** Quiver → client (when it declared `permissions`): answer an ask. */
export const permissionRequested = z.object({
  sessionId: z.string(),
  callId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  decision: z
    .object({ behavior: z.literal('ask'), reason: z.string(), suggestedRule: z.string().optional() })
    .passthrough(),
  question: z
    .object({
      text: z.string(),
      headline: z.string(),
      needsApproval: z.array(z.string()),
      alwaysRule: z.string().optional(),
      choices: z.array(
        z.object({ value: z.enum(['once', 'session', 'project', 'deny']), label: z.string() }),
      ),
    })
    .describe(
      'What to show the person, rendered by Quiver: every subject that needs approval and the rule "always" adds, with control, bidi and invisible characters escaped as `\\uXXXX`. Show this, never `args` raw.',
    ),
});
export const permissionReply = z.union([
  z.strictObject({ behavior: z.literal('allow'), scope: z.enum(['once', 'session', 'project']) }),
  z.strictObject({ behavior: z.literal('deny'), reason: z.string().optional() }),
]);

/** Quiver → client notification: one lifecycle event of a session, as the event bus has it. */
export const sessionEventNotification = z.object({
  sessionId: z.string(),
  event: z.object({ type: z.string(), timestamp: z.number().optional() }).passthrough(),
});

/** Application error codes, beside JSON-RPC's own (-32602 invalid params, -32601 unknown method). */
export const RPC_ERRORS = {
  notInitialized: -32002,
  sessionNotFound: -32001,
  sessionExists: -32003,
  quiver: -32010,
} as const;

export interface MethodDocument {
  method: string;
  direction: 'client → quiver' | 'quiver → client';
  kind: 'request' | 'notification';
  summary: string;
  params: z.ZodType;
  result?: z.ZodType;
}

/** Every message of the protocol, in the order docs/rpc.md lists them. */
export const RPC_METHODS: readonly MethodDocument[] = [
  {
    method: 'initialize',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'First request: the protocol version and what the client can answer.',
    params: initializeParams,
    result: initializeResult,
  },
  {
    method: 'session.create',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'Opens a session with per-session options and external tools.',
    params: sessionCreateParams,
    result: sessionOpened,
  },
  {
    method: 'session.resume',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'Opens a session an earlier process started; its unfinished calls are reported interrupted.',
    params: sessionResumeParams,
    result: sessionOpened,
  },
  {
    method: 'session.update',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'Changes options or replaces the external tools; the next render reassembles.',
    params: sessionUpdateParams,
    result: z.object({}),
  },
  {
    method: 'session.render',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'The definitions the model sees, in a provider format.',
    params: sessionRenderParams,
    result: z.object({
      format: z.string(),
      tools: z.array(z.unknown()).describe("The provider request's `tools` array."),
      nameMap: z
        .record(z.string(), z.string())
        .describe('Provider name → Quiver name, for names that had to change.'),
      signature: z.string().describe('Changes when the definitions change (prompt-cache key).'),
    }),
  },
  {
    method: 'session.execute',
    direction: 'client → quiver',
    kind: 'request',
    summary:
      "Runs the model's tool calls through the pipeline; results in input order. `$/cancelRequest` aborts it.",
    params: sessionExecuteParams,
    result: sessionExecuteResult,
  },
  {
    method: 'session.abort',
    direction: 'client → quiver',
    kind: 'request',
    summary:
      'Aborts the executions of a turn (every turn when omitted); each unfinished call completes `aborted`.',
    params: sessionAbortParams,
    result: z.object({ aborted: z.number().describe('Executions that were under way.') }),
  },
  {
    method: 'session.explain',
    direction: 'client → quiver',
    kind: 'request',
    summary: "Why a tool is or is not in the session's pool.",
    params: sessionExplainParams,
    result: z.object({ text: z.string() }),
  },
  {
    method: 'session.close',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'Closes the session; its log stays for `session.resume` and `quiver log`.',
    params: sessionRef,
    result: z.object({}),
  },
  {
    method: 'session.event',
    direction: 'quiver → client',
    kind: 'notification',
    summary:
      'A lifecycle event: tool.execution_start, _partial_result, _progress, _complete, permission.requested, permission.completed, session.tools_updated, session.warning, …',
    params: sessionEventNotification,
  },
  {
    method: 'external_tool.requested',
    direction: 'quiver → client',
    kind: 'request',
    summary:
      'Run an external tool the model called, after gates, validation, permission and hooks. Cancelled with `$/cancelRequest` when the call is aborted.',
    params: externalToolRequested,
    result: externalToolReply,
  },
  {
    method: 'permission.requested',
    direction: 'quiver → client',
    kind: 'request',
    summary: 'Answer a permission ask (only to clients that declared `capabilities.permissions`).',
    params: permissionRequested,
    result: permissionReply,
  },
];
