import { quiverEventSchema } from '@quiver/types';
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

export const helperToolsDeclaration = z
  .strictObject({
    askUser: z.boolean().optional().describe('Offer `ask_user`; its questions come as `helper.requested`.'),
    taskComplete: z
      .boolean()
      .optional()
      .describe('Offer `task_complete`; its reports come as `helper.requested`.'),
    exitPlanMode: z
      .boolean()
      .optional()
      .describe('Offer `exit_plan_mode`; its plans come as `helper.requested` for a verdict.'),
    structuredOutput: z
      .strictObject({
        schema: z
          .record(z.string(), z.unknown())
          .describe('JSON object schema of the final answer (`{ "type": "object", ... }`).'),
      })
      .optional()
      .describe('Offer `structured_output`; a value matching `schema` comes as `helper.requested`.'),
    worktrees: z
      .boolean()
      .optional()
      .describe(
        "Offer `worktree_create` / `worktree_remove`: Quiver runs git in the workspace with its terminal's git hardening (asked like other tools); the client reads the path from the result.",
      ),
  })
  .describe(
    'Helper tools the client can answer (capability-gated, as Copilot CLI and Claude Code offer them): only the declared ones exist, and the agent sets still apply.',
  );

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
  helperTools: helperToolsDeclaration.optional(),
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
      elicitation: z
        .boolean()
        .optional()
        .describe(
          "The client answers `elicitation.requested` (a bridged MCP server's question to the person); without it they are refused.",
        ),
      sampling: z
        .boolean()
        .optional()
        .describe(
          'The client answers `sampling.requested` (a bridged MCP server asks for a model completion); without it they are refused.',
        ),
    })
    .optional(),
});
export const trustReport = z
  .object({
    state: z
      .enum(['trusted', 'untrusted', 'changed'])
      .describe(
        'trusted: the project configuration applies; untrusted: never trusted, only its narrowing rules apply (its plugins, MCP servers and personalities do not); changed: trusted once, widening edits wait.',
      ),
    notice: z
      .string()
      .optional()
      .describe('What of the project configuration was not applied, for a person.'),
    fix: z.string().optional().describe('How to trust it.'),
  })
  .describe('How the project configuration stands against what a person trusted.');
export const initializeResult = z.object({
  protocolVersion: z.string(),
  server: z.object({ name: z.literal('quiver'), version: z.string() }),
  defaultPersonality: z.string(),
  workspace: z.string(),
  trust: trustReport,
  readiness: z
    .literal('session.ready')
    .describe(
      'The notification sent once per opened session when its tools, MCP servers included, are assembled: render after it.',
    ),
});

export const sessionCreateParams = z
  .strictObject({ sessionId: z.string().min(1).max(200).optional(), ...sessionOptions })
  .describe('A new session; its id may be chosen, to resume it later.');
export const sessionResumeParams = z
  .strictObject({ sessionId: z.string().min(1).max(200), ...sessionOptions })
  .describe('A session of an earlier process: calls it left unfinished are marked interrupted.');
