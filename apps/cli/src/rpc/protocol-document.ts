import { z } from 'zod';
import { RPC_ERRORS, RPC_METHODS, RPC_PROTOCOL_VERSION } from './protocol.js';

const schemaOf = (schema: z.ZodType) =>
  JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }), null, 2);

/** docs/rpc.md: the protocol of `quiver rpc`, from the zod schemas its server validates with. */
export function rpcProtocolReference(): string {
  const lines = [
    `# \`quiver rpc\` protocol, version ${RPC_PROTOCOL_VERSION}`,
    '',
    'JSON-RPC 2.0 over the standard input and output of `quiver rpc`, each message framed with a',
    '`Content-Length: N\\r\\n\\r\\n` header as in the Language Server Protocol. Parameters are passed by',
    'name. The client sends `initialize` first. `examples/python-agent` is a client in standard-library',
    'Python.',
    '',
    'A session runs every call through the whole pipeline: assembly gates, argument validation,',
    'permission rules, hooks, the reducer, the result budget and the durable session log. External',
    "tools are the client's: when the model calls one, Quiver checks it like any tool and then asks",
    'the client to run it with `external_tool.requested`; the reply is the result. A client that',
    'declares `capabilities.permissions` answers asks; otherwise they follow headless rules (an ask',
    'is denied with the rule that would allow it).',
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
    `| ${RPC_ERRORS.sessionNotFound} | no open session with that id on this connection |`,
    `| ${RPC_ERRORS.sessionExists} | the session id is already open on this connection |`,
    `| ${RPC_ERRORS.quiver} | Quiver refused (unknown personality, assembly failed, …); \`data\` has \`code\` and \`fix\` |`,
    '',
    'A tool failure is not an error: it is a result `{ "ok": false, "code", "error" }`.',
    '',
    '## Framing, limits and flow control',
    '',
    '- A message body may be at most 16 MiB (`quiver rpc --max-message-size 64MiB` changes it, from',
    '  1KiB to 1GiB). A larger one is skipped by its `Content-Length`, never held in memory, and',
    '  answered with -32600 and `data: { size, maxMessageSize }`; the next frame is read as usual.',
    '- A header block without a usable `Content-Length` (missing, not a number, a line that is not',
    '  `Name: value`, or over 8 KiB without its blank line) is answered with -32700, `id` null, a',
    '  message that says what was wrong, and a line on stderr; reading resumes at the next',
    '  `Content-Length:` header.',
    '- A body that is not JSON is answered with -32700; JSON that is not a JSON-RPC 2.0 message, or a',
    '  batch, with -32600. The connection goes on after each.',
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
