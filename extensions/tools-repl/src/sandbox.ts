import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
} from 'quickjs-emscripten-core';
import { SANDBOX_PRELUDE } from './prelude.js';
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
  /** A JSON `{ ok, value }` or `{ ok: false, error }` for one inner call. */
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

export type RunOutcome =
  | { ok: true; value: string; printed: string; droppedChars: number }
  | {
      ok: false;
      error: string;
      printed: string;
      droppedChars: number;
      /** The sandbox was rebuilt: the script's variables are gone. */
      stateLost: boolean;
    };

/** 64 MB of heap, a stack for about a thousand nested calls, 20,000 printed characters. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 192 * 1024,
  outputChars: 20_000,
};

export function openSandbox(limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Promise<ReplSandbox> {
  return ReplSandbox.open(limits);
}

/**
 * One session's JavaScript sandbox: a QuickJS runtime in its own WebAssembly instance, with a
 * memory and stack limit, no module loader and no I/O but the `tools` bridge and `console`. Its
 * globals persist from one run to the next until `reset`.
 */
export class ReplSandbox {
  readonly #limits: SandboxLimits;
  #runtime!: QuickJSRuntime;
  #context!: QuickJSContext;
  #host: SandboxHost | undefined;
  #deadline = 0;
  #signal: AbortSignal | undefined;
  #printed = '';
  #dropped = 0;
  /** Moves on each rebuild, so a tool call answered after its sandbox is gone is dropped. */
  #generation = 0;

  private constructor(limits: SandboxLimits) {
    this.#limits = limits;
  }

  static async open(limits: SandboxLimits): Promise<ReplSandbox> {
    const sandbox = new ReplSandbox(limits);
    await sandbox.#build();
    return sandbox;
  }

  /** Drops every variable the scripts made. */
  async reset(): Promise<void> {
    this.#teardown();
    await this.#build();
  }

  dispose(): void {
    this.#teardown();
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    const prepared = prepareScript(request.code);
    if (!prepared.ok) return this.#failed(prepared.error, false);
    this.#host = request.host;
    this.#deadline = request.deadline;
    this.#signal = request.signal;
    this.#printed = '';
    this.#dropped = 0;
    const context = this.#context;
    const evaluated = prepared.async
      ? context.evalCode(`${prepared.declarations}__quiver_run(${prepared.source})`, 'repl.js', {
          type: 'global',
        })
      : this.#runSync(`${prepared.declarations}${prepared.source}`);
    if (evaluated.error) return this.#errorOutcome(evaluated.error);
    const promise = evaluated.value;
    const settled = context.resolvePromise(promise);
    promise.dispose();
    const jobFailure = new Promise<{ jobError: QuickJSHandle }>((resolve) => {
      this.#onJobError = (jobError) => resolve({ jobError });
    });
    this.#pumpJobs();
    const stop = stopped(request.signal, request.deadline);
    const outcome = await Promise.race([settled.then((result) => ({ result })), jobFailure, stop.promise]);
    stop.cancel();
    this.#onJobError = undefined;
    if ('stopReason' in outcome) {
      // The script still waits on tools; its promise can never be settled safely now.
      await this.reset();
      return this.#failed(outcome.stopReason, true);
    }
    if ('jobError' in outcome) return this.#errorOutcome(outcome.jobError);
    const { result } = outcome;
    if (result.error) return this.#errorOutcome(result.error);
    const value = context.getString(result.value);
    result.value.dispose();
    return { ok: true, value, printed: this.#printed, droppedChars: this.#dropped };
  }

  /** A script without top-level await: its completion value, passed through `__quiver_run`. */
  #runSync(source: string) {
    const context = this.#context;
    const completed = context.evalCode(source, 'repl.js', { type: 'global' });
    if (completed.error) return completed;
    const run = context.getProp(context.global, '__quiver_run');
    const promise = context.callFunction(run, context.undefined, completed.value);
    run.dispose();
    completed.value.dispose();
    return promise;
  }

  #onJobError: ((error: QuickJSHandle) => void) | undefined;

  /** Runs queued promise jobs; an error escaping them (an interrupt) ends the run. */
  #pumpJobs(): void {
    const jobs = this.#runtime.executePendingJobs();
    if (!jobs.error) {
      jobs.dispose();
      return;
    }
    if (this.#onJobError) this.#onJobError(jobs.error);
    else jobs.error.dispose();
  }