export const sessionOpened = z.object({
  sessionId: z.string(),
  interruptedCalls: z
    .array(z.string())
    .describe('Calls an earlier process of this session started and never completed.'),
  personality: z.string(),
});
export const sessionReadyNotification = z
  .object({
    sessionId: z.string(),
    signature: z.string().describe('The signature `session.render` returns for these tools.'),
    tools: z.array(z.string()).describe('Every tool name in the pool (deferred ones included).'),
    diagnostics: z
      .array(z.object({ message: z.string() }).passthrough())
      .describe('What assembly could not apply (names that match nothing, servers that failed to start).'),
  })
  .describe(
    'Sent once after `session.create` / `session.resume`, when the MCP servers of the personality have connected or failed to. Later changes come as `session.event` of type `session.tools_updated`: render again then.',
  );
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
  turn: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      "The model turn the calls belong to (what `session.abort` names); default: one more than the session's last turn, starting at 1.",
    ),
  dryRun: z.boolean().optional(),
  approvals: z
    .record(z.string(), z.enum(['once', 'session']))
    .optional()
    .describe(
      "Call id → scope, for calls `session.check` said would ask and a person approved in the client's own approval step: their ask is answered with this scope instead of a `permission.requested`. A deny rule still denies; `session` grants the call's `suggestedRule` for the session.",
    ),
});
export const sessionCheckParams = z.strictObject({
  sessionId: z.string(),
  calls: z.array(toolCall).max(256),
});
export const callCheck = z.object({
  callId: z.string().optional(),
  toolName: z.string(),
  behavior: z
    .enum(['allow', 'ask', 'deny', 'invalid'])
    .describe(
      'What `session.execute` would do at the permission step: run, ask, refuse by a rule; invalid: the call would fail before it (unknown tool, bad arguments).',
    ),
  reason: z.string(),
  suggestedRule: z.string().optional().describe('For an ask: the rule a session or project grant saves.'),
  subjects: z.array(z.unknown()).optional().describe('For an ask: how each subject was decided.'),
  question: z
    .unknown()
    .optional()
    .describe('For an ask: what to show the person, as in `permission.requested`.'),
});
const contentAnnotations = z.object({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().optional(),
  lastModified: z.string().optional(),
});
export const attachment = z
  .object({
    type: z.enum(['image', 'audio', 'file', 'resource']),
    mimeType: z.string().optional(),
    data: z.string().optional().describe('base64 payload of binary content'),
    text: z.string().optional().describe('text of an embedded text resource'),
    uri: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    title: z.string().optional(),
    size: z.number().optional(),
    annotations: contentAnnotations.optional(),
  })
  .describe('Content beside the text of a result: an image, audio, a file or a resource (link).');
export const toolResult = z.union([
  z.object({
    ok: z.literal(true),
    value: z.string(),
    structured: z.unknown().optional(),
    attachments: z.array(attachment).optional(),
    annotations: contentAnnotations.optional(),
  }),
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
  z.strictObject({
    ok: z.literal(true),
    value: z.string(),
    structured: z.unknown().optional(),
    attachments: z
      .array(attachment)
      .max(64)
      .optional()
      .describe('Images and other content the tool returns beside its text.'),
  }),
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
    .object({
      behavior: z.literal('ask'),
      reason: z.string(),
      rule: z.string().optional().describe('The ask rule that matched, when one did.'),
      suggestedRule: z.string().optional().describe('A rule that would allow calls like this one.'),
      subjects: z
        .array(
          z.object({
            subject: z
              .string()
              .describe('One thing the call touches: a command of a shell line, a path, a URL.'),
            behavior: z.enum(['allow', 'ask', 'deny']),
            rule: z.string().optional(),
            reason: z.string(),
          }),
        )
        .optional()
        .describe('How each subject of the call was decided; the call asks because some subject asks.'),
    })
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
  z.strictObject({
    behavior: z.literal('allow'),
    scope: z
      .enum(['once', 'session', 'project'])
      .describe(
        'once: this call only; session: calls matching `question.alwaysRule` in this session (kept in memory); project: the same rule saved for this workspace, for later sessions too.',
      ),
  }),
  z.strictObject({ behavior: z.literal('deny'), reason: z.string().optional() }),
]);

/** Quiver → client notification: one lifecycle event of a session, as the event bus has it. */
export const sessionEventNotification = z.object({
  sessionId: z.string(),
  event: quiverEventSchema,
});

/** Client → Quiver notification: progress of an external tool the client is running. */
export const externalToolProgress = z.strictObject({
  sessionId: z.string(),
  callId: z.string().describe('The `callId` of the `external_tool.requested` being answered.'),
  progress: z.number().optional(),
  total: z.number().optional(),
  message: z.string().max(4000).optional(),
  partial: z.string().max(65_536).optional().describe('Output so far, shown as a partial result.'),
});

