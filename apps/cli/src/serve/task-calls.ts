import {
  type CallToolResult,
  type InputRequiredResult,
  isInputRequiredResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import type { CallCancelHandle } from '@quiver/runtime';
import type { ToolResult } from '@quiver/types';
import { z } from 'zod';
import { BoundedStdioServerTransport } from './bounded-stdio.js';
import { type PlainToolsCall, plainCallToolResult } from './lean-call.js';
import { declaresTasks, type ServeTasks, TASK_AFTER_MS, TASKS_EXTENSION } from './tasks.js';

/** How a tool may run for a client of the tasks extension (`Tool.taskSupport`, default optional). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** One tools/call as the task dispatcher runs it. */
export interface TaskCall {
  /** `ctx.mcpReq.envelope`: present on 2026-07-28 requests, which may negotiate tasks. */
  envelope: unknown;
  taskSupport: TaskSupport | undefined;
  /** The signed-in caller ('' without serve.auth): only they can read or cancel the task. */
  owner: string;
  /** The Quiver session the call runs in: it stays open until the task's call has ended. */
  sessionId: string;
  /** The call's id in the session log; the task id ends with it. */
  callId: string;
  requestSignal: AbortSignal;
  /** Runs the call through the session's lifecycle under `signal` (default: the request's own cancel). */
  execute(signal?: AbortSignal): Promise<ToolResult | undefined>;
  /**
   * Sends the call's questions to its task from now on (they wait for `tasks/update`) instead of
   * to the request that started it, which is answered.
   */
  askThroughTask(
    ask: (
      request: { method: string; params: Record<string, unknown> },
      signal?: AbortSignal,
    ) => Promise<unknown>,
  ): void;
  /** The MCP answer for the call's result (a question, or the tool result). */
  answer(result: ToolResult | undefined): Promise<CallToolResult | InputRequiredResult>;
}

export type TaskCallAnswer = CallToolResult | InputRequiredResult | Record<string, unknown>;

/**
 * Failures of the server rather than of the tool (its storage, its process): a task reports them
 * as `failed` with a JSON-RPC error; every other failure is the tool's, `completed` with isError.
 */
const SERVER_FAILURES: ReadonlySet<string> = new Set([
  'storage_unavailable',
  'storage_damaged',
  'interrupted',
]);

const MISSING_TASKS = {
  requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
};

/**
 * Runs a tools/call inside its request, or, for a client that declared the tasks extension, as
 * a task when the call is still running after TASK_AFTER_MS (a `required` tool always, unless
 * it finished asking its caller for input, answered as input-required): the
 * request is answered with a CreateTaskResult and the call goes on under the task's own signal,
 * which `tasks/cancel` aborts. A client without the extension gets the call inside its request,
 * except for a `required` tool on 2026-07-28, refused with -32021.
 */
export async function dispatchToolCall(tasks: ServeTasks, call: TaskCall): Promise<TaskCallAnswer> {
  const support = call.taskSupport ?? 'optional';
  const negotiated = call.envelope !== undefined && declaresTasks(call.envelope);
  if (!negotiated || support === 'forbidden') {
    if (support === 'required' && call.envelope !== undefined)
      throw new MissingRequiredClientCapabilityError(
        MISSING_TASKS,
        `This tool runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
      );
    return await call.answer(await call.execute());
  }
  if (support === 'required') {
    const refusal = tasks.refusal(call.owner);
    if (refusal) throw refusal;
  }
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(call.requestSignal.reason);
  if (call.requestSignal.aborted) forwardAbort();
  else call.requestSignal.addEventListener('abort', forwardAbort, { once: true });
  try {
    const execution = call.execute(controller.signal);
    const early = await Promise.race([
      execution.then((result) => ({ result })),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), TASK_AFTER_MS).unref()),
    ]);
    if (support === 'optional' && (early !== undefined || tasks.refusal(call.owner)))
      // A fast call is answered inside its request; so is a slow one past the caller's task limit.
      return call.answer(early ? early.result : await execution);
    // A required tool that asks its caller first answers those rounds inside the request
    // (input-required); the round that goes on becomes the task.
    const answered = early === undefined ? undefined : await call.answer(early.result);
    if (answered && isInputRequiredResult(answered)) return answered;
    // Calls started together all passed the check above while they ran: count again now.
    const refusal = tasks.refusal(call.owner);
    if (refusal) {
      controller.abort(refusal);
      await execution.catch(() => undefined);
      throw refusal;
    }
    const created = tasks.create(
      { owner: call.owner, sessionId: call.sessionId, callId: call.callId },
      controller,
      execution.then(async (result) => {
        if (result && !result.ok && SERVER_FAILURES.has(result.code))
          return { error: { code: ProtocolErrorCode.InternalError, message: result.error } };
        const answer = answered ?? (await call.answer(result));
        if (isInputRequiredResult(answer))
          return {
            error: {
              code: ProtocolErrorCode.InternalError,
              message:
                'The call needed an answer that can only be given in its request (a permission question); call it again without the tasks extension to answer it.',
            },
          };
        return { result: answer as CallToolResult };
      }),
    );
    call.askThroughTask((request, signal) => tasks.ask(created.taskId, request, signal));
    return created;
  } finally {
    call.requestSignal.removeEventListener('abort', forwardAbort);
  }
}

// tasks/update's inputResponses are lifted out of params by the SDK (ctx.mcpReq.inputResponses).
const TaskIdParams = z.looseObject({ taskId: z.string() });

/**
 * tasks/get, tasks/update and tasks/cancel of the tasks extension, on 2026-07-28 requests that
 * declare it (-32021 otherwise); 2025-11-25 sessions have no tasks (-32601). tasks/result and
 * tasks/list, removed by the extension, stay unknown methods.
 */
export function registerTaskRequests(server: Server, tasks: ServeTasks, owner: () => string): void {
  const gate = (ctx: ServerContext) => {
    if (ctx.mcpReq.envelope === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        'Tasks are served on protocol revision 2026-07-28 only; this session speaks 2025-11-25, where tool calls run inside their request.',
      );
    if (!declaresTasks(ctx.mcpReq.envelope))
      throw new MissingRequiredClientCapabilityError(
        MISSING_TASKS,
        `${ctx.mcpReq.method} needs the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
      );
  };
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params, ctx) => {
    gate(ctx);
    return tasks.get(owner(), params.taskId);
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params, ctx) => {
    gate(ctx);
    return tasks.cancel(owner(), params.taskId);
  });
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, (params, ctx) => {
    gate(ctx);
    return tasks.update(owner(), params.taskId, ctx.mcpReq.inputResponses);
  });
}

