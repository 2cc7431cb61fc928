import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { errorMessage } from '@quiver/types';

/** The MCP tasks extension (SEP-2663), negotiated per request under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How long a call runs inside its request before it becomes a task the client polls. */
export const TASK_AFTER_MS = 500;
/** How long a finished task's result is kept for `tasks/get` (also the `ttlMs` sent). */
export const TASK_TTL_MS = 10 * 60_000;
/** Tasks one caller may have running at once. */
export const MAX_LIVE_TASKS = 16;
/** Finished tasks kept per caller; the oldest goes first. */
export const MAX_KEPT_TASKS = 256;
/** Questions one task may have waiting for its caller at once. */
export const MAX_TASK_INPUTS = 16;
/** The polling interval suggested to clients. */
export const TASK_POLL_INTERVAL_MS = 1000;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface TaskRecord {
  taskId: string;
  /** The signed-in caller who created it ('' without serve.auth). */
  owner: string;
  /** The Quiver session whose log records the call. */
  sessionId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  statusMessage?: string;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
  /** Questions waiting for the client's `tasks/update`, by the key the client answers under. */
  inputs: Map<string, PendingInput>;
  nextInput: number;
  controller: AbortController;
  /** Settles when the call behind the task has ended (whatever the task's status says). */
  ended: Promise<void>;
  expiry?: NodeJS.Timeout;
}

/** A question a task's call asked its caller, waiting for an answer through `tasks/update`. */
interface PendingInput {
  request: { method: string; params: Record<string, unknown> };
  answer(response: unknown): void;
}

/** The result type that answers each kind of question a task asks. */
const ANSWER_TYPES: Record<string, 'ElicitResult' | 'CreateMessageResult' | 'ListRootsResult'> = {
  'elicitation/create': 'ElicitResult',
  'sampling/createMessage': 'CreateMessageResult',
  'roots/list': 'ListRootsResult',
};

/** The flat `CreateTaskResult` / `DetailedTask` fields every task answer carries. */
/** Whether the call behind the task still runs (working, or waiting for its caller's answers). */
function isLive(task: TaskRecord): boolean {
  return task.status === 'working' || task.status === 'input_required';
}

function envelope(task: TaskRecord) {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
  };
}

/**
 * The tasks of this process: in memory, owned by the caller that created them, bounded by
 * MAX_LIVE_TASKS running and MAX_KEPT_TASKS finished per caller, each finished one kept for
 * TASK_TTL_MS. Task ids carry this process's id, so another replica can say the task is not its.
 */
export class ServeTasks {
  readonly #replica = randomUUID().slice(0, 8);
  readonly #tasks = new Map<string, TaskRecord>();

