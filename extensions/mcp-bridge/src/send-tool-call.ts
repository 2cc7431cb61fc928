import type { CallToolRequestParams, CallToolResult, Client } from '@modelcontextprotocol/client';
import { errorMessage } from '@quiver/types';
import type { CallRouter, CallTracking } from './call-router.js';
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
  /**
   * With `direct` and no `signal`: the call is written on the transport by the router and settled
   * by its id, without the SDK's `Protocol.request` (see `CallRouter.sendCall`).
   */
  route?: { router: CallRouter; tracking: CallTracking };
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
      check = { compileError: errorMessage(error).slice(0, 200) };
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
  const route = options.route;
  const sent = (
    route !== undefined && options.signal === undefined && route.router.canSendDirect(client)
      ? route.router.sendCall(params, route.tracking, callToolResultSchema(), options.timeout)
      : client.request({ method: 'tools/call', params }, callToolResultSchema(), {
          signal: options.signal,
          timeout: options.timeout,
        })
  ) as Promise<CallToolResult>;
  return check === undefined ? sent : sent.then((result) => checked(definition, check, result));
}

type ResultSchema = ReturnType<typeof clientSdk>['specTypeSchemas']['CallToolResult'];
type Validate = (value: unknown) => ReturnType<ResultSchema['~standard']['validate']>;
let resultSchema: { '~standard': ResultSchema['~standard'] } | undefined;

/**
 * The SDK's `CallToolResult` check with a short way through for the result most calls get: only
 * text content (each item `{ type: 'text', text }`), and `isError` and `structuredContent` when
 * present, of the right types. Such a result is what the SDK's parse would give back (a copy of
 * it), so it is passed on as is; anything else (other content types, annotations, `_meta`,
 * unknown keys, no `content`, a malformed result) goes through the SDK's full parse, and what a
 * malformed result is told is unchanged.
 */
export function callToolResultSchema(): { '~standard': ResultSchema['~standard'] } {
  if (resultSchema !== undefined) return resultSchema;
  const standard = clientSdk().specTypeSchemas.CallToolResult['~standard'];
  const full = standard.validate as Validate;
  const validate: Validate = (value) =>
    isPlainTextResult(value) ? { value: value as CallToolResult } : full(value);
  resultSchema = { '~standard': { ...standard, validate } as ResultSchema['~standard'] };
  return resultSchema;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isPlainTextResult(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  let content = false;
  for (const key in value) {
    const field = value[key];
    if (key === 'content') {
      if (!Array.isArray(field)) return false;
      for (const item of field) {
        if (!isPlainObject(item) || item.type !== 'text' || typeof item.text !== 'string') return false;
        for (const itemKey in item) if (itemKey !== 'type' && itemKey !== 'text') return false;
      }
      content = true;
    } else if (key === 'isError') {
      if (typeof field !== 'boolean') return false;
    } else if (key === 'structuredContent') {
      if (!isPlainObject(field)) return false;
    } else return false;
  }
  return content;
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
