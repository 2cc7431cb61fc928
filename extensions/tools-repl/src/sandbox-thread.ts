import type { MessagePort } from 'node:worker_threads';
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';

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
   * The tool calls and searches a script made since the thread last went idle, in one message:
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
  let deadline = Number.POSITIVE_INFINITY;
  let printed = '';
  let dropped = 0;
  let listed = '[]';
  let nextCall = 0;
  /** Whether no script has run since the sandbox was (re)built: its variables are all new. */
  let fresh = true;
  const waiting = new Map<number, (text: string) => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let onJobError: ((error: QuickJSHandle) => void) | undefined;
  /** The prelude's `settle(call, text)`: resolves the sandbox promise of a call with its answer. */
  let settle: QuickJSHandle | undefined;
  const wake = new Int32Array(data.wake);
  /** Inner calls and searches the session's side has not answered yet. */
  let outstanding = 0;
  /** When each pending timer is due, by its call. */
  const timerDue = new Map<number, number>();
  /** The running script's promise, while it runs. */
  let running: QuickJSHandle | undefined;
  let blocking = false;
  let jobFailed = false;
  /** Requests made by the script and not yet posted: they leave together when the thread goes idle. */
  let requests: string[] = [];
  /** Whether a request has left since the thread last stopped running script code. */
  let sentThisTurn = false;

  /**
   * A script's request: the first of a turn leaves at once (the session's side starts on it while
   * the script runs on to its next `await`); the others of the same turn (`Promise.all`) wait for
   * `flush` and leave together, one wake-up of the session's side for all of them.
   */
  const request = (kind: 'c' | 's', call: number, name: string, argument: string) => {
    if (sentThisTurn) {
      requests.push(kind, String(call), name, argument);
      return;
    }
    sentThisTurn = true;
    port.postMessage([kind, String(call), name, argument] satisfies FromThread);
  };

  /**
   * Posts the requests the script made since the first of its turn, in one message. Called
   * whenever the thread stops running script code (before it sleeps on its tools, and before it
   * returns to its event loop).
   */
  const flush = () => {
    sentThisTurn = false;
    if (requests.length === 0) return;
    const batch = requests;
    requests = [];
    port.postMessage(batch satisfies FromThread);
  };

  const append = (text: string) => {
    const room = data.outputChars - printed.length;
    if (room >= text.length) printed += text;
    else {
      printed += text.slice(0, Math.max(room, 0));
      dropped += text.length - Math.max(room, 0);
    }
  };

  const pumpJobs = () => {
    const jobs = runtime.executePendingJobs();
    if (!jobs.error) {
      jobs.dispose();
      block();
      return;
    }
    jobFailed = true;
    flush();
    if (onJobError) onJobError(jobs.error);
    else jobs.error.dispose();
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

  const stillRunning = (): boolean => {
    if (running === undefined) return false;
    const state = context.getPromiseState(running);
    if (state.type === 'pending') return true;
    if (state.type === 'fulfilled') state.value.dispose();
    else state.error.dispose();
    return false;
  };

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
        flush();
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
      flush();
    }
  };

  /**
   * The sandbox's own promises stand for the pending calls: a bridge function returns the call's
   * number, the prelude keeps the promise's `resolve` under it, and the answer's text reaches it
   * through one call of the prelude's `settle` (no QuickJS promise capability made and freed
   * per call). Answers of a sandbox since rebuilt are dropped.
   */
  const pending = (start: (id: number) => void): QuickJSHandle => {
    const built = generation;
    const id = ++nextCall;
    waiting.set(id, (text) => {
      if (built !== generation || settle === undefined) return;
      const owner = context;
      const number = owner.newNumber(id);
      const value = owner.newString(text);
      const settled = owner.callFunction(settle, owner.undefined, number, value);
      number.dispose();
      value.dispose();
      if (settled.error) settled.error.dispose();
      else settled.value.dispose();
      pumpJobs();
    });
    start(id);
    return context.newNumber(id);
  };

  const clearTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    timerDue.clear();
  };

  const build = () => {
    generation += 1;
    waiting.clear();
    outstanding = 0;
    clearTimers();
    runtime = module.newRuntime();
    runtime.setMemoryLimit(data.memoryBytes);
    runtime.setMaxStackSize(data.stackBytes);
    runtime.setInterruptHandler(() => Date.now() > deadline);
    context = runtime.newContext();
    const owner = context;
    const bridge = [
      owner.newFunction('__quiver_print', (text) => {
        append(owner.getString(text));
      }),
      owner.newFunction('__quiver_list', () => owner.newString(listed)),
      owner.newFunction('__quiver_call', (name, args) =>
        pending((call) => {
          outstanding += 1;
          request('c', call, owner.getString(name), owner.getString(args));
        }),
      ),
      owner.newFunction('__quiver_search', (query, limit) =>
        pending((call) => {
          outstanding += 1;
          request('s', call, owner.getString(query), String(owner.getNumber(limit)));
        }),
      ),
      owner.newFunction('__quiver_timer', (ms) => {
        const delay = Math.max(0, Number(owner.getNumber(ms)) || 0);
        return pending((call) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            timerDue.delete(call);
            const done = waiting.get(call);
            waiting.delete(call);
            done?.('');
          }, delay);
          timers.add(timer);
          timerDue.set(call, Date.now() + delay);
        });
      }),
      owner.newFunction('__quiver_bind', (fn) => {
        settle?.dispose();
        settle = fn.dup();
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
    requests = [];
    sentThisTurn = false;
    waiting.clear();
    outstanding = 0;
    clearTimers();
    const bound = settle;
    settle = undefined;
    try {
      bound?.dispose();
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
