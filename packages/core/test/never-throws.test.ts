import { ok, type Tool, type ToolContext, type ToolErrorCode, type ToolResult } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '../src/index.js';
import { echoTool, executeContext, until } from './support.js';

interface HostileCase {
  name: string;
  tool: Partial<Tool>;
  expected: ToolErrorCode | 'ok';
  /** Text the result must contain. */
  mentions: string;
}

const hostile: HostileCase[] = [
  {
    name: 'a tool that throws synchronously',
    tool: {
      execute: () => {
        throw new Error('sync boom');
      },
    },
    expected: 'execution_failed',
    mentions: 'sync boom',
  },
  {
    name: 'a tool that rejects',
    tool: { execute: async () => Promise.reject(new Error('async boom')) },
    expected: 'execution_failed',
    mentions: 'async boom',
  },
  {
    name: 'a tool that throws a non-error',
    tool: { execute: () => Promise.reject({ weird: true }) },
    expected: 'execution_failed',
    mentions: 'weird',
  },
  {
    name: 'a tool that returns undefined',
    tool: { execute: () => undefined as unknown as ToolResult },
    expected: 'execution_failed',
    mentions: 'not a ToolResult',
  },
  {
    name: 'a tool that returns a number',
    tool: { execute: async () => 42 as unknown as ToolResult },
    expected: 'execution_failed',
    mentions: 'number 42',
  },
  {
    name: 'a tool that returns { ok: "yes" }',
    tool: { execute: () => ({ ok: 'yes' }) as unknown as ToolResult },
    expected: 'execution_failed',
    mentions: '"ok":"yes"',
  },
  {
    name: 'a tool whose availability check throws',
    tool: {
      isAvailable: () => {
        throw new Error('probe crashed');
      },
    },
    expected: 'not_available',
    mentions: 'probe crashed',
  },
];

describe('executeParallel never throws', () => {
  for (const entry of hostile) {
    it(`turns ${entry.name} into a result while the other calls succeed`, async () => {
      const registry = new DefaultToolRegistry();
      registry.register(echoTool('hostile', entry.tool));
      registry.register(echoTool('fine'));
      const results = await registry.executeParallel(
        [
          { name: 'hostile', args: { text: 'x' } },
          { name: 'fine', args: { text: 'still here' } },
        ],
        executeContext(),
      );
      expect(results[0]).toMatchObject({ ok: false, code: entry.expected });
      expect(results[0]?.ok === false && results[0].error).toContain(entry.mentions);
      expect(results[1]).toEqual(ok('still here'));
    });
  }

  it('settles a call that ignores its signal as aborted once the caller aborts', async () => {
    const registry = new DefaultToolRegistry();
    let started = false;
    let toolSignal: AbortSignal | undefined;
    registry.register(
      echoTool('hang', {
        execute: (_args: unknown, context: ToolContext) => {
          started = true;
          toolSignal = context.signal;
          return new Promise<ToolResult>(() => {});
        },
      }),
    );
    const controller = new AbortController();
    const pending = registry.executeParallel(
      [{ name: 'hang', args: { text: '' } }],
      executeContext({ signal: controller.signal }),
    );
    await until(() => started);
    controller.abort();
    const [result] = await pending;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    expect(toolSignal?.aborted).toBe(true);
  });

  it('keeps the results of calls that finished before the caller aborted the rest', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('quick'));
    let hung = false;
    registry.register(
      echoTool('hang', {
        execute: () => {
          hung = true;
          return new Promise<ToolResult>(() => {});
        },
      }),
    );
    const controller = new AbortController();
    const pending = registry.executeParallel(
      [
        { name: 'quick', args: { text: 'done' } },
        { name: 'hang', args: { text: '' } },
      ],
      executeContext({ signal: controller.signal }),
    );
    await until(() => hung);
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const results = await pending;
    expect(results[0]).toEqual(ok('done'));
    expect(results[1]).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('does not start a call whose batch was aborted before it began', async () => {
    const registry = new DefaultToolRegistry();
    let ran = false;
    registry.register(
      echoTool('echo', {
        execute: () => {
          ran = true;
          return ok('');
        },
      }),
    );
    const controller = new AbortController();
    controller.abort(new Error('user pressed stop'));
    const [result] = await registry.executeParallel(
      [{ name: 'echo', args: { text: '' } }],
      executeContext({ signal: controller.signal }),
    );
    expect(result).toMatchObject({
      ok: false,
      code: 'aborted',
      error: expect.stringContaining('user pressed stop'),
    });
    expect(ran).toBe(false);
  });

  it('settles a hanging call as timeout past the timeout the context resolves for it', async () => {
    const registry = new DefaultToolRegistry();
    let seenTimeout: number | undefined;
    registry.register(
      echoTool('hang', {
        execute: (_args: unknown, context: ToolContext) => {
          seenTimeout = context.timeoutMs;
          return new Promise<ToolResult>(() => {});
        },
      }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'hang', args: { text: '' } }],
      executeContext({ timeoutFor: (tool) => (tool.name === 'hang' ? 5 : undefined) }),
    );
    expect(result).toEqual({ ok: false, code: 'timeout', error: 'Tool "hang" timed out after 5 ms' });
    expect(seenTimeout).toBe(5);
  });

  it('reports a tool that rejects because its signal fired as aborted, not failed', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('polite', {
        execute: (_args: unknown, context: ToolContext) =>
          new Promise<ToolResult>((_resolve, reject) =>
            context.signal.addEventListener('abort', () => reject(new Error('stopped'))),
          ),
      }),
    );
    const controller = new AbortController();
    const pending = registry.executeParallel(
      [{ name: 'polite', args: { text: '' } }],
      executeContext({ signal: controller.signal }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect((await pending)[0]).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('keeps the unreduced result when the reducer throws, returns garbage, or grows the output', async () => {
    const reducers = new DefaultToolResultReducerRegistry();
    reducers.register({
      tool: 'throws',
      reduce: () => {
        throw new Error('reducer bug');
      },
    });
    reducers.register({ tool: 'garbage', reduce: () => ({ nope: true }) as unknown as ToolResult });
    reducers.register({
      tool: 'grows',
      reduce: (result) => (result.ok ? ok(`${result.value} and then some`) : result),
    });
    const registry = new DefaultToolRegistry({ reducers });
    for (const name of ['throws', 'garbage', 'grows']) registry.register(echoTool(name));
    const results = await registry.executeParallel(
      ['throws', 'garbage', 'grows'].map((name) => ({ name, args: { text: `${name} output` } })),
      executeContext(),
    );
    expect(results).toEqual([ok('throws output'), ok('garbage output'), ok('grows output')]);
  });

  it('answers malformed calls with results instead of throwing', async () => {
    const registry = new DefaultToolRegistry();
    const calls = [null, { args: {} }, { name: 7, args: {} }] as never[];
    const results = await registry.executeParallel(calls, executeContext());
    expect(results.map((result) => result.ok === false && result.code)).toEqual([
      'not_available',
      'not_available',
      'not_available',
    ]);
  });

  it('answers an emit listener that throws by keeping the tool result', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('chatty', {
        execute: (_args: unknown, context: ToolContext) => {
          context.emit({ type: 'partial', text: 'half' });
          return ok('done');
        },
      }),
    );
    const emit = () => {
      throw new Error('ui gone');
    };
    expect(
      await registry.executeParallel([{ name: 'chatty', args: { text: '' } }], executeContext({ emit })),
    ).toEqual([ok('done')]);
  });
});
