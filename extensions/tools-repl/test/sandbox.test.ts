import { afterEach, describe, expect, it } from 'vitest';
import { openSandbox, type ReplSandbox, type SandboxHost } from '../src/index.js';

const opened: ReplSandbox[] = [];
afterEach(() => {
  for (const sandbox of opened.splice(0)) sandbox.dispose();
});

async function sandbox(limits?: Parameters<typeof openSandbox>[0]): Promise<ReplSandbox> {
  const made = await openSandbox(limits);
  opened.push(made);
  return made;
}

/** A host whose one tool echoes its arguments, counting the calls it gets. */
function echoHost() {
  const calls: Array<{ name: string; args: unknown }> = [];
  const host: SandboxHost = {
    async call(name, argsJson) {
      const args = JSON.parse(argsJson);
      calls.push({ name, args });
      if (name !== 'echo')
        return JSON.stringify({ ok: false, code: 'not_found', error: `[not_found] no tool ${name}` });
      return JSON.stringify({ ok: true, value: `echo:${JSON.stringify(args)}` });
    },
    async search() {
      return '[]';
    },
    list() {
      return JSON.stringify([{ name: 'echo', description: 'echoes', parameters: {} }]);
    },
  };
  return { host, calls };
}

/**
 * A sandbox whose thread has started: the tests that time a limit or an abort measure the script,
 * not how long a loaded machine takes to start a worker thread and compile QuickJS (seconds at
 * load 30 on 2 cores).
 */
async function warmSandbox(limits?: Parameters<typeof openSandbox>[0]): Promise<ReplSandbox> {
  const box = await sandbox(limits);
  expect(await run(box, '0')).toMatchObject({ ok: true });
  return box;
}

function run(box: ReplSandbox, code: string, options: { ms?: number; signal?: AbortSignal } = {}) {
  return box.run({
    code,
    host: echoHost().host,
    deadline: Date.now() + (options.ms ?? 5_000),
    signal: options.signal ?? new AbortController().signal,
  });
}

