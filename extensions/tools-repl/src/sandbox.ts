import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { SANDBOX_PRELUDE } from './prelude.js';
import {
  type FromThread,
  type SandboxThreadData,
  sandboxThread,
  type ThreadOutcome,
  type ToThread,
} from './sandbox-thread.js';
import { prepareScript } from './session-script.js';

export interface SandboxLimits {
  /** Heap the script may use. */
  memoryBytes: number;
  /** Native stack for deep recursion. */
  stackBytes: number;
  /** Characters of printed output kept; the rest is counted and dropped. */
  outputChars: number;
}

/** What the script's `tools` object reaches: strings in, strings out, nothing else crosses. */
export interface SandboxHost {
  /**
   * One inner call's answer: a JSON `{ ok: true, value?, textAt? }` or `{ ok: false, code, error }`
   * on the first line, then the tool's text as it is. `textAt` puts the text in the script's
   * value: `"value"` as the value itself, `"field"` as its `text` property.
   */
  call(name: string, argsJson: string): Promise<string>;
  /** A JSON array of `{ name, description, parameters }`. */
  search(query: string, limit: number): Promise<string>;
  /** A JSON array of the tools listed to the script. */
  list(): string;
}

export interface RunRequest {
  code: string;
  host: SandboxHost;
  /** Wall-clock end of the run; script code running past it is interrupted. */
  deadline: number;
  signal: AbortSignal;
}

/** Why a run failed: the script threw, ran out of memory or time, or the call was aborted. */
export type RunFailureReason = 'error' | 'memory' | 'time' | 'aborted';

export type RunOutcome =
  | {
      ok: true;
      /** The result as it prints: a string as it is, anything else as indented JSON. */
      value: string;
      /** The result itself when it is JSON data (not a string). */
      data?: unknown;
      printed: string;
      droppedChars: number;
      fresh: boolean;
    }
  | {
      ok: false;
      reason: RunFailureReason;
      error: string;
      printed: string;
      droppedChars: number;
      /** The sandbox was rebuilt: the script's variables are gone. */
      stateLost: boolean;
      /** The script ran in a sandbox whose variables were all new (first run, or after a loss). */
      fresh: boolean;
    };

/** 64 MB of heap, a stack for about a thousand nested calls, 20,000 printed characters. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 192 * 1024,
  outputChars: 20_000,
};

/** How long past its deadline a thread may take to report before it is ended. */
const GRACE_MS = 1_000;
/** Warm threads kept for the next session (each holds a QuickJS instance of a few MB). */
const POOL_SIZE = 2;