const relayOrigin = {
  sessionId: z.string(),
  callId: z.string().describe('The call that was running when the server asked.'),
  toolName: z.string(),
  mcpServer: z
    .string()
    .optional()
    .describe('The bridged MCP server that asked; absent when the tool itself asks.'),
};
/** Quiver → client: a bridged server's question to the person, rendered and labelled by Quiver. */
export const elicitationRequested = z.object({
  ...relayOrigin,
  message: z
    .string()
    .describe(
      'What to show, beginning with who asks ("Server x asks: …"), its text escaped: show it as it is.',
    ),
  requestedSchema: z.record(z.string(), z.unknown()).describe('The form (an object schema of flat fields).'),
});
export const elicitationReply = z.union([
  z.strictObject({
    action: z.literal('accept'),
    content: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
      .optional(),
  }),
  z.strictObject({ action: z.enum(['decline', 'cancel']) }),
]);
/** Quiver → client: a bridged server asks for a model completion, its system prompt labelled as the server's. */
export const samplingRequested = z.object({
  ...relayOrigin,
  params: z
    .record(z.string(), z.unknown())
    .describe(
      "MCP's `sampling/createMessage` params; `systemPrompt` begins with a label naming the server, with the server's own prompt quoted as one JSON string.",
    ),
});
export const samplingReply = z
  .record(z.string(), z.unknown())
  .describe("MCP's `CreateMessageResult`: `{ role, content, model, stopReason? }`.");

export const sessionListParams = z.strictObject({
  limit: z.number().int().positive().max(10_000).optional().describe('Most recent first; default 20.'),
});
export const sessionSummary = z.object({
  id: z.string(),
  open: z.boolean().describe('Open on this connection.'),
  personalityId: z.string().optional(),
  agent: z.string().optional(),
  caller: z
    .string()
    .optional()
    .describe("The signed-in caller (a token's subject) of an authenticated quiver serve."),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  calls: z.number(),
  failedCalls: z.number(),
  interruptedCalls: z.number(),
  lastActivityAt: z.number(),
  resultTokens: z.number().describe("Estimated tokens of the completed calls' results, summed."),
  definitionTokens: z
    .number()
    .optional()
    .describe('Estimated tokens of the tool definitions as last assembled.'),
});
export const sessionLogParams = z.strictObject({
  sessionId: z.string(),
  events: z.boolean().optional().describe('Also return the durable events; default false.'),
});
export const callRecord = z.object({
  callId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  turn: z.number().optional(),
  startedAt: z.number().optional(),
  completedAt: z.number().optional(),
  status: z.string().describe('running, ok, error or interrupted'),
  code: z.string().optional(),
  durationMs: z.number().optional(),
});

export const helperRequested = z.object({
  sessionId: z.string(),
  helper: z.enum(['ask_user', 'task_complete', 'exit_plan_mode', 'structured_output']),
  arguments: z
    .record(z.string(), z.unknown())
    .describe(
      'ask_user: `{ question, choices? }`; task_complete: `{ summary }`; exit_plan_mode: `{ plan }`; structured_output: the value, already checked against the schema.',
    ),
  question: z
    .object({
      text: z.string(),
      choices: z.array(z.string()).optional(),
    })
    .optional()
    .describe(
      "ask_user and exit_plan_mode: what to show the person instead of the raw arguments — the model's question or plan labelled as the model's, every control, bidi and invisible character escaped as `\\uXXXX`, and the offered answers escaped the same way (in their order, so the person's pick maps back to `arguments.choices`).",
    ),
});
export const helperReply = z
  .strictObject({
    answer: z.string().optional().describe('ask_user: the answer.'),
    declined: z.boolean().optional().describe('ask_user: the person would not answer.'),
    reason: z.string().optional().describe('ask_user: why not, when declined.'),
    approved: z.boolean().optional().describe('exit_plan_mode: whether the plan was approved.'),
    feedback: z.string().optional().describe("exit_plan_mode: the person's feedback."),
  })
  .describe('`{}` acknowledges task_complete and structured_output.');