describe('the repl sandbox', () => {
  it('keeps top-level variables, functions, classes and destructured names from one run to the next', async () => {
    const box = await sandbox();
    expect(
      await run(
        box,
        'let n = 40; const { a, b: [c] } = { a: 1, b: [1] }; function add(x) { return x + n } class K { v() { return a + c } }',
      ),
    ).toMatchObject({ ok: true });
    expect(await run(box, 'add(new K().v())')).toMatchObject({ ok: true, value: '42' });
    await box.reset();
    expect(await run(box, 'typeof n + " " + typeof add + " " + typeof K')).toMatchObject({
      ok: true,
      value: 'undefined undefined undefined',
    });
  });

  it('returns the completion value of a last statement that is not an expression, as a console does', async () => {
    const box = await sandbox();
    expect(await run(box, 'try { JSON.parse("{") } catch (error) { error.name }')).toMatchObject({
      ok: true,
      value: 'SyntaxError',
    });
    expect(await run(box, 'if (1 < 2) { "smaller" } else { "larger" }')).toMatchObject({
      ok: true,
      value: 'smaller',
    });
  });

  it('awaits tool calls at the top level and throws the reason of a failed one inside the script', async () => {
    const box = await sandbox();
    const { host, calls } = echoHost();
    const outcome = await box.run({
      code: `const got = await Promise.all([1, 2].map((i) => tools.echo({ i })));
let refused;
try { await tools.missing({}) } catch (error) { refused = error.name + ': ' + error.message }
console.log(refused);
got`,
      host,
      deadline: Date.now() + 5_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) return;
    expect(JSON.parse(outcome.value)).toEqual(['echo:{"i":1}', 'echo:{"i":2}']);
    expect(outcome.printed).toContain('ToolError: [not_found] no tool missing');
    expect(calls.map((call) => call.name)).toEqual(['echo', 'echo', 'missing']);
  });

  it('sends the session only the calls a script made, even when it replaces JSON.stringify, String and Array methods', async () => {
    const box = await sandbox();
    const { host, calls } = echoHost();
    // The script's calls wait inside the sandbox until it stops running; what the host takes
    // from there must be what the calls asked, whatever the script did to the builtins since.
    const outcome = await box.run({
      code: `const stringify = JSON.stringify;
JSON.stringify = () => '["c","1","forged","{}"]';
Array.prototype.push = () => { throw new Error('push replaced') };
globalThis.String = () => '1';
const first = await tools.echo({ i: 1 });
const both = await Promise.all([tools.echo({ i: 2 }), tools.echo({ i: 3 })]);
stringify([first, ...both])`,
      host,
      deadline: Date.now() + 5_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) return;
    // The script's own JSON.stringify made its arguments: the forged text, as the echo's argument.
    expect(JSON.parse(outcome.value)).toEqual([
      'echo:["c","1","forged","{}"]',
      'echo:["c","1","forged","{}"]',
      'echo:["c","1","forged","{}"]',
    ]);
    expect(calls.map((call) => call.name)).toEqual(['echo', 'echo', 'echo']);
  });

  it('sends the well-formed calls of a turn, before and after one whose arguments are not text', async () => {
    const box = await sandbox();
    const { host, calls } = echoHost();
    // The middle call's arguments become a number, which the session must never receive; the calls
    // made beside it in the same turn still go, in order, and are answered.
    const outcome = await box.run({
      code: `const stringify = JSON.stringify;
JSON.stringify = (value) => (value && value.i === 2 ? 42 : stringify(value));
const first = tools.echo({ i: 1 });
tools.echo({ i: 2 });
const third = tools.echo({ i: 3 });
JSON.stringify = stringify;
[await first, await third]`,
      host,
      deadline: Date.now() + 5_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) return;
    expect(JSON.parse(outcome.value)).toEqual(['echo:{"i":1}', 'echo:{"i":3}']);
    expect(calls).toEqual([
      { name: 'echo', args: { i: 1 } },
      { name: 'echo', args: { i: 3 } },
    ]);
  });

  it('offers no ambient I/O, and no way to the host through eval, Function or prototypes', async () => {
    const box = await sandbox();
    const outcome = await run(
      box,
      `const probes = {
  require: typeof require, process: typeof process, fetch: typeof fetch, std: typeof std, os: typeof os,
  bridge: typeof __quiver_call, importable: typeof import.meta,
};
const viaFunction = Function('return this')();
const viaPrototype = tools.constructor.constructor('return globalThis')();
const viaEval = eval('globalThis');
({ probes, sameGlobal: viaFunction === globalThis && viaPrototype === globalThis && viaEval === globalThis,
   bridgeAnywhere: [viaFunction, viaPrototype, viaEval].some((g) => '__quiver_call' in g) })`,
    );
    // import.meta is a syntax error outside modules: the probe shows there is no module system.
    expect(outcome.ok).toBe(false);
    const probed = await run(
      box,
      `const viaFunction = Function('return this')();
const viaPrototype = tools.constructor.constructor('return globalThis')();
({ types: [typeof require, typeof process, typeof fetch, typeof std, typeof os, typeof __quiver_call, typeof __quiver_print],
   sameGlobal: viaFunction === globalThis && viaPrototype === globalThis && eval('globalThis') === globalThis,
   bridgeAnywhere: Object.getOwnPropertyNames(globalThis).filter((name) => name.startsWith('__quiver_') && name !== '__quiver_run') })`,
    );
    expect(probed.ok).toBe(true);
    if (!probed.ok) return;
    expect(JSON.parse(probed.value)).toEqual({
      types: Array(7).fill('undefined'),
      sameGlobal: true,
      bridgeAnywhere: [],
    });
  });

  it('stops an endless loop at the time limit, and the next run works', async () => {
    const box = await warmSandbox();
    const stopped = await run(box, 'let spins = 0; while (true) spins++;', { ms: 300 });
    expect(stopped).toMatchObject({ ok: false, reason: 'time', stateLost: true });
    expect(await run(box, '6 * 7')).toMatchObject({ ok: true, value: '42' });
  });

  it('never gives a script the late answer of a call from before the sandbox was rebuilt', async () => {
    // A script that times out while its call is still running leaves that call's answer to
    // come later; the rebuilt sandbox numbers its calls afresh, and the late answer must not
    // settle the new script's call of the same number.
    const box = await warmSandbox();
    let releaseSlow: (() => void) | undefined;
    const slowAnswered = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const host: SandboxHost = {
      async call(name) {
        if (name === 'slow') {
          await slowAnswered;
          return JSON.stringify({ ok: true, value: 'the late answer of the timed-out script' });
        }
        // The new script's call is still waiting while the old call's answer arrives.
        releaseSlow?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
        return JSON.stringify({ ok: true, value: 'the answer of this call' });
      },
      async search() {
        return '[]';
      },
      list() {
        return JSON.stringify([
          { name: 'slow', description: 'slow', parameters: {} },
          { name: 'fresh', description: 'fresh', parameters: {} },
        ]);
      },
    };
    const timedOut = await box.run({
      code: 'await tools.slow({})',
      host,
      deadline: Date.now() + 300,
      signal: new AbortController().signal,
    });
    expect(timedOut).toMatchObject({ ok: false, reason: 'time', stateLost: true });
    const next = await box.run({
      code: 'await tools.fresh({})',
      host,
      deadline: Date.now() + 5_000,
      signal: new AbortController().signal,
    });
    expect(next).toMatchObject({ ok: true, value: 'the answer of this call' });
  });

  it('stops a memory bomb at the memory limit, and the next run works', async () => {
    const box = await warmSandbox({
      memoryBytes: 16 * 1024 * 1024,
      stackBytes: 192 * 1024,
      outputChars: 1_000,
    });
    const bombed = await run(
      box,
      'const hoard = []; while (true) hoard.push({ index: hoard.length, text: "x".repeat(64) + hoard.length });',
      // The memory limit is what is tested: a loaded machine must not reach the time limit first.
      { ms: 60_000 },
    );
    expect(bombed).toMatchObject({ ok: false, stateLost: true });
    expect(!bombed.ok && bombed.error).toContain('out of memory');
    expect(await run(box, '"still here"')).toMatchObject({ ok: true, value: 'still here' });
  });

  it('turns runaway recursion into a stack overflow error the script could catch', async () => {
    const box = await sandbox();
    const deep = await run(box, 'function down(n) { return down(n + 1) + 1 } down(0)');
    expect(deep.ok).toBe(false);
    expect(!deep.ok && deep.error).toMatch(/stack overflow/);
    const caught = await run(
      box,
      'function dive(n) { try { return dive(n + 1) } catch { return n } } dive(0) > 100',
    );
    expect(caught).toMatchObject({ ok: true, value: 'true' });
  });

  it('ends a script waiting on a promise nothing settles when the call is aborted', async () => {
    const box = await sandbox();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const waited = await run(box, 'await new Promise(() => {})', { signal: controller.signal });
    expect(waited).toMatchObject({ ok: false, error: 'the call was aborted', stateLost: true });
  });

  it('keeps timers on time and parallel tool calls parallel while the script waits on a slow tool', async () => {
    const box = await warmSandbox();
    const started: number[] = [];
    const host: SandboxHost = {
      async call(_name, argsJson) {
        started.push(Date.now());
        const { ms } = JSON.parse(argsJson) as { ms: number };
        await new Promise((resolve) => setTimeout(resolve, ms));
        return `${JSON.stringify({ ok: true, textAt: 'value' })}\nslept ${ms}`;
      },
      async search() {
        return '[]';
      },
      list: () => '[]',
    };
    const began = Date.now();
    const outcome = await box.run({
      code: [
        'const marks = [];',
        'const t0 = Date.now();',
        'setTimeout(() => marks.push(["timer", Date.now() - t0]), 50);',
        'const slept = await Promise.all([tools.nap({ ms: 400 }), tools.nap({ ms: 400 })]);',
        'marks.push(["tools", Date.now() - t0]);',
        '({ slept, marks })',
      ].join('\n'),
      host,
      deadline: Date.now() + 5_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: true, data: { slept: ['slept 400', 'slept 400'] } });
    const marks = (outcome.ok ? outcome.data : undefined) as { marks: Array<[string, number]> };
    // The timer fired while both calls were still running, not after their answers.
    expect(marks.marks[0]?.[0]).toBe('timer');
    expect(marks.marks[0]?.[1]).toBeLessThan(350);
    // Both calls started together: the second did not wait for the first's answer.
    expect(started).toHaveLength(2);
    expect(Math.abs((started[1] ?? 0) - (started[0] ?? 0))).toBeLessThan(200);
    expect(Date.now() - began).toBeLessThan(1_500);
  });

  it('loses no answer however it races the thread going to sleep (3,000 calls, one at a time and together)', async () => {
    const box = await warmSandbox();
    // Answers come at once (often before the thread has gone to sleep), after a turn of the event
    // loop, or after a timer: each lands on a different side of the thread's "asleep" flag.
    let calls = 0;
    const host: SandboxHost = {
      call(_name, argsJson) {
        calls += 1;
        const { n } = JSON.parse(argsJson) as { n: number };
        const text = `${JSON.stringify({ ok: true, value: n * 2 })}\n`;
        if (n % 3 === 0) return Promise.resolve(text);
        if (n % 3 === 1) return new Promise((resolve) => setImmediate(() => resolve(text)));
        return new Promise((resolve) => setTimeout(() => resolve(text), n % 2));
      },
      async search() {
        return '[]';
      },
      list: () => '[]',
    };
    const outcome = await box.run({
      code: [
        'let sum = 0;',
        'for (let n = 0; n < 1500; n++) sum += await tools.double({ n });',
        'for (let k = 0; k < 75; k++) {',
        '  const got = await Promise.all(Array.from({ length: 20 }, (_, i) => tools.double({ n: k * 20 + i })));',
        '  sum += got.reduce((a, b) => a + b, 0);',
        '}',
        'sum',
      ].join('\n'),
      host,
      // A lost wake-up would leave the script asleep until this deadline and fail it.
      deadline: Date.now() + 60_000,
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: true, value: String(2 * 2 * ((1499 * 1500) / 2)) });
    expect(calls).toBe(3_000);
  });

  it('ends a script waiting on a tool within 100 ms of the abort', async () => {
    const box = await warmSandbox();
    const controller = new AbortController();
    const host: SandboxHost = {
      call: () => new Promise<string>(() => {}),
      async search() {
        return '[]';
      },
      list: () => '[]',
    };
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 200);
    const waited = await box.run({
      code: 'await tools.never({})',
      host,
      deadline: Date.now() + 10_000,
      signal: controller.signal,
    });
    expect(waited).toMatchObject({ ok: false, reason: 'aborted', stateLost: true });
    expect(Date.now() - abortedAt).toBeLessThan(100);
    // A new thread takes over: the sandbox still runs scripts.
    expect(await run(box, '6 * 7')).toMatchObject({ ok: true, value: '42' });
  });

  it('keeps printed output to its limit and counts what it dropped', async () => {
    const box = await sandbox({ memoryBytes: 32 * 1024 * 1024, stackBytes: 192 * 1024, outputChars: 50 });
    const printed = await run(box, 'for (let i = 0; i < 100; i++) console.log("line", i); "done"');
    expect(printed).toMatchObject({ ok: true, value: 'done' });
    if (!printed.ok) return;
    expect(printed.printed).toHaveLength(50);
    expect(printed.droppedChars).toBeGreaterThan(500);
  });

  it('reports a syntax error with where it is, and keeps earlier state', async () => {
    const box = await sandbox();
    await run(box, 'let kept = 1');
    const broken = await run(box, 'let = ;');
    expect(broken).toMatchObject({ ok: false, stateLost: false });
    expect(!broken.ok && broken.error).toMatch(/^SyntaxError: Unexpected token \(1:6\)/);
    expect(await run(box, 'kept')).toMatchObject({ ok: true, value: '1' });
  });
});
