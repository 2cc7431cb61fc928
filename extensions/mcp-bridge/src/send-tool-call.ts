import type { CallToolRequestParams, CallToolResult, Client } from '@modelcontextprotocol/client';
import { clientSdk } from './client-sdk.js';
import type { McpToolDefinition } from './mcp-tool.js';

/** What the server itself answered to one call, for the call's span. */
export interface ServerAnswer {
  isError?: boolean;
  rpcCode?: number;
}

export interface SendToolCallOptions {
  signal: AbortSignal | undefined;
  timeout: number;
  /**
   * Send the request as is instead of through `Client.callTool`. Right for a pipe: what
   * `callTool` adds there per call (an asynchronous lookup of the tool in its response cache,
   * request headers a pipe cannot carry, and a result validator built afresh, which builds and
   * throws a zod error each time) was most of the SDK's cost of a local call. Over HTTP the SDK's
   * own path is kept, for the `Mcp-Param-*` headers of the current protocol.
   */
  direct: boolean;
  answer?: ServerAnswer;
}

/**
 * A result the server sent that breaks the tool's own `outputSchema`: the server's fault, not the
 * caller's arguments. The SDK's `callTool` reports the same as an invalid-params protocol error.
 */
export class OutputSchemaError extends Error {
  override readonly name = 'OutputSchemaError';
}

const SDK_OUTPUT_CHECK_MESSAGES = [
  /has an output schema but did not return structured content/,
  /^Structured content does not match the tool's output schema/,
  /^Failed to validate structured content/,
  /has an invalid outputSchema/,
];

/** Whether `error` is a failed check of a result against the tool's `outputSchema`, ours or the SDK's. */
export function isOutputSchemaFailure(error: unknown): boolean {
  if (error instanceof OutputSchemaError) return true;
  const message = error instanceof Error ? error.message : '';
  return SDK_OUTPUT_CHECK_MESSAGES.some((pattern) => pattern.test(message));
}

type Check = (value: unknown) => { ok: true } | { ok: false; message: string };
const checks = new WeakMap<McpToolDefinition, Check | { compileError: string }>();

/**
 * The check of a tool's `structuredContent` against its `outputSchema`, built once per listed
 * definition with the SDK's own JSON Schema validator (undefined when the tool has none).
 */
function outputCheck(definition: McpToolDefinition): Check | undefined {
  if (definition.outputSchema === undefined) return undefined;
  let check = checks.get(definition);
  if (check === undefined) {
    try {
      const { fromJsonSchema } = clientSdk();
      const validate = fromJsonSchema(definition.outputSchema as Parameters<typeof fromJsonSchema>[0])[
        '~standard'
      ].validate;
      check = (value) => {
        const outcome = validate(value);
        // The SDK's JSON Schema validators answer at once; one that would not is not trusted to pass.
        if (outcome instanceof Promise)
          return { ok: false, message: 'the outputSchema validator answered asynchronously' };
        return outcome.issues === undefined
          ? { ok: true }
          : { ok: false, message: outcome.issues.map((issue) => issue.message).join('; ') };
      };
    } catch (error) {
      check = { compileError: (error instanceof Error ? error.message : String(error)).slice(0, 200) };
    }
    checks.set(definition, check);
  }
  if (typeof check === 'function') return check;
  throw new OutputSchemaError(`Tool '${definition.name}' has an invalid outputSchema: ${check.compileError}`);
}

/**
 * One `tools/call`, its result checked as `Client.callTool` checks it: the shape of a
 * `CallToolResult`, and `structuredContent` present and valid when the tool declares an
 * `outputSchema` (unless the result is an error). The server's own answer is noted in `answer`.
 */
export function sendToolCall(
  client: Client,
  definition: McpToolDefinition,
  params: CallToolRequestParams,
  options: SendToolCallOptions,
): Promise<CallToolResult> {
  const sent = options.direct
    ? sendDirect(client, definition, params, options)
    : client.callTool(params, { signal: options.signal, timeout: options.timeout });
  return options.answer === undefined ? sent : noted(sent, options.answer);
}

async function noted(sent: Promise<CallToolResult>, answer: ServerAnswer): Promise<CallToolResult> {
  try {
    const result = await sent;
    answer.isError = result.isError === true;
    return result;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number') answer.rpcCode = code;
    throw error;
  }
}

function sendDirect(
  client: Client,
  definition: McpToolDefinition,
  params: CallToolRequestParams,
  options: SendToolCallOptions,
): Promise<CallToolResult> {
  let check: Check | undefined;
  try {
    check = outputCheck(definition);
  } catch (error) {
    return Promise.reject(error);
  }
  const sent = client.request({ method: 'tools/call', params }, clientSdk().specTypeSchemas.CallToolResult, {
    signal: options.signal,
    timeout: options.timeout,
  }) as Promise<CallToolResult>;
  return check === undefined ? sent : sent.then((result) => checked(definition, check, result));
}

function checked(definition: McpToolDefinition, check: Check, result: CallToolResult): CallToolResult {
  if (result.isError === true) return result;
  if (result.structuredContent === undefined) {
    throw new OutputSchemaError(
      `Tool ${definition.name} has an output schema but did not return structured content`,
    );
  }
  const outcome = check(result.structuredContent);
  if (!outcome.ok) {
    throw new OutputSchemaError(
      `Structured content does not match the tool's output schema: ${outcome.message}`,
    );
  }
  return result;
}
