import type { MessagePort } from 'node:worker_threads';
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';

/**
 * The parts of quickjs-emscripten's FFI and Emscripten module the per-call path uses directly:
 * an inner call's answer and the requests a script queued cross through them without the
 * library's handle objects, scopes and generator-based host callbacks, which cost more sandbox
 * thread time per call than QuickJS's own work. (Fields the library marks private; the version is
 * pinned in package.json.)
 */
interface RawFfi {
  QTS_NewFloat64(ctx: number, value: number): number;
  QTS_NewString(ctx: number, chars: number): number;
  QTS_GetString(ctx: number, value: number): number;
  QTS_FreeCString(ctx: number, chars: number): void;
  QTS_Call(ctx: number, fn: number, self: number, argc: number, argv: number): number;
  QTS_ResolveException(ctx: number, value: number): number;
  QTS_FreeValuePointer(ctx: number, value: number): void;
  QTS_FreeValuePointerRuntime(rt: number, value: number): void;
  QTS_ExecutePendingJob(rt: number, maxJobs: number, lastContext: number): number;
  QTS_Typeof(ctx: number, value: number): number;
  QTS_PromiseState(ctx: number, promise: number): number;
}

interface RawModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, pointer: number, maxBytes: number): void;
  UTF8ToString(pointer: number): string;
}

interface RawContext {
  ffi: RawFfi;
  module: RawModule;
  ctx: { value: number };
  memory: { heapValueHandle(pointer: number): QuickJSHandle };
}

/** What the thread is started with. */
export interface SandboxThreadData {
  memoryBytes: number;
  stackBytes: number;
  outputChars: number;
  prelude: string;
  /**
   * Inner calls' answers: the session's side posts `[call, text]` here and then bumps `wake[0]`,
   * so a thread waiting on its script's tools takes them at once (`Atomics.wait`), not through
   * its event loop. `wake[1]` is 1 while the thread sleeps in that wait: only then does the
   * session's side pay for waking it (`Atomics.notify`); otherwise the thread finds the answer
   * on `answers` before it goes to sleep.
   */
  answers: MessagePort;
  wake: SharedArrayBuffer;
}

/** From the session's side to the thread. */
export type ToThread =
  | {
      kind: 'run';
      run: number;
      /** `var` statements and the script, on one first line so line numbers stay the user's. */
      text: string;
      /** Whether `text` evaluates to the promise of the encoded result (top-level await) or to its completion value. */
      async: boolean;
      deadline: number;
      /** The tools listed to the script, as JSON. */
      listed: string;
    }
  | { kind: 'reset' };

/** What a finished run reports. */
export type ThreadOutcome =
  | { ok: true; value: string; printed: string; droppedChars: number }
  | {
      ok: false;
      /** `error`: the script threw; `memory`: out of memory; `time`: past its deadline. */
      reason: 'error' | 'memory' | 'time';
      error: string;
      printed: string;
      droppedChars: number;
      stateLost: boolean;
    };

/** From the thread to the session's side. */
export type FromThread =
  | { kind: 'ready' }
  | { kind: 'done'; run: number; outcome: ThreadOutcome; fresh: boolean }
  /**
   * The tool calls and searches a script made since it last stopped running, in one message:
   * four strings each, `"c"` (call), its number, the tool's name and its arguments as JSON, or
   * `"s"` (search), its number, the query and the limit.
   */
  | string[];

/**
 * The body of a sandbox thread. It runs from its source text (`toString()`) in a worker, so it
 * uses nothing but its parameters and the globals of a Node worker: keep it self-contained.
 * A CPU-bound script blocks this thread only; the session's side stops it by ending the thread.
 */