/**
 * The SDK's server, letting a tools/call answer be a CreateTaskResult: the SDK validates a
 * tools/call result as a tool result (and would add an empty `content`), so a task result is
 * set aside while the SDK's checks run on a placeholder, then sent as it is.
 */
export class TaskServer extends Server {
  /**
   * Runs a plain `tools/call` (see isPlainToolsCall) the way the registered tools/call handler
   * does, under the request's signal; set by the connection. Without it every call takes the
   * SDK's route.
   */
  plainCalls?: (request: PlainToolsCall, cancel: LeanCancel) => Promise<CallToolResult>;
  /** Runs after each plain call once its answer was written (or left unwritten, cancelled). */
  afterPlainCall?: () => void;

  /**
   * Over serve's own stdio transport, a request the transport has already parsed goes straight to
   * the SDK's request dispatch (the same method its message router calls for a request), skipping
   * the router's three failing-or-repeated schema checks (~10 µs a call). Every other message, and
   * every transport but that one, takes the SDK's route; an SDK without that method keeps it too.
   */
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const dispatch = (this as unknown as { _onrequest?: unknown })._onrequest;
    if (!(transport instanceof BoundedStdioServerTransport) || typeof dispatch !== 'function') return;
    transport.onrequest = (request) => dispatch.call(this, request, undefined);
    if (hasLeanInternals(this)) transport.onplaincall = (request) => this.#plainCall(request, transport);
  }

  /**
   * The lean path of a plain `tools/call` on a 2025-11-25 connection: what the SDK does for it
   * (its request cancellable by notifications/cancelled and by the connection closing, no answer
   * once cancelled, the result checked against the revision's CallToolResult, thrown errors
   * answered with their code, message and data) without its per-request context, schema copies
   * of the request and extra promise turns. Declines (false: the SDK's route) before initialize,
   * on another protocol revision, or without a runner.
   */
  #plainCall(request: PlainToolsCall, transport: Transport): boolean {
    const run = this.plainCalls;
    const sdk = this as unknown as LeanInternals;
    if (run === undefined || sdk._negotiatedProtocolVersion === undefined) return false;
    const codec = sdk._wireCodec();
    if (codec.era !== LEAN_ERA) return false;
    const { id } = request;
    const cancel = new LeanCancel();
    sdk._requestHandlerAbortControllers.set(id, cancel);
    const send = (message: JSONRPCMessage) => (cancel.aborted ? undefined : transport.send(message));
    const sendError = (code: number, message: string, data?: unknown) =>
      send({
        jsonrpc: '2.0',
        id,
        error: { code: codec.encodeErrorCode(code), message, ...(data === undefined ? {} : { data }) },
      });
    const failed = (error: unknown) => sdk._onerror(new Error(`Failed to send response: ${error}`));
    // Answers and forgets the request in the turn its result arrives (no promise turns after it).
    const settle = (answer: () => Promise<void> | undefined) => {
      try {
        answer()?.catch(failed);
      } catch (error) {
        failed(error);
      } finally {
        if (sdk._requestHandlerAbortControllers.get(id) === cancel)
          sdk._requestHandlerAbortControllers.delete(id);
        this.afterPlainCall?.();
      }
    };
    run(request, cancel).then(
      (result) =>
        settle(() => {
          if (cancel.aborted) return;
          let checked = plainCallToolResult(result);
          if (checked === undefined) {
            const validated = codec.validateResult('tools/call', result);
            if (!validated.ok)
              return sendError(
                validated.reason === 'not-in-era'
                  ? ProtocolErrorCode.InternalError
                  : ProtocolErrorCode.InvalidParams,
                validated.reason === 'not-in-era'
                  ? 'No wire schema for tools/call in the resolved era'
                  : `Invalid tools/call result: ${validated.message}`,
              );
            checked = validated.value as CallToolResult;
          }
          return send({ result: checked, jsonrpc: '2.0', id });
        }),
      (error: { code?: unknown; message?: string; data?: unknown }) =>
        settle(() => {
          const code = Number.isSafeInteger(error.code)
            ? (error.code as number)
            : ProtocolErrorCode.InternalError;
          return sendError(code, error.message ?? 'Internal error', error.data);
        }),
    );
    return true;
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    const created = new Map<unknown, Result>();
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if ((result as { resultType?: unknown }).resultType !== 'task') return result;
      created.set(ctx.mcpReq.id, result);
      return { content: [] };
    });
    return async (request, ctx) => {
      try {
        const result = await wrapped(request, ctx);
        return (created.get(ctx.mcpReq.id) as Result | undefined) ?? result;
      } finally {
        created.delete(ctx.mcpReq.id);
      }
    };
  }
}