export function openSandbox(limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Promise<ReplSandbox> {
  return ReplSandbox.open(limits);
}

/**
 * One session's JavaScript sandbox: a QuickJS runtime in a worker thread of its own, with a
 * memory and stack limit, no module loader and no I/O but the `tools` bridge, timers and
 * `console`. A script that never yields blocks its thread only; an abort ends the thread at once.
 * Globals persist from one run to the next until `reset` or a lost thread.
 */
export class ReplSandbox {
  readonly #limits: SandboxLimits;
  #thread: SandboxThread | undefined;
  #runs = 0;

  private constructor(limits: SandboxLimits) {
    this.#limits = limits;
  }

  static async open(limits: SandboxLimits): Promise<ReplSandbox> {
    const sandbox = new ReplSandbox(limits);
    await sandbox.#started();
    return sandbox;
  }

  /** Drops every variable the scripts made. */
  async reset(): Promise<void> {
    (await this.#started()).post({ kind: 'reset' });
  }

  dispose(): void {
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread) release(thread, this.#limits);
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    const prepared = prepareScript(request.code);
    if (!prepared.ok)
      return {
        ok: false,
        reason: 'error',
        error: prepared.error,
        printed: '',
        droppedChars: 0,
        stateLost: false,
        fresh: false,
      };
    if (request.signal.aborted) return aborted(false);
    const asked = Date.now();
    const thread = await this.#started();
    // The time limit counts the script's run, not the wait for a thread to start (a cold thread on
    // a loaded machine can take seconds to compile QuickJS).
    const deadline = request.deadline + (Date.now() - asked);
    const run = ++this.#runs;
    thread.busy();
    return new Promise<RunOutcome>((resolve) => {
      let backstop: ReturnType<typeof setTimeout> | undefined;
      const finish = (outcome: RunOutcome) => {
        clearTimeout(backstop);
        thread.idle();
        request.signal.removeEventListener('abort', onAbort);
        thread.listener = undefined;
        resolve(outcome);
      };
      const lose = (outcome: RunOutcome) => {
        this.#thread = undefined;
        thread.end();
        finish(outcome);
      };
      const onAbort = () => lose(aborted(true));
      request.signal.addEventListener('abort', onAbort, { once: true });
      // A thread that does not stop at its deadline (stuck in a long native call) is ended.
      backstop = setTimeout(
        () =>
          lose({
            ok: false,
            reason: 'time',
            error: 'the script did not stop at its time limit',
            printed: '',
            droppedChars: 0,
            stateLost: true,
            fresh: false,
          }),
        Math.max(deadline - Date.now(), 0) + GRACE_MS,
      );
      const failed = (error: unknown) =>
        JSON.stringify({ ok: false, code: 'internal', error: String(error) });
      thread.listener = (message) => {
        if (Array.isArray(message)) {
          // Four strings a request: kind, number, name or query, arguments or limit.
          for (let at = 0; at + 3 < message.length; at += 4) {
            const call = Number(message[at + 1]);
            const asked =
              message[at] === 'c'
                ? request.host.call(message[at + 2] as string, message[at + 3] as string)
                : request.host.search(message[at + 2] as string, Number(message[at + 3]));
            void asked.then(
              (text) => thread.answer(call, text),
              (error: unknown) => thread.answer(call, failed(error)),
            );
          }
          return;
        }
        if (message.kind === 'done') {
          if (message.run === run) finish(fromThread(message.outcome, message.fresh));
          return;
        }
        lose({
          ok: false,
          reason: 'error',
          error: `the sandbox thread ended: ${message.error}`,
          printed: '',
          droppedChars: 0,
          stateLost: true,
          fresh: false,
        });
      };
      thread.post({
        kind: 'run',
        run,
        text: prepared.async
          ? `${prepared.declarations}__quiver_run(${prepared.source})`
          : `${prepared.declarations}${prepared.source}`,
        async: prepared.async,
        deadline,
        listed: request.host.list(),
      });
    });
  }

  async #started(): Promise<SandboxThread> {
    if (this.#thread === undefined) this.#thread = await acquire(this.#limits);
    return this.#thread;
  }
}

function aborted(stateLost: boolean): RunOutcome {
  return {
    ok: false,
    reason: 'aborted',
    error: 'the call was aborted',
    printed: '',
    droppedChars: 0,
    stateLost,
    fresh: false,
  };
}

function fromThread(outcome: ThreadOutcome, fresh: boolean): RunOutcome {
  if (!outcome.ok) return { ...outcome, fresh };
  // The prelude encodes the result: "s" and a string, "j" and JSON, "x" and what prints of it.
  const body = outcome.value.slice(1);
  if (outcome.value[0] !== 'j') return { ...outcome, value: body, fresh };
  const data: unknown = JSON.parse(body);
  return { ...outcome, value: JSON.stringify(data, null, 2), data, fresh };
}

type ThreadMessage = Exclude<FromThread, { kind: 'ready' }> | { kind: 'lost'; error: string };

/** One worker thread running `sandboxThread`, and who listens to it now. */
class SandboxThread {
  readonly #worker: Worker;
  readonly #answers: MessagePort;
  readonly #wake: Int32Array;
  listener: ((message: ThreadMessage) => void) | undefined;
  readonly ready: Promise<void>;
  #ended = false;

  constructor(limits: SandboxLimits) {
    const require = createRequire(import.meta.url);
    const channel = new MessageChannel();
    this.#answers = channel.port1;
    this.#answers.unref();
    const wake = new SharedArrayBuffer(8);
    this.#wake = new Int32Array(wake);
    const data: SandboxThreadData = { ...limits, prelude: SANDBOX_PRELUDE, answers: channel.port2, wake };
    const source = [
      "const { parentPort, workerData } = require('node:worker_threads');",
      'import(workerData.core)',
      '  .then((core) => core.newQuickJSWASMModuleFromVariant(import(workerData.variant)))',
      `  .then((module) => (${sandboxThread.toString()})(module, parentPort, workerData.data, require('node:worker_threads').receiveMessageOnPort));`,
    ].join('\n');
    this.#worker = new Worker(source, {
      eval: true,
      workerData: {
        core: pathToFileURL(require.resolve('quickjs-emscripten-core')).href,
        variant: pathToFileURL(require.resolve('@jitl/quickjs-wasmfile-release-sync')).href,
        data,
      },
      transferList: [channel.port2],
      // Nothing of the host's environment is needed in the thread.
      env: {},
      stdout: true,
      stderr: true,
    });
    this.ready = new Promise((resolve, reject) => {
      this.#worker.once('message', () => {
        this.#worker.unref();
        resolve();
      });
      this.#worker.once('error', reject);
    });
    this.#worker.on('message', (message: FromThread) => {
      if (Array.isArray(message) || message.kind !== 'ready') this.listener?.(message);
    });
    this.#worker.on('error', (error) => this.listener?.({ kind: 'lost', error: String(error) }));
    this.#worker.on('exit', (code) => {
      if (!this.#ended) this.listener?.({ kind: 'lost', error: `exit code ${code}` });
      this.#ended = true;
    });
  }

  /**
   * An inner call's answer, taken by the thread at once if it is waiting for it. The thread is
   * woken only when it sleeps (`wake[1]`); awake, it finds the answer before it sleeps.
   */
  answer(call: number, text: string): void {
    this.#answers.postMessage([call, text]);
    Atomics.add(this.#wake, 0, 1);
    if (Atomics.load(this.#wake, 1) === 1) Atomics.notify(this.#wake, 0);
  }

  post(message: ToThread): void {
    this.#worker.postMessage(message);
  }

  /** Lets the process exit while the thread has no script to run (pooled, or between scripts). */
  idle(): void {
    this.#worker.unref();
  }

  /** Keeps the process alive while a script runs: its answer comes from the thread. */
  busy(): void {
    this.#worker.ref();
  }

  end(): void {
    this.#ended = true;
    void this.#worker.terminate();
  }
}

const pool: Array<{ key: string; thread: SandboxThread }> = [];

function keyOf(limits: SandboxLimits): string {
  return `${limits.memoryBytes}:${limits.stackBytes}:${limits.outputChars}`;
}

async function acquire(limits: SandboxLimits): Promise<SandboxThread> {
  const key = keyOf(limits);
  const index = pool.findIndex((entry) => entry.key === key);
  if (index >= 0) {
    const [entry] = pool.splice(index, 1);
    if (entry) return entry.thread;
  }
  const thread = new SandboxThread(limits);
  await thread.ready;
  return thread;
}

/** A session's thread, cleaned of its variables, waits warm for the next session. */
function release(thread: SandboxThread, limits: SandboxLimits): void {
  thread.listener = undefined;
  if (pool.length >= POOL_SIZE) {
    thread.end();
    return;
  }
  thread.post({ kind: 'reset' });
  pool.push({ key: keyOf(limits), thread });
}

/** Starts a warm thread ahead of the first session that needs one (benchmarks, servers). */
export async function warmSandboxThread(limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Promise<void> {
  if (pool.length >= POOL_SIZE) return;
  const thread = new SandboxThread(limits);
  await thread.ready;
  release(thread, limits);
}