export function sandboxThread(
  module: QuickJSWASMModule,
  port: MessagePort,
  data: SandboxThreadData,
  receive: (port: MessagePort) => { message: unknown } | undefined,
): void {
  let runtime: QuickJSRuntime;
  let context: QuickJSContext;
  let generation = 0;
  /**
   * Added to the prelude's number of each call that crosses to the session's side, per build:
   * numbers that cross are never reused within the thread, while timers keep the prelude's own
   * (below CALLS_PER_BUILD), so a late answer cannot settle a call of a rebuilt sandbox.
   */
  let callBase = 0;
  /** How many call numbers each build of the sandbox has to itself. */
  const CALLS_PER_BUILD = 2 ** 32;
  let deadline = Number.POSITIVE_INFINITY;
  let printed = '';
  let dropped = 0;
  let listed = '[]';
  /** Whether no script has run since the sandbox was (re)built: its variables are all new. */
  let fresh = true;
  const waiting = new Map<number, (text: string) => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let onJobError: ((error: QuickJSHandle) => void) | undefined;
  /** The prelude's `settle(call, text)`: resolves the sandbox promise of a call with its answer. */
  let settle: QuickJSHandle | undefined;
  /** The prelude's `take()`: the calls and searches the script queued, as JSON ('' for none). */
  let take: QuickJSHandle | undefined;
  let raw: RawContext;
  let rt = 0;
  /** Four words of the module's heap: the job context pointer out, and two call arguments. */
  let scratch = 0;
  const wake = new Int32Array(data.wake);
  /** Inner calls and searches the session's side has not answered yet. */
  let outstanding = 0;
  /** When each pending timer is due, by its call. */
  const timerDue = new Map<number, number>();
  /** The running script's promise, while it runs. */
  let running: QuickJSHandle | undefined;
  let blocking = false;
  let jobFailed = false;
  const append = (text: string) => {
    const room = data.outputChars - printed.length;
    if (room >= text.length) printed += text;
    else {
      printed += text.slice(0, Math.max(room, 0));
      dropped += text.length - Math.max(room, 0);
    }
  };

  /** The four words at `scratch`, as a view kept until the module's memory grows (a new buffer). */
  let wordsView: Int32Array | undefined;
  const words = (): Int32Array => {
    const { buffer } = raw.module.HEAPU8;
    if (wordsView === undefined || wordsView.buffer !== buffer || wordsView.byteOffset !== scratch)
      wordsView = new Int32Array(buffer, scratch, 4);
    return wordsView;
  };

  /** A new QuickJS string of `text`; the caller frees it. */
  const rawString = (text: string): number => {
    const { module } = raw;
    const bytes = module.lengthBytesUTF8(text) + 1;
    const chars = module._malloc(bytes);
    module.stringToUTF8(text, chars, bytes);
    const value = raw.ffi.QTS_NewString(raw.ctx.value, chars);
    module._free(chars);
    return value;
  };

  /** Calls `fn` with up to two arguments: its result (the caller frees it), or the error it threw. */
  const rawCall = (
    fn: QuickJSHandle,
    first = 0,
    second = 0,
    argc = 0,
  ): { value: number } | { error: QuickJSHandle } => {
    const heap = words();
    heap[1] = first;
    heap[2] = second;
    const ctx = raw.ctx.value;
    const result = raw.ffi.QTS_Call(ctx, fn.value, context.undefined.value, argc, scratch + 4);
    const error = raw.ffi.QTS_ResolveException(ctx, result);
    if (!error) return { value: result };
    raw.ffi.QTS_FreeValuePointer(ctx, result);
    return { error: raw.memory.heapValueHandle(error) };
  };

  /** Runs the script's pending jobs; the error a job threw, if one did. */
  const runJobs = (): QuickJSHandle | undefined => {
    words()[0] = 0;
    const result = raw.ffi.QTS_ExecutePendingJob(rt, -1, scratch);
    if (words()[0] === 0) {
      raw.ffi.QTS_FreeValuePointerRuntime(rt, result);
      return undefined;
    }
    const chars = raw.ffi.QTS_Typeof(raw.ctx.value, result);
    const kind = raw.module.UTF8ToString(chars);
    raw.module._free(chars);
    if (kind !== 'number') return raw.memory.heapValueHandle(result);
    raw.ffi.QTS_FreeValuePointer(raw.ctx.value, result);
    return undefined;
  };

  /**
   * Posts the calls and searches the script queued since it last stopped running, in one
   * message: one wake-up of the session's side for all of a turn's calls (`Promise.all`). What
   * crosses is checked here, as a script can replace what the prelude uses.
   */
  const takeRequests = (): QuickJSHandle | undefined => {
    if (take === undefined) return undefined;
    const taken = rawCall(take);
    if ('error' in taken) return taken.error;
    const ctx = raw.ctx.value;
    const chars = raw.ffi.QTS_GetString(ctx, taken.value);
    const text = raw.module.UTF8ToString(chars);
    raw.ffi.QTS_FreeCString(ctx, chars);
    raw.ffi.QTS_FreeValuePointer(ctx, taken.value);
    if (text === '') return undefined;
    let queued: unknown;
    try {
      queued = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!Array.isArray(queued)) return undefined;
    // The parsed array itself is posted when every request in it is well formed (the usual case);
    // otherwise only the well-formed ones, copied.
    let requests: string[] | undefined;
    const whole = queued.length - (queued.length % 4);
    for (let at = 0; at < whole; at += 4) {
      const kind: unknown = queued[at];
      const id: unknown = queued[at + 1];
      const first: unknown = queued[at + 2];
      const second: unknown = queued[at + 3];
      const call = typeof id === 'string' ? Number(id) : Number.NaN;
      if (
        (kind !== 'c' && kind !== 's') ||
        typeof first !== 'string' ||
        typeof second !== 'string' ||
        !Number.isSafeInteger(call) ||
        call < 1 ||
        call >= CALLS_PER_BUILD ||
        waiting.has(callBase + call)
      ) {
        requests ??= queued.slice(0, at) as string[];
        continue;
      }
      // The number that crosses is this build's: the prelude of a rebuilt sandbox numbers its
      // calls from 1 again, and a late answer to a call of the sandbox before must find nothing.
      const crossing = callBase + call;
      const crossingText = String(crossing);
      outstanding += 1;
      waiting.set(crossing, settler(call));
      if (requests === undefined) queued[at + 1] = crossingText;
      else requests.push(kind, crossingText, first, second);
    }
    if (requests === undefined)
      requests = whole === queued.length ? (queued as string[]) : queued.slice(0, whole);
    if (requests.length > 0) port.postMessage(requests satisfies FromThread);
    return undefined;
  };

  const pumpJobs = () => {
    const error = runJobs() ?? takeRequests();
    if (error === undefined) {
      block();
      return;
    }
    jobFailed = true;
    if (onJobError) onJobError(error);
    else error.dispose();
  };

  const answer = (call: number, text: string) => {
    const settle = waiting.get(call);
    if (settle === undefined) return;
    waiting.delete(call);
    outstanding -= 1;
    settle(text);
  };

  const drain = (): boolean => {
    let any = false;
    for (let got = receive(data.answers); got !== undefined; got = receive(data.answers)) {
      const [call, text] = got.message as [number, string];
      any = true;
      answer(call, text);
    }
    return any;
  };

  /** Whether the script's promise is pending (0: QuickJS's JS_PROMISE_PENDING). */
  const stillRunning = (): boolean =>
    running !== undefined && raw.ffi.QTS_PromiseState(raw.ctx.value, running.value) === 0;

  /**
   * While the script waits on its tools and nothing else (no job to run, no timer due), the
   * thread waits for their answers right here: an answer is taken the moment it is posted, with
   * no turn of the event loop. Timers and the deadline bound the wait; past them the event loop
   * takes over again (answers then arrive through `data.answers`' listener).
   */
  const block = () => {
    if (blocking) return;
    blocking = true;
    try {
      while (outstanding > 0 && !jobFailed && stillRunning()) {
        let until = deadline;
        for (const due of timerDue.values()) if (due < until) until = due;
        const left = until - Date.now();
        if (left <= 0) return;
        // Say "asleep" before looking for answers: an answer posted after the look sees the flag
        // and notifies; one posted before it is found by the look (no wake-up lost).
        Atomics.store(wake, 1, 1);
        const seen = Atomics.load(wake, 0);
        if (drain()) {
          Atomics.store(wake, 1, 0);
          continue;
        }
        const woke = Atomics.wait(wake, 0, seen, left);
        Atomics.store(wake, 1, 0);
        if (woke === 'timed-out') return;
        drain();
      }
    } finally {
      blocking = false;
    }
  };

  /**
   * The sandbox's own promises stand for the pending calls: the prelude numbers each call and
   * keeps the promise's `resolve` under it, and the answer's text reaches it through one call of
   * the prelude's `settle`, made here without the library's handles (no QuickJS promise
   * capability per call). Answers of a sandbox since rebuilt are dropped.
   */
  const settler = (id: number) => {
    const built = generation;
    return (text: string) => {
      if (built !== generation || settle === undefined) return;
      const ctx = raw.ctx.value;
      const number = raw.ffi.QTS_NewFloat64(ctx, id);
      const value = rawString(text);
      const settled = rawCall(settle, number, value, 2);
      raw.ffi.QTS_FreeValuePointer(ctx, number);
      raw.ffi.QTS_FreeValuePointer(ctx, value);
      if ('error' in settled) settled.error.dispose();
      else raw.ffi.QTS_FreeValuePointer(ctx, settled.value);
      pumpJobs();
    };
  };

  const clearTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    timerDue.clear();
  };

  const build = () => {
    generation += 1;
    callBase = generation * CALLS_PER_BUILD;
    waiting.clear();
    outstanding = 0;
    clearTimers();
    runtime = module.newRuntime();
    runtime.setMemoryLimit(data.memoryBytes);
    runtime.setMaxStackSize(data.stackBytes);
    runtime.setInterruptHandler(() => Date.now() > deadline);
    context = runtime.newContext();
    raw = context as unknown as RawContext;
    rt = (runtime as unknown as { rt: { value: number } }).rt.value;
    scratch = raw.module._malloc(16);
    const owner = context;
    const bridge = [
      owner.newFunction('__quiver_print', (text) => {
        append(owner.getString(text));
      }),
      owner.newFunction('__quiver_list', () => owner.newString(listed)),
      owner.newFunction('__quiver_timer', (id, ms) => {
        const call = owner.getNumber(id);
        const delay = Math.max(0, Number(owner.getNumber(ms)) || 0);
        waiting.set(call, settler(call));
        const timer = setTimeout(() => {
          timers.delete(timer);
          timerDue.delete(call);
          const done = waiting.get(call);
          waiting.delete(call);
          done?.('');
        }, delay);
        timers.add(timer);
        timerDue.set(call, Date.now() + delay);
      }),
      owner.newFunction('__quiver_bind', (settleFn, takeFn) => {
        settle?.dispose();
        take?.dispose();
        settle = settleFn.dup();
        take = takeFn.dup();
      }),
    ];
    for (const fn of bridge) {
      const name = owner.getProp(fn, 'name');
      owner.setProp(owner.global, owner.getString(name), fn);
      name.dispose();
      fn.dispose();
    }
    deadline = Number.POSITIVE_INFINITY;
    owner.unwrapResult(owner.evalCode(data.prelude, 'prelude.js', { type: 'global' })).dispose();
    fresh = true;
  };

  const teardown = () => {
    generation += 1;
    waiting.clear();
    outstanding = 0;
    clearTimers();
    const bound = [settle, take];
    settle = undefined;
    take = undefined;
    raw.module._free(scratch);
    scratch = 0;
    try {
      for (const handle of bound) handle?.dispose();
      context.dispose();
      runtime.dispose();
    } catch {
      // Handles held by unanswered calls keep QuickJS from freeing cleanly; the instance goes anyway.
    }
  };

  const rebuild = () => {
    teardown();
    build();
  };

  const describe = (error: unknown): string => {
    if (error && typeof error === 'object') {
      const { name, message, stack } = error as { name?: string; message?: string; stack?: string };
      const head = `${name ?? 'Error'}: ${message ?? ''}`;
      const frames =
        typeof stack === 'string' ? stack.split('\n').filter((line) => line.includes('repl.js')) : [];
      return [head, ...frames.slice(0, 3)].join('\n');
    }
    return String(error);
  };

  const failed = (reason: 'error' | 'memory' | 'time', error: string, stateLost: boolean): ThreadOutcome => ({
    ok: false,
    reason,
    error,
    printed,
    droppedChars: dropped,
    stateLost,
  });

  const errorOutcome = (handle: QuickJSHandle): ThreadOutcome => {
    const described = describe(context.dump(handle));
    handle.dispose();
    const outOfMemory = /out of memory/i.test(described);
    if (!outOfMemory && !/\binterrupted\b/.test(described)) return failed('error', described, false);
    // An interrupted or exhausted runtime may hold half-built state: start clean.
    rebuild();
    return outOfMemory ? failed('memory', described, true) : failed('time', described, true);
  };

  const run = async (message: Extract<ToThread, { kind: 'run' }>): Promise<ThreadOutcome> => {
    printed = '';
    dropped = 0;
    listed = message.listed;
    deadline = message.deadline;
    const owner = context;
    let evaluated: ReturnType<QuickJSContext['evalCode']>;
    if (message.async) evaluated = owner.evalCode(message.text, 'repl.js', { type: 'global' });
    else {
      const completed = owner.evalCode(message.text, 'repl.js', { type: 'global' });
      if (completed.error) evaluated = completed;
      else {
        const wrap = owner.getProp(owner.global, '__quiver_run');
        evaluated = owner.callFunction(wrap, owner.undefined, completed.value);
        wrap.dispose();
        completed.value.dispose();
      }
    }
    if (evaluated.error) return errorOutcome(evaluated.error);
    const promise = evaluated.value;
    const settled = owner.resolvePromise(promise);
    running = promise;
    jobFailed = false;
    const jobFailure = new Promise<{ jobError: QuickJSHandle }>((resolve) => {
      onJobError = (jobError) => resolve({ jobError });
    });
    pumpJobs();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<{ late: true }>((resolve) => {
      timer = setTimeout(() => resolve({ late: true }), Math.max(message.deadline - Date.now(), 0));
    });
    const outcome = await Promise.race([settled.then((result) => ({ result })), jobFailure, late]);
    running = undefined;
    if (promise.alive) promise.dispose();
    clearTimeout(timer);
    onJobError = undefined;
    clearTimers();
    if ('late' in outcome) {
      // The script still waits on tools or timers; its promise can never be settled safely now.
      rebuild();
      return failed('time', 'the script was still waiting on tools or timers', true);
    }
    if ('jobError' in outcome) return errorOutcome(outcome.jobError);
    const { result } = outcome;
    if (result.error) return errorOutcome(result.error);
    const value = owner.getString(result.value);
    result.value.dispose();
    return { ok: true, value, printed, droppedChars: dropped };
  };

  build();
  data.answers.on('message', ([call, text]: [number, string]) => answer(call, text));
  port.on('message', (message: ToThread) => {
    if (message.kind === 'reset') {
      rebuild();
      return;
    }
    const wasFresh = fresh;
    fresh = false;
    void run(message).then((outcome) =>
      port.postMessage({ kind: 'done', run: message.run, outcome, fresh: wasFresh } satisfies FromThread),
    );
  });
  port.postMessage({ kind: 'ready' } satisfies FromThread);
}