/**
 * A lean call's cancel, kept in the SDK's map of request controllers (the SDK only calls
 * `abort`): a flag and the session's abort bound to it, and an AbortSignal made only when
 * something asks for one (a call that becomes a task, a question to the client), so a call that
 * is never cancelled pays for no controller and no listener.
 */
export class LeanCancel implements CallCancelHandle {
  aborted = false;
  reason: unknown;
  #abort: ((reason?: unknown) => void) | undefined;
  #controller: AbortController | undefined;

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
    this.#abort?.(reason);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  bind(abort: (reason?: unknown) => void): void {
    this.#abort = abort;
    if (this.aborted) abort(this.reason);
  }

  unbind(): void {
    this.#abort = undefined;
  }
}

/** The protocol revision whose tools/call the lean path answers (2026-07-28 requests carry `_meta`). */
const LEAN_ERA = '2025-11-25';

/** What the lean path uses of the SDK's Protocol: the same members its own request dispatch uses. */
interface LeanInternals {
  _negotiatedProtocolVersion: string | undefined;
  /** The SDK only calls `abort(reason)` on what it keeps here (cancelled notifications, close). */
  _requestHandlerAbortControllers: Map<unknown, { abort(reason?: unknown): void }>;
  _wireCodec(): {
    era: string;
    validateResult(
      method: string,
      raw: unknown,
    ): { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
    encodeErrorCode(code: number): number;
  };
  _onerror(error: Error): void;
}

/** Whether this SDK has what the lean path uses; an SDK that changed them keeps every call on its route. */
function hasLeanInternals(server: Server): boolean {
  const sdk = server as unknown as Partial<Record<keyof LeanInternals, unknown>>;
  return (
    sdk._requestHandlerAbortControllers instanceof Map &&
    typeof sdk._wireCodec === 'function' &&
    typeof sdk._onerror === 'function' &&
    'encodeErrorCode' in (sdk._wireCodec as () => object).call(server)
  );
}