  /**
   * Tracks a running call as a task of `owner` (check `refusal` first). `tasks/cancel` aborts
   * `controller`; `call` settles the task.
   */
  create(
    { owner, sessionId, callId }: { owner: string; sessionId: string; callId: string },
    controller: AbortController,
    call: Promise<{ result: CallToolResult } | { error: { code: number; message: string } }>,
  ): ReturnType<typeof envelope> & { resultType: 'task' } {
    const now = new Date().toISOString();
    const task: TaskRecord = {
      taskId: `${this.#replica}-${callId}`,
      owner,
      sessionId,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      inputs: new Map(),
      nextInput: 1,
      controller,
      ended: Promise.resolve(),
    };
    task.ended = call.then(
      (outcome) => this.#settle(task, outcome),
      (error: unknown) =>
        this.#settle(task, {
          error: {
            code: ProtocolErrorCode.InternalError,
            message: `the call failed: ${errorMessage(error)}`,
          },
        }),
    );
    this.#tasks.set(task.taskId, task);
    this.#trimKept(owner);
    return { resultType: 'task', ...envelope(task) };
  }

  /** The refusal for a caller at MAX_LIVE_TASKS, or undefined when another task may start. */
  refusal(owner: string): ProtocolError | undefined {
    const live = [...this.#tasks.values()].filter((task) => task.owner === owner && isLive(task)).length;
    if (live < MAX_LIVE_TASKS) return undefined;
    return new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `${owner ? `Caller ${owner}` : 'This server'} has ${live} tasks running, the most one caller may have (${MAX_LIVE_TASKS}); wait for one to finish (tasks/get) or cancel one (tasks/cancel), then call again.`,
      { maxLiveTasks: MAX_LIVE_TASKS },
    );
  }

  /** `tasks/get`: the task with its result or error once finished. */
  get(owner: string, taskId: unknown) {
    const task = this.#find(owner, taskId);
    return {
      ...envelope(task),
      ...(task.status === 'input_required'
        ? {
            inputRequests: Object.fromEntries([...task.inputs].map(([key, input]) => [key, input.request])),
          }
        : {}),
      ...(task.status === 'completed' && task.result ? { result: task.result } : {}),
      ...(task.status === 'failed' && task.error ? { error: task.error } : {}),
    };
  }

  /** `tasks/cancel`: aborts the call's signal; the task reads `cancelled` from now on. */
  cancel(owner: string, taskId: unknown): Record<string, never> {
    const task = this.#find(owner, taskId);
    if (isLive(task)) {
      task.status = 'cancelled';
      task.statusMessage = 'cancelled by the client (tasks/cancel)';
      task.lastUpdatedAt = new Date().toISOString();
      task.controller.abort(new Error('cancelled by the client (tasks/cancel)'));
      this.#expireLater(task);
    }
    return {};
  }

  /**
   * `tasks/update`: answers the task's waiting questions the responses name (others are left
   * waiting; keys it does not know are ignored). The task works again once none is left.
   */
  update(
    owner: string,
    taskId: unknown,
    responses: Record<string, unknown> | undefined,
  ): Record<string, never> {
    const task = this.#find(owner, taskId);
    for (const [key, response] of Object.entries(responses ?? {})) {
      const input = task.inputs.get(key);
      if (!input) continue;
      const expected = ANSWER_TYPES[input.request.method];
      // As a 2025-11-25 client's answer is checked by the SDK: the question stays waiting.
      if (expected && !isSpecType[expected](response))
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `inputResponses.${key} is not a valid ${expected} (the answer to ${input.request.method}); send one: the question is still waiting.`,
        );
      task.inputs.delete(key);
      input.answer(response);
    }
    if (task.status === 'input_required' && task.inputs.size === 0) this.#touch(task, 'working');
    return {};
  }

  /**
   * A question the task's call asks its caller: the task reads `input_required` with it among
   * `inputRequests` until `tasks/update` answers it; cancelling the task (or the call's signal)
   * gives up waiting.
   */
  ask(taskId: string, request: PendingInput['request'], signal?: AbortSignal): Promise<unknown> {
    const task = this.#tasks.get(taskId);
    if (!task || !isLive(task)) return Promise.reject(new Error('the task is no longer running'));
    if (task.inputs.size >= MAX_TASK_INPUTS)
      return Promise.reject(
        new Error(`the task already waits for ${MAX_TASK_INPUTS} answers, the most one task may ask at once`),
      );
    const key = `input_${task.nextInput++}`;
    return new Promise((resolve, reject) => {
      const stop = [signal, task.controller.signal].filter((each): each is AbortSignal => each !== undefined);
      const giveUp = () => {
        task.inputs.delete(key);
        reject(new Error('the task stopped waiting for its caller: it was cancelled'));
      };
      if (stop.some((each) => each.aborted)) return giveUp();
      for (const each of stop) each.addEventListener('abort', giveUp, { once: true });
      task.inputs.set(key, {
        request,
        answer: (response) => {
          for (const each of stop) each.removeEventListener('abort', giveUp);
          resolve(response);
        },
      });
      this.#touch(task, 'input_required');
    });
  }

  #touch(task: TaskRecord, status: TaskStatus) {
    task.status = status;
    task.lastUpdatedAt = new Date().toISOString();
  }

  /** Resolves once every call running as a task in the session has ended. */
  async endedIn(sessionId: string): Promise<void> {
    await Promise.all(
      [...this.#tasks.values()].filter((task) => task.sessionId === sessionId).map((task) => task.ended),
    );
  }

  #find(owner: string, taskId: unknown): TaskRecord {
    if (typeof taskId !== 'string' || taskId.length === 0)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'params.taskId must be the taskId a tools/call returned.',
      );
    const task = this.#tasks.get(taskId);
    // Another caller's task is answered as unknown: its existence is not theirs to learn.
    if (task && task.owner === owner) return task;
    if (!taskId.startsWith(`${this.#replica}-`) && /^[0-9a-f]{8}-/.test(taskId))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown task ${JSON.stringify(taskId)}: it was not created by this server process (replica ${this.#replica}). Tasks are kept in memory by the replica that runs them; route tasks/* requests by their Mcp-Name header (the task id) to the replica that created the task.`,
      );
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown task ${JSON.stringify(taskId)}: no task of yours has this id (finished tasks are kept for ${TASK_TTL_MS / 60_000} minutes).`,
    );
  }

  #settle(
    task: TaskRecord,
    outcome: { result: CallToolResult } | { error: { code: number; message: string } },
  ) {
    if (!isLive(task)) return;
    task.inputs.clear();
    if ('result' in outcome) {
      task.status = 'completed';
      task.result = outcome.result;
    } else {
      task.status = 'failed';
      task.error = outcome.error;
    }
    task.lastUpdatedAt = new Date().toISOString();
    this.#expireLater(task);
  }

  #expireLater(task: TaskRecord) {
    clearTimeout(task.expiry);
    task.expiry = setTimeout(() => this.#tasks.delete(task.taskId), TASK_TTL_MS);
    task.expiry.unref();
  }

  #trimKept(owner: string) {
    const finished = [...this.#tasks.values()].filter((task) => task.owner === owner && !isLive(task));
    for (const task of finished.slice(0, Math.max(0, finished.length - MAX_KEPT_TASKS))) {
      clearTimeout(task.expiry);
      this.#tasks.delete(task.taskId);
    }
  }
}

let processTasks: ServeTasks | undefined;

/** The tasks of this process, shared by every connection and request. */
export function serveTasks(): ServeTasks {
  processTasks ??= new ServeTasks();
  return processTasks;
}

/** Whether a 2026-07-28 request declared the tasks extension in its `_meta` client capabilities. */
export function declaresTasks(envelope: unknown): boolean {
  const capabilities = (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}
