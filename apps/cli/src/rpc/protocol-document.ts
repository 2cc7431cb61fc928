import { z } from 'zod';
import { RPC_ERRORS, RPC_METHODS, RPC_PROTOCOL_VERSION } from './protocol.js';

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Record<
    string,
    unknown
  >;
  return rest;
};
const schemaOf = (schema: z.ZodType) => JSON.stringify(jsonSchemaOf(schema, 'input'), null, 2);

/** Where the schema file lives in the published CLI package (`@quiver/cli/rpc-protocol.schema.json`). */
export const RPC_SCHEMA_FILE = 'rpc-protocol.schema.json';

/**
 * The protocol as one JSON Schema document (draft 2020-12): `$defs` holds each message's params
 * and result by method name, `x-quiver-messages` says who sends each and whether it is answered.
 * What a client sends is described as Quiver reads it (input), what Quiver sends as it writes it.
 */
export function rpcProtocolSchema(): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  const messages = RPC_METHODS.map((method) => {
    const fromClient = method.direction === 'client → quiver';
    const paramsRef = `${method.method}.params`;
    defs[paramsRef] = jsonSchemaOf(method.params, fromClient ? 'input' : 'output');
    const entry: Record<string, unknown> = {
      method: method.method,
      direction: fromClient ? 'client-to-quiver' : 'quiver-to-client',
      kind: method.kind,
      summary: method.summary,
      params: { $ref: `#/$defs/${paramsRef}` },
    };
    if (method.result) {
      const resultRef = `${method.method}.result`;
      defs[resultRef] = jsonSchemaOf(method.result, fromClient ? 'output' : 'input');
      entry.result = { $ref: `#/$defs/${resultRef}` };
    }
    return entry;
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:quiver:rpc-protocol:${RPC_PROTOCOL_VERSION}`,
    title: `quiver rpc protocol, version ${RPC_PROTOCOL_VERSION}`,
    description:
      'JSON-RPC 2.0 over stdio with Content-Length framing. Each message of the protocol is listed in x-quiver-messages; its params and result schemas are in $defs.',
    'x-quiver-protocol-version': RPC_PROTOCOL_VERSION,
    'x-quiver-errors': { ...RPC_ERRORS },
    'x-quiver-messages': messages,
    $defs: defs,
  };
}

/** docs/rpc.md: the protocol of `quiver rpc`, from the zod schemas its server validates with. */
export function rpcProtocolReference(): string {
  const lines = [
    `# \`quiver rpc\` protocol, version ${RPC_PROTOCOL_VERSION}`,
    '',
    'JSON-RPC 2.0 over the standard input and output of `quiver rpc`, each message framed with a',
    '`Content-Length: N\\r\\n\\r\\n` header as in the Language Server Protocol. Parameters are passed by',
    'name. The client sends `initialize` first. The same protocol as one JSON Schema document (every',
    `message's params and result, every event) ships in the CLI package: \`@quiver/cli/${RPC_SCHEMA_FILE}\`.`,
    'Clients: `@quiver/client` (TypeScript) and `clients/python` (standard-library Python);',
    '`examples/python-agent` is a client written from this page alone.',
    '',
    '## A session from start to end',
    '',
    '1. `initialize` answers with `trust`: when the project configuration is not trusted (`untrusted`,',
    '   `changed`), its plugins, MCP servers and personalities do not apply; `notice` says what was',
    '   left out and `fix` how to trust it. Show it to the person.',
    '2. `session.create` opens a session (`session.resume` continues one an earlier process logged;',
    `   an id the log does not know is error ${RPC_ERRORS.sessionNotFound}, and \`session.create\` of an id it knows is ${RPC_ERRORS.sessionExists}).`,
    `   A session log that cannot be read (damaged, unreachable) does not stop \`session.create\`; \`session.resume\``,
    `   then fails with ${RPC_ERRORS.quiver}, \`data.code\` \`storage_damaged\` or \`storage_unavailable\` naming the store and \`data.fix\`.`,
    `   A personality that yields no tools is error ${RPC_ERRORS.noTools} with \`data.code\` \`personality_untrusted\` or`,
    '   `personality_empty` and `data.fix`, never an empty list.',
    '3. Wait for the `session.ready` notification: the MCP servers of the personality have connected',
    '   (or failed, listed in `diagnostics`) and the pool is complete. Then `session.render`.',
    "4. `session.execute` the model's calls. Every call runs the pipeline; `session.event` notifications",
    '   report each step. On a `session.event` of type `session.tools_updated` the definitions changed',
    '   (a server reconnected, a tool_search found tools): render again before the next model call.',
    '   `turn` defaults to the next turn of the session (1, 2, …), which `session.abort` can name.',
    '5. `session.close` each session, then `shutdown` (or close stdin): the process ends once the log',
    '   is written.',
    '',
    'Sessions of earlier processes are listed with `session.list`; `session.log` returns one',
    "session's calls (and its durable events), as `quiver log` shows them.",
    '',
    'A session runs every call through the whole pipeline: assembly gates, argument validation,',
    'permission rules, hooks, the reducer, the result budget and the durable session log. External',
    "tools are the client's: when the model calls one, Quiver checks it like any tool and then asks",
    'the client to run it with `external_tool.requested`; the reply is the result. A client that',
    'declares `capabilities.permissions` answers asks; otherwise they follow headless rules (an ask',
    'is denied with the rule that would allow it).',
    '',
    '- **Permission asks.** Show `question` (rendered by Quiver, every subject that needs approval,',
    '  hidden characters escaped), never `args` raw. `decision.subjects` says how each part of the call',
    '  (each command of a shell line, each path) was decided. Answer `allow` with a `scope`: `once`',
    '  (this call), `session` (calls matching `question.alwaysRule` for the rest of the session) or',
    '  `project` (that rule saved for the workspace, later sessions too); or `deny` with a reason.',
    '- **External tools** reply `{ "ok": true, "value", "structured"?, "attachments"? }` (attachments:',
    '  images and other content, base64 in `data`) or `{ "ok": false, "error", "code"? }`; while they',
    '  run they may send `external_tool.progress` notifications (progress, a message, output so far).',
    "- **Bridged servers' questions.** A client that declares `capabilities.elicitation` (or",
    '  `sampling`) receives `elicitation.requested` (`sampling.requested`) when a bridged MCP server',
    '  whose configuration allows it asks while a call runs. Quiver renders what is shown: the',
    "  message names the server that asks, its text escaped, and a form imitating Quiver's own",
    "  permission question is refused; a sampling request's system prompt is labelled as the",
    "  server's. Show them as given, so that what a person approves is exactly what runs. Without",
    '  the capability, the server is told the request was refused.',
    '- **Helper tools.** `session.create` / `session.resume` may declare `helperTools`: `askUser`,',
    '  `taskComplete`, `exitPlanMode`, `structuredOutput` (with the JSON object schema of the answer)',
    '  and `worktrees`. Only declared helpers exist, and the agent sets still apply (a sub-agent gets',
    '  neither `ask_user` nor `exit_plan_mode`). Their calls come as `helper.requested`; for',
    "  ask_user and exit_plan_mode show the person its `question` (the model's words labelled as the",
    "  model's, every hidden character escaped, the offered answers in their order), not the raw",
    '  `arguments`. Reply',
    '  `{ "answer" }` or `{ "declined": true }` to ask_user, `{ "approved", "feedback"? }` to',
    '  exit_plan_mode, `{}` to the others (a structured output is checked against the schema before',
    '  it is sent). Worktree calls do not reach the client: Quiver runs git itself with its',
    "  terminal's hardening (no hooks, no fsmonitor), asked like other tools, and the result names",
    '  the path. `session.update` keeps the helpers when it replaces the external tools.',
    '',
    '## Errors',
    '',
    '| code | meaning |',
    '|---|---|',
    '| -32700 | parse error: a body that is not JSON, or bytes that are not a frame (`id` null) |',
    '| -32600 | invalid request: a message over the size limit (to its `id` when its first 4 KiB name it), a batch, or JSON that is no JSON-RPC 2.0 message |',
    '| -32601 | unknown method |',
    '| -32602 | invalid params: the message names each wrong field |',
    `| ${RPC_ERRORS.notInitialized} | a request before \`initialize\` |`,
    `| ${RPC_ERRORS.sessionNotFound} | no open session with that id on this connection; \`session.resume\` or \`session.log\` of an id the log does not know |`,
    `| ${RPC_ERRORS.sessionExists} | the session id is already open on this connection, or \`session.create\` named an id the log knows (resume it) |`,
    `| ${RPC_ERRORS.noTools} | the personality yields no tools (\`data.code\`: \`personality_untrusted\`, \`personality_empty\`; \`data.fix\` says what to do) |`,
    `| ${RPC_ERRORS.quiver} | Quiver refused (unknown personality, assembly failed, …); \`data\` has \`code\` and \`fix\` |`,
    '',
    'A tool failure is not an error: it is a result `{ "ok": false, "code", "error" }`.',
    '',
    '## Framing, limits and flow control',
    '',
    '- A message body may be at most 16 MiB (`quiver rpc --max-message-size 64MiB` changes it, from',
    '  1KiB to 1GiB). A larger one is skipped by its `Content-Length`, never held in memory, and',
    '  answered with -32600 and `data: { size, maxMessageSize }`; the next frame is read as usual.',
    "- At most 64 of the client's requests may be under way at once (`quiver rpc --max-in-flight 128`",
    '  changes it); one more is answered at once with -32000, a message naming the limit and the',
    "  option, and `data: { inFlight, maxInFlight }`. The client's answers to `permission.requested`,",
    '  `elicitation.requested` and the other requests Quiver sends are responses: never counted, never refused.',
    '- A header block without a usable `Content-Length` (missing, not a number, two that disagree, a',
    '  line that is not `Name: value`, or over 8 KiB without its blank line) is answered with -32700,',
    '  `id` null, a message that says what was wrong, and a line on stderr; reading resumes at the next',
    '  `Content-Length:` header.',
    '- A body that is not JSON is answered with -32700; JSON that is not a JSON-RPC 2.0 message, or a',
    '  batch, with -32600, and so is a body nesting arrays and objects more than 1,000 levels deep',
    '  (answered to its id). The connection goes on after each.',
    "- Quiver stops reading while the client has not read what Quiver wrote (stdout's buffer over its",
    '  high-water mark) and reads on when it has: a client that never reads makes Quiver wait, not',
    '  grow. Read your stdout concurrently with writing requests, or both sides can stall.',
    '',
    '## Messages',
    '',
  ];
  for (const method of RPC_METHODS) {
    lines.push(`### \`${method.method}\``, '', `${method.direction}, ${method.kind}. ${method.summary}`, '');
    lines.push('Params:', '', '```json', schemaOf(method.params), '```', '');
    if (method.result) lines.push('Result:', '', '```json', schemaOf(method.result), '```', '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
