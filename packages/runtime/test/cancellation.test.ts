import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, fail, ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, type Harness, nextEvent, removeTempDirs } from './fixtures/lifecycle-harness.js';
import { appendLineTool, echoTool, shortTimeoutTool, waitTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
async function harness(...args: Parameters<typeof createHarness>): Promise<Harness> {
  const created = await createHarness(...args);
  harnesses.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

/** A cancel handle as `quiver serve` gives each request: `cancel` is set while the batch runs. */
function cancelHandle() {
  const handle = {
    cancel: undefined as ((reason?: unknown) => void) | undefined,
    bind: (given: (reason?: unknown) => void) => {
      handle.cancel = given;
    },
    unbind: () => {
      handle.cancel = undefined;
    },
  };
  return handle;
}

describe('cancellation', () => {
  it('aborts every running call of a turn and leaves other turns running', async () => {
    const h = await harness({ tools: [waitTool, echoTool] });
    const bothStarted = Promise.all([
      nextEvent(h.bus, 'tool.execution_partial_result', (event) => event.callId === 'a'),
      nextEvent(h.bus, 'tool.execution_partial_result', (event) => event.callId === 'b'),
    ]);
    const turnOne = h.run(
      [
        { id: 'a', name: 'wait_forever', args: {} },
        { id: 'b', name: 'wait_forever', args: {} },
      ],
      { turn: 1 },
    );
    const turnTwo = h.run([{ id: 'c', name: 'wait_forever', args: {} }], { turn: 2 });
    await bothStarted;
    h.executor.abort('new user message', 1);
    const results = await turnOne;
    expect(results.map((result) => result.ok === false && result.code)).toEqual(['aborted', 'aborted']);
    expect(results[0]?.ok === false && results[0].error).toContain('new user message');
    h.executor.abort('cleanup', 2);
    expect((await turnTwo)[0]).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('aborts the calls of a batch when the caller’s signal aborts', async () => {
    const h = await harness({ tools: [waitTool] });
    const controller = new AbortController();
    const started = nextEvent(h.bus, 'tool.execution_start');
    const running = h.run([{ id: 'c1', name: 'wait_forever', args: {} }], { signal: controller.signal });
    await started;
    controller.abort(new Error('client went away'));
    const [result] = await running;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    await h.settle();
    expect(h.events.find((event) => event.type === 'abort')).toMatchObject({ reason: 'client went away' });
  });

  it('aborts the calls of a batch through the caller’s cancel handle, bound only while the batch runs', async () => {
    const h = await harness({ tools: [waitTool, echoTool] });
    let abort: ((reason?: unknown) => void) | undefined;
    const bound: string[] = [];
    const cancel = {
      bind: (given: (reason?: unknown) => void) => {
        bound.push('bind');
        abort = given;
      },
      unbind: () => {
        bound.push('unbind');
        abort = undefined;
      },
    };
    const started = nextEvent(h.bus, 'tool.execution_start');
    const running = h.run([{ id: 'c1', name: 'wait_forever', args: {} }], { cancel });
    await started;
    abort?.(new Error('client cancelled'));
    expect((await running)[0]).toMatchObject({ ok: false, code: 'aborted' });
    expect(bound).toEqual(['bind', 'unbind']);
    await h.settle();
    expect(h.events.find((event) => event.type === 'abort')).toMatchObject({ reason: 'client cancelled' });
    // A handle cancelled before its batch starts: nothing starts.
    const already = { bind: (given: (reason?: unknown) => void) => given('too late'), unbind: () => {} };
    const [refused] = await h.run([{ id: 'c2', name: 'echo', args: { text: 'x' } }], { cancel: already });
    expect(refused).toMatchObject({ ok: false, code: 'aborted' });
    const [next] = await h.run([{ id: 'c3', name: 'echo', args: { text: 'y' } }], { cancel });
    expect(next).toMatchObject({ ok: true, value: 'y' });
  });

  it('stops only the batch whose signal or cancel handle aborts, not the other batches of its turn', async () => {
    // quiver serve runs every client request in turn 0, several at once: a client cancelling one
    // request must not abort the others.
    const h = await harness({ tools: [waitTool] });
    const started = Promise.all(
      ['mine', 'theirs', 'handled'].map((id) =>
        nextEvent(h.bus, 'tool.execution_partial_result', (event) => event.callId === id),
      ),
    );
    const controller = new AbortController();
    let cancelHandled: ((reason?: unknown) => void) | undefined;
    const mine = h.run([{ id: 'mine', name: 'wait_forever', args: {} }], { signal: controller.signal });
    const theirs = h.run([{ id: 'theirs', name: 'wait_forever', args: {} }], {
      signal: new AbortController().signal,
    });
    const handled = h.run([{ id: 'handled', name: 'wait_forever', args: {} }], {
      cancel: { bind: (given) => (cancelHandled = given), unbind: () => (cancelHandled = undefined) },
    });
    await started;
    controller.abort(new Error('the client cancelled this request'));
    expect((await mine)[0]).toMatchObject({ ok: false, code: 'aborted' });
    cancelHandled?.(new Error('the client cancelled that one too'));
    expect((await handled)[0]).toMatchObject({ ok: false, code: 'aborted' });
    // The third batch of the turn still runs: only the turn's own abort stops it.
    const still = await Promise.race([
      theirs,
      new Promise((resolve) => setTimeout(() => resolve('running'), 200)),
    ]);
    expect(still).toBe('running');
    h.executor.abort('the session moved on', 0);
    expect((await theirs)[0]).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('stops only the cancelled request when many requests, one after another and at once, each bring a cancel handle', async () => {
    // quiver serve's requests: a batch each, each with a cancel handle; the batches' abort state
    // outlives them (kept for later batches), so a cancel must still reach its own batch only.
    const h = await harness({ tools: [waitTool, echoTool] });
    for (let call = 0; call < 5; call++) {
      const [result] = await h.run([{ id: `before-${call}`, name: 'echo', args: { text: `${call}` } }], {
        cancel: cancelHandle(),
      });
      expect(result).toMatchObject({ ok: true, value: `${call}` });
    }
    const started = Promise.all(
      ['first', 'second'].map((id) =>
        nextEvent(h.bus, 'tool.execution_partial_result', (event) => event.callId === id),
      ),
    );
    const [one, two] = [cancelHandle(), cancelHandle()];
    const first = h.run([{ id: 'first', name: 'wait_forever', args: {} }], { cancel: one });
    const second = h.run([{ id: 'second', name: 'wait_forever', args: {} }], { cancel: two });
    await started;
    one.cancel?.(new Error('the client cancelled the first'));
    expect((await first)[0]).toMatchObject({ ok: false, code: 'aborted' });
    // Later requests run, whichever batch's abort state they get, and the second still waits.
    for (let call = 0; call < 5; call++) {
      const [result] = await h.run([{ id: `after-${call}`, name: 'echo', args: { text: `${call}` } }], {
        cancel: cancelHandle(),
      });
      expect(result).toMatchObject({ ok: true, value: `${call}` });
    }
    const still = await Promise.race([
      second,
      new Promise((resolve) => setTimeout(() => resolve('running'), 100)),
    ]);
    expect(still).toBe('running');
    two.cancel?.(new Error('the client cancelled the second'));
    expect((await second)[0]).toMatchObject({ ok: false, code: 'aborted' });
    const [last] = await h.run([{ id: 'last', name: 'echo', args: { text: 'z' } }], {
      cancel: cancelHandle(),
    });
    expect(last).toMatchObject({ ok: true, value: 'z' });
    await h.settle();
    const aborts = h.events.filter((event) => event.type === 'abort');
    expect(aborts.map((event) => (event as { reason: string }).reason)).toEqual([
      'the client cancelled the first',
      'the client cancelled the second',
    ]);
  });

  it("never lets a later request's cancel reach a listener an earlier request's resolver left on its signal", async () => {
    // A resolver (an embedder's) that keeps listening to the signal it was given after answering.
    const heard: string[] = [];
    const resolver = {
      resolve: async (prompt: { callId: string }, signal: AbortSignal) => {
        signal.addEventListener('abort', () => heard.push(prompt.callId));
        return { behavior: 'allow' as const, scope: 'once' as const };
      },
    };
    const h = await harness({ tools: [waitTool, echoTool], permissions: {}, resolver });
    const [answered] = await h.run([{ id: 'earlier', name: 'echo', args: { text: 'hi' } }], {
      cancel: cancelHandle(),
    });
    expect(answered).toMatchObject({ ok: true, value: 'hi' });
    const later = cancelHandle();
    const started = nextEvent(h.bus, 'tool.execution_start', (event) => event.callId === 'later');
    const running = h.run([{ id: 'later', name: 'wait_forever', args: {} }], { cancel: later });
    await started;
    later.cancel?.(new Error('the client cancelled the later request'));
    expect((await running)[0]).toMatchObject({ ok: false, code: 'aborted' });
    expect(heard).toEqual(['later']);
  });

  it('completes a call with aborted when its turn is aborted while the user is being asked', async () => {
    const resolver = {
      resolve: (_prompt: unknown, signal: AbortSignal) =>
        new Promise<never>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
    };
    const h = await harness({ tools: [echoTool], permissions: {}, resolver });
    const asked = nextEvent(h.bus, 'permission.requested');
    const running = h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }], { turn: 4 });
    await asked;
    h.executor.abort('the user moved on', 4);
    const [result] = await running;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    const types = (await h.eventsOf('c1')).map((event) => event.type);
    expect(types).not.toContain('tool.execution_start');
    expect(types.at(-1)).toBe('tool.execution_complete');
  });

  it('runs the next calls of a turn normally after one was aborted, without piling up abort listeners', async () => {
    const h = await harness({ tools: [waitTool, echoTool] });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const started = nextEvent(h.bus, 'tool.execution_start');
      const cut = h.run([{ id: 'cut', name: 'wait_forever', args: {} }], { signal: controller.signal });
      await started;
      controller.abort(new Error('client cancelled'));
      expect((await cut)[0]).toMatchObject({ ok: false, code: 'aborted' });
      // A client calling one tool at a time: every call in turn 0, each with its own signal.
      for (let call = 0; call < 40; call++) {
        const [result] = await h.run([{ id: `next-${call}`, name: 'echo', args: { text: `${call}` } }], {
          signal: new AbortController().signal,
        });
        expect(result).toMatchObject({ ok: true, value: `${call}` });
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('does not start calls of a batch whose signal is already aborted', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'never',
      description: 'Must not run.',
      input: z.object({}),
      capabilities: {},
      execute: () => {
        ran = true;
        return ok('ran');
      },
    });
    const h = await harness({ tools: [tool] });
    const [result] = await h.run([{ id: 'c1', name: 'never', args: {} }], { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    expect(ran).toBe(false);
    expect((await h.eventsOf('c1')).at(-1)).toMatchObject({
      type: 'tool.execution_complete',
      success: false,
    });
  });

  it('completes a call that runs past its default timeout with code timeout', async () => {
    const observed: { timeoutMs?: number } = {};
    const h = await harness({ tools: [shortTimeoutTool(observed)] });
    const [result] = await h.run([{ id: 'c1', name: 'slow', args: {} }]);
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    expect(observed.timeoutMs).toBe(50);
    expect((await h.eventsOf('c1')).at(-1)).toMatchObject({
      type: 'tool.execution_complete',
      result: { code: 'timeout' },
    });
  });

  it('clamps the timeout a call asks for to the tool’s maximum', async () => {
    const observed: { timeoutMs?: number } = {};
    const h = await harness({ tools: [shortTimeoutTool(observed)] });
    const [result] = await h.run([{ name: 'slow', args: { timeout_ms: 60_000 } }]);
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    expect(observed.timeoutMs).toBe(200);
  });
});

describe('write serialization', () => {
  it('runs two writes to the same file one after the other', async () => {
    const h = await harness({ toolsFor: (workspace) => [appendLineTool(workspace)] });
    const target = join(h.workspace, 'shared.txt');
    const results = await h.run([
      { name: 'append_line', args: { path: target, line: 'first' } },
      { name: 'append_line', args: { path: target, line: 'second' } },
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('begin first\nend first\nbegin second\nend second\n');
  });

  it('treats a relative path and its absolute form as the same file', async () => {
    const h = await harness({ toolsFor: (workspace) => [appendLineTool(workspace)] });
    const results = await h.run([
      { name: 'append_line', args: { path: 'notes.txt', line: 'relative' } },
      { name: 'append_line', args: { path: join(h.workspace, 'notes.txt'), line: 'absolute' } },
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(await readFile(join(h.workspace, 'notes.txt'), 'utf8')).toBe(
      'begin relative\nend relative\nbegin absolute\nend absolute\n',
    );
  });

  it('runs writes to different files at the same time', async () => {
    let arrived = 0;
    let release: () => void = () => {};
    const bothArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Each call waits until the other has started: only overlapping calls can both succeed.
    const rendezvous = defineTool({
      name: 'rendezvous_write',
      description: 'Writes a file once another writer has started.',
      input: z.object({ path: z.string() }),
      capabilities: {},
      permission: { kind: 'write', paths: (args: { path: string }) => [args.path] },
      execute: async (_args, ctx) => {
        arrived += 1;
        if (arrived === 2) release();
        const timer = new Promise<'alone'>((resolve) => setTimeout(() => resolve('alone'), 5_000));
        const outcome = await Promise.race([bothArrived.then(() => 'together' as const), timer]);
        if (ctx.signal.aborted) return fail('aborted', 'aborted');
        return outcome === 'together' ? ok('overlapped') : fail('execution_failed', 'ran alone');
      },
    });
    const h = await harness({ tools: [rendezvous] });
    const results = await h.run([
      { name: 'rendezvous_write', args: { path: 'a.txt' } },
      { name: 'rendezvous_write', args: { path: 'b.txt' } },
    ]);
    expect(results).toEqual([
      { ok: true, value: 'overlapped' },
      { ok: true, value: 'overlapped' },
    ]);
  });
});