/** Application error codes, beside JSON-RPC's own (-32602 invalid params, -32601 unknown method). */
export const RPC_ERRORS = {
  notInitialized: -32002,
  sessionNotFound: -32001,
  sessionExists: -32003,
  noTools: -32004,
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
    method: 'session.check',
    direction: 'client → quiver',
    kind: 'request',
    summary:
      "Whether each call would run, ask or be denied, asking nobody and running nothing (no hooks, no events): a client whose framework has an approval step asks there, then passes the answer as `session.execute`'s `approvals`.",
    params: sessionCheckParams,
    result: z.object({ checks: z.array(callCheck) }),
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
    method: 'session.list',
    direction: 'client → quiver',
    kind: 'request',
    summary: 'The sessions of the durable log (every process that shares it), most recent first.',
    params: sessionListParams,
    result: z.object({ sessions: z.array(sessionSummary) }),
  },
  {
    method: 'session.log',
    direction: 'client → quiver',
    kind: 'request',
    summary: "One session's calls (and durable events) from the log, open or not.",
    params: sessionLogParams,
    result: z.object({
      sessionId: z.string(),
      calls: z.array(callRecord),
      events: z.array(z.object({ type: z.string() }).passthrough()).optional(),
    }),
  },
  {
    method: 'shutdown',
    direction: 'client → quiver',
    kind: 'request',
    summary:
      'Closes every session, answers, then ends the process (exit code 0) once the log is written. Closing stdin does the same without an answer.',
    params: z.strictObject({}),
    result: z.object({ closedSessions: z.number() }),
  },
  {
    method: 'external_tool.progress',
    direction: 'client → quiver',
    kind: 'notification',
    summary:
      'Progress or output so far of an external tool the client is running; becomes a `tool.execution_progress` / `tool.execution_partial_result` event. Ignored once the call has ended.',
    params: externalToolProgress,
  },
  {
    method: 'session.ready',
    direction: 'quiver → client',
    kind: 'notification',
    summary:
      "The session's tools are assembled, MCP servers included (once per opened session). Render after it; re-render on `session.tools_updated`.",
    params: sessionReadyNotification,
  },
  {
    method: 'session.event',
    direction: 'quiver → client',
    kind: 'notification',
    summary:
      'A lifecycle event of the session (every type is below). `session.tools_updated` means the definitions changed: render again before the next model call.',
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
    method: 'helper.requested',
    direction: 'quiver → client',
    kind: 'request',
    summary:
      'The model called a helper tool the session declared in `helperTools` (ask_user, task_complete, exit_plan_mode, structured_output). Cancelled with `$/cancelRequest` when the call is aborted; an error reply fails the call.',
    params: helperRequested,
    result: helperReply,
  },
  {
    method: 'permission.requested',
    direction: 'quiver → client',
    kind: 'request',
    summary: 'Answer a permission ask (only to clients that declared `capabilities.permissions`).',
    params: permissionRequested,
    result: permissionReply,
  },
  {
    method: 'elicitation.requested',
    direction: 'quiver → client',
    kind: 'request',
    summary:
      'A bridged MCP server asks the person something while a call runs (only to clients that declared `capabilities.elicitation`, and only from servers whose configuration allows it). Show `message` and the form as given: they name who asks, so that what a person approves is exactly what runs.',
    params: elicitationRequested,
    result: elicitationReply,
  },
  {
    method: 'sampling.requested',
    direction: 'quiver → client',
    kind: 'request',
    summary:
      "A bridged MCP server asks for a model completion (only to clients that declared `capabilities.sampling`). The system prompt is labelled as the server's; answer with the model's message.",
    params: samplingRequested,
    result: samplingReply,
  },
];
