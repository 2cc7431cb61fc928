import { fail, ok, type ToolContext, type ToolResult } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { type ToolRun, ToolRunner } from '../src/index.js';
import { echoTool, MapBackends, until } from './support.js';

function runOf(overrides: Partial<ToolRun> & Pick<ToolRun, 'tool'>): ToolRun {
  return {
    callId: 'c1',
    args: { text: 'hi' },
    sessionId: 'session-1',
    personalityId: 'default',
    agent: { kind: 'main', id: 'agent-1' },
    turn: 1,
    budget: 10_000,
    ...overrides,
  };
}

describe('the runner a session pipeline calls', () => {
  it('runs a tool that no registry holds, with the capability handles its backend gives', async () => {
    const runner = new ToolRunner();
    const tool = echoTool('client_tool', {
      capabilities: { network: { domains: ['example.com'] } },
      execute: (args: { text: string }, context: ToolContext) =>
        ok(`${args.text} via ${String((context.capabilities.network as unknown as { name: string }).name)}`),
    });
    const backends = new MapBackends({ network: { name: 'proxy' } as never });
    const result = await runner.run(runOf({ tool, pluginId: 'sdk', backends }));
    expect(result).toEqual(ok('hi via proxy'));
    expect(backends.requests[0]).toMatchObject({
      capability: 'network',
      toolName: 'client_tool',
      pluginId: 'sdk',
    });
  });

  it('fails closed when the tool needs a capability that has no backend', async () => {
    let ran = false;
    const tool = echoTool('fetcher', {
      capabilities: { network: { domains: ['example.com'] } },
      execute: () => {
        ran = true;
        return ok('');
      },
    });
    const result = await new ToolRunner().run(runOf({ tool }));
    expect(result).toMatchObject({ ok: false, code: 'not_available' });
    expect(ran).toBe(false);
  });

  it('keeps the output a tool returns when its timeout tells it to stop', async () => {
    const tool = echoTool('slow', {
      execute: (_args: unknown, context: ToolContext) =>
        new Promise<ToolResult>((resolve) =>
          context.signal.addEventListener('abort', () =>
            resolve(fail('timeout', 'stopped after 20 ms; output so far: 3 lines')),
          ),
        ),
    });
    const result = await new ToolRunner().run(runOf({ tool, timeoutMs: 20 }));
    expect(result).toEqual(fail('timeout', 'stopped after 20 ms; output so far: 3 lines'));
  });

  it('stops a call at its own timeout while a longer call started before it still runs', async () => {
    const running = new Set<string>();
    const stoppable = (name: string) =>
      echoTool(name, {
        execute: (_args: unknown, context: ToolContext) => {
          running.add(name);
          return new Promise<ToolResult>((resolve) =>
            context.signal.addEventListener('abort', () => resolve(fail('timeout', `${name} stopped`))),
          );
        },
      });
    const runner = new ToolRunner();
    const caller = new AbortController();
    const started = Date.now();
    const long = runner.run(
      runOf({ tool: stoppable('long'), callId: 'c-long', timeoutMs: 60_000, signal: caller.signal }),
    );
    await until(() => running.has('long'));
    await new Promise((resolve) => setImmediate(resolve));
    const short = await runner.run(runOf({ tool: stoppable('short'), callId: 'c-short', timeoutMs: 30 }));
    expect(short).toEqual(fail('timeout', 'short stopped'));
    // Long before the first call's deadline: the second did not wait for it.
    expect(Date.now() - started).toBeLessThan(30_000);
    // And a call started after one timed out has its timeout too.
    expect(await runner.run(runOf({ tool: stoppable('third'), callId: 'c-third', timeoutMs: 20 }))).toEqual(
      fail('timeout', 'third stopped'),
    );
    caller.abort();
    expect(await long).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('answers aborted at once when the caller aborts, even if the tool ignores its signal', async () => {
    let started = false;
    const tool = echoTool('stubborn', {
      execute: () => {
        started = true;
        return new Promise<ToolResult>(() => {});
      },
    });
    const controller = new AbortController();
    const pending = new ToolRunner().run(runOf({ tool, signal: controller.signal }));
    await until(() => started);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('answers a tool that throws with a failure instead of throwing', async () => {
    const tool = echoTool('broken', {
      execute: () => {
        throw new Error('bug in the tool');
      },
    });
    expect(await new ToolRunner().run(runOf({ tool }))).toMatchObject({
      ok: false,
      code: 'execution_failed',
      error: expect.stringContaining('bug in the tool'),
    });
  });
});

describe('what a tool is told of its call', () => {
  it('tells onAbort listeners of a timeout once, with its reason, without the tool reading its signal', async () => {
    const heard: unknown[] = [];
    const tool = echoTool('listener', {
      execute: (_args: unknown, context: ToolContext) =>
        new Promise<ToolResult>((resolve) => {
          context.onAbort?.((reason) => {
            heard.push(reason);
            resolve(fail('aborted', 'stopped'));
          });
        }),
    });
    const result = await new ToolRunner().run(runOf({ tool, timeoutMs: 20 }));
    // The tool stopped at its timeout: the call reports the timeout, not an abort.
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    expect(heard).toHaveLength(1);
    expect((heard[0] as Error).name).toBe('TimeoutError');
  });

  it('tells a listener added after the abort at once, and a removed one never', async () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const tool = echoTool('late', {
      execute: (_args: unknown, context: ToolContext) =>
        new Promise<ToolResult>((resolve) => {
          const stop = context.onAbort?.(() => heard.push('removed'));
          stop?.();
          context.onAbort?.(() => {
            heard.push('first');
            // Added once the call is aborted: told at once.
            context.onAbort?.(() => heard.push('late'));
            resolve(ok('stopped'));
          });
        }),
    });
    const running = new ToolRunner().run(runOf({ tool, signal: controller.signal }));
    controller.abort(new Error('stop'));
    expect(await running).toMatchObject({ ok: false, code: 'aborted' });
    await until(() => heard.length >= 2);
    expect(heard).toEqual(['first', 'late']);
  });

  it('keeps signal an own property of the context a tool spreads, and emit usable taken off it', async () => {
    const controller = new AbortController();
    const emissions: unknown[] = [];
    let spreadSignal: AbortSignal | undefined;
    const tool = echoTool('spreader', {
      execute: (_args: unknown, context: ToolContext) => {
        const copy = { ...context };
        spreadSignal = copy.signal;
        const { emit } = context;
        emit({ type: 'log', level: 'info', message: 'hello' });
        return ok(Object.keys(context).includes('signal') ? 'own' : 'missing');
      },
    });
    const result = await new ToolRunner().run(
      runOf({ tool, signal: controller.signal, emit: (emission) => emissions.push(emission) }),
    );
    expect(result).toEqual(ok('own'));
    expect(spreadSignal).toBeInstanceOf(AbortSignal);
    expect(emissions).toEqual([{ type: 'log', level: 'info', message: 'hello' }]);
  });
});