  async #errorOutcome(handle: QuickJSHandle): Promise<RunOutcome> {
    const described = describeError(this.#context.dump(handle));
    handle.dispose();
    const outOfMemory = /out of memory/i.test(described);
    if (!outOfMemory && !/\binterrupted\b/.test(described)) return this.#failed(described, false);
    const reason = outOfMemory
      ? `the script ran out of memory (limit ${Math.round(this.#limits.memoryBytes / 1_048_576)} MB)`
      : this.#signal?.aborted
        ? 'the call was aborted'
        : 'the script ran past its time limit';
    // An interrupted or exhausted runtime may hold half-built state: start clean.
    await this.reset();
    return this.#failed(reason, true);
  }

  #failed(error: string, stateLost: boolean): RunOutcome {
    return { ok: false, error, printed: this.#printed, droppedChars: this.#dropped, stateLost };
  }

  async #build(): Promise<void> {
    const module = await newQuickJSWASMModuleFromVariant(import('@jitl/quickjs-wasmfile-release-sync'));
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(this.#limits.memoryBytes);
    runtime.setMaxStackSize(this.#limits.stackBytes);
    runtime.setInterruptHandler(() => Date.now() > this.#deadline || this.#signal?.aborted === true);
    const context = runtime.newContext();
    this.#generation += 1;
    this.#runtime = runtime;
    this.#context = context;
    this.#installBridge(context, this.#generation);
    this.#deadline = Number.POSITIVE_INFINITY;
    this.#signal = undefined;
    const prelude = context.evalCode(SANDBOX_PRELUDE, 'prelude.js', { type: 'global' });
    context.unwrapResult(prelude).dispose();
  }

  #teardown(): void {
    this.#generation += 1;
    try {
      this.#context?.dispose();
      this.#runtime?.dispose();
    } catch {
      // Handles still held by unanswered tool calls keep QuickJS from freeing cleanly; the
      // WebAssembly instance is dropped either way.
    }
  }

  #installBridge(context: QuickJSContext, generation: number): void {
    const print = context.newFunction('__quiver_print', (text) => {
      this.#append(context.getString(text));
    });
    const list = context.newFunction('__quiver_list', () => context.newString(this.#host?.list() ?? '[]'));
    const call = context.newFunction('__quiver_call', (name, args) =>
      this.#deferred(context, generation, (host) =>
        host.call(context.getString(name), context.getString(args)),
      ),
    );
    const search = context.newFunction('__quiver_search', (query, limit) =>
      this.#deferred(context, generation, (host) =>
        host.search(context.getString(query), context.getNumber(limit)),
      ),
    );
    for (const fn of [print, list, call, search]) {
      context.setProp(context.global, context.getString(context.getProp(fn, 'name')), fn);
      fn.dispose();
    }
  }

  /** A promise in the sandbox settled by the host; it is dropped if the sandbox was rebuilt meanwhile. */
  #deferred(
    context: QuickJSContext,
    generation: number,
    work: (host: SandboxHost) => Promise<string>,
  ): QuickJSHandle {
    const deferred = context.newPromise();
    const host = this.#host;
    const answer = host ? work(host) : Promise.resolve(JSON.stringify({ ok: false, error: 'no host' }));
    void answer
      .then(
        (text) => text,
        (error: unknown) => JSON.stringify({ ok: false, error: String(error) }),
      )
      .then((text) => {
        if (generation !== this.#generation) return;
        const value = context.newString(text);
        deferred.resolve(value);
        value.dispose();
        deferred.dispose();
        this.#pumpJobs();
      });
    return deferred.handle;
  }

  #append(text: string): void {
    const room = this.#limits.outputChars - this.#printed.length;
    if (room >= text.length) this.#printed += text;
    else {
      this.#printed += text.slice(0, Math.max(room, 0));
      this.#dropped += text.length - Math.max(room, 0);
    }
  }
}

function stopped(signal: AbortSignal, deadline: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const promise = new Promise<{ stopReason: string }>((resolve) => {
    onAbort = () => resolve({ stopReason: 'the call was aborted' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(
      () => resolve({ stopReason: 'the script ran past its time limit while waiting for tools' }),
      Math.max(deadline - Date.now(), 0),
    );
  });
  return {
    promise,
    cancel() {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    },
  };
}

function describeError(error: unknown): string {
  if (error && typeof error === 'object') {
    const { name, message, stack } = error as { name?: string; message?: string; stack?: string };
    const head = `${name ?? 'Error'}: ${message ?? ''}`;
    const frames =
      typeof stack === 'string' ? stack.split('\n').filter((line) => line.includes('repl.js')) : [];
    return [head, ...frames.slice(0, 3)].join('\n');
  }
  return String(error);
}
