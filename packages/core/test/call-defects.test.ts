import { fail, ok, type ToolContext, type ToolResult } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '../src/index.js';
import { echoTool, executeContext } from './support.js';

const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : result?.error);

describe('the one budget rule', () => {
  it('counts the JSON of structured toward the budget and drops structured that does not fit', async () => {
    const registry = new DefaultToolRegistry();
    const rows = Array.from({ length: 500 }, (_, index) => ({ path: `src/file-${index}.ts`, line: index }));
    registry.register(echoTool('grep', { execute: () => ok('500 matches', { structured: { rows } }) }));
    registry.register(echoTool('small', { execute: () => ok('1 match', { structured: { rows: [1] } }) }));
    const [big, small] = await registry.executeParallel(
      [
        { name: 'grep', args: { text: '' } },
        { name: 'small', args: { text: '' } },
      ],
      executeContext({ budget: 2_000 }),
    );
    expect(big).toEqual({ ok: true, value: '500 matches' });
    expect(small).toEqual({ ok: true, value: '1 match', structured: { rows: [1] } });
  });

  it('trims the text with the marker and drops structured when the text alone is over the share', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('long', { execute: () => fail('execution_failed', 'e'.repeat(500), { n: 1 }) }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'long', args: { text: '' } }],
      executeContext({ budget: 100 }),
    );
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(result).not.toHaveProperty('structured');
    expect(textOf(result)).toHaveLength(100);
    expect(textOf(result)?.endsWith('[truncated — 500 chars total]')).toBe(true);
  });

  it('does not let a getter that grows after the budget check through', async () => {
    const registry = new DefaultToolRegistry();
    let reads = 0;
    const growing = {
      ok: true as const,
      get value() {
        reads += 1;
        return reads === 1 ? 'short' : 'x'.repeat(5_000_000);
      },
    };
    registry.register(echoTool('sneaky', { execute: () => growing as ToolResult }));
    const [result] = await registry.executeParallel(
      [{ name: 'sneaky', args: { text: '' } }],
      executeContext({ budget: 1_000 }),
    );
    expect(JSON.stringify(result).length).toBeLessThan(1_100);
    expect(textOf(result)).toBe('short');
  });

  it('does not let a Proxy whose structured grows after the check through, even past a reducer', async () => {
    const reducers = new DefaultToolResultReducerRegistry();
    reducers.register({ tool: 'proxy', reduce: (result) => result });
    const registry = new DefaultToolRegistry({ reducers });
    let reads = 0;
    const target = { ok: true, value: 'fine', structured: {} };
    const proxy = new Proxy(target, {
      get(object, key) {
        if (key !== 'structured') return Reflect.get(object, key);
        reads += 1;
        return reads <= 1 ? {} : { blob: 'y'.repeat(2_000_000) };
      },
    });
    registry.register(echoTool('proxy', { execute: async () => proxy as unknown as ToolResult }));
    const [result] = await registry.executeParallel(
      [{ name: 'proxy', args: { text: '' } }],
      executeContext({ budget: 1_000 }),
    );
    expect(JSON.stringify(result).length).toBeLessThan(1_100);
    expect(result).toEqual({ ok: true, value: 'fine', structured: {} });
  });

  it('caps the attachments of a batch by count and by bytes, and says which were dropped', async () => {
    const image = (size: number) => ({
      type: 'image' as const,
      mimeType: 'image/png',
      data: 'A'.repeat(size),
    });
    const byCount = new DefaultToolRegistry({ attachmentLimits: { count: 2 } });
    byCount.register(
      echoTool('shots', {
        execute: () => ok('three shots', { attachments: [1, 2, 3].map(() => image(10)) }),
      }),
    );
    const [counted] = await byCount.executeParallel(
      [{ name: 'shots', args: { text: '' } }],
      executeContext(),
    );
    expect(counted?.ok && counted.attachments).toHaveLength(2);
    expect(textOf(counted)).toContain('1 attachment dropped');

    const byBytes = new DefaultToolRegistry({ attachmentLimits: { bytes: 1_000 } });
    byBytes.register(echoTool('shot', { execute: () => ok('one shot', { attachments: [image(800)] }) }));
    const results = await byBytes.executeParallel(
      [
        { name: 'shot', args: { text: '' } },
        { name: 'shot', args: { text: '' } },
      ],
      executeContext(),
    );
    expect(results[0]).toEqual({ ok: true, value: 'one shot', attachments: [image(800)] });
    expect(results[1]).not.toHaveProperty('attachments');
    expect(textOf(results[1])).toContain('1 attachment dropped');
  });
});

describe('timeouts', () => {
  it('keeps the result of a tool that stops itself at its timeout, output and spill path included', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('command', {
        execute: (_args: unknown, context: ToolContext) =>
          new Promise<ToolResult>((resolve) => {
            // Like a command being killed: the result comes a little after the timeout.
            setTimeout(
              () => resolve(fail('timeout', 'output so far: 1 2 3', { spillFile: '/tmp/spill.log' })),
              (context.timeoutMs ?? 0) + 100,
            );
          }),
      }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'command', args: { text: '' } }],
      executeContext({ timeoutFor: () => 50 }),
    );
    expect(result).toEqual({
      ok: false,
      code: 'timeout',
      error: 'output so far: 1 2 3',
      structured: { spillFile: '/tmp/spill.log' },
    });
  });

  it('aborts the signal of a call at its timeout so that the tool can stop and report', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('polite', {
        execute: (_args: unknown, context: ToolContext) =>
          new Promise<ToolResult>((resolve) =>
            context.signal.addEventListener('abort', () =>
              resolve(fail('timeout', `stopped: ${(context.signal.reason as Error).name}`)),
            ),
          ),
      }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'polite', args: { text: '' } }],
      executeContext({ timeoutFor: () => 20 }),
    );
    expect(result).toEqual({ ok: false, code: 'timeout', error: 'stopped: TimeoutError' });
  });

  it('keeps an MCP tool running past its timeout while it reports progress, up to its maximum', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('mcp__slow__work', {
        mcp: { server: 'slow', originalName: 'work' },
        timeouts: { defaultMs: 50, maxMs: 150 },
        execute: async (_args: unknown, context: ToolContext) => {
          for (let step = 1; step <= 6; step++) {
            await new Promise((resolve) => setTimeout(resolve, 60));
            if (context.signal.aborted) return fail('aborted', 'cancelled');
            context.emit({ type: 'progress', progress: step, total: 6 });
          }
          return ok('done after 6 steps');
        },
      }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'mcp__slow__work', args: { text: '' } }],
      executeContext({ timeoutFor: () => 50 }),
    );
    expect(result).toEqual(ok('done after 6 steps'));
  });

  it('hands the caller every execution so it can wait for tools that outlive their answer', async () => {
    const registry = new DefaultToolRegistry();
    let stopped = false;
    registry.register(
      echoTool('stubborn', {
        execute: () =>
          new Promise<ToolResult>((resolve) =>
            setTimeout(() => {
              stopped = true;
              resolve(ok('stopped at last'));
            }, 100),
          ),
      }),
    );
    const executions: Promise<void>[] = [];
    const controller = new AbortController();
    const pending = registry.executeParallel(
      [{ name: 'stubborn', args: { text: '' } }],
      executeContext({ signal: controller.signal, track: (execution) => executions.push(execution) }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect((await pending)[0]).toMatchObject({ ok: false, code: 'aborted' });
    expect(stopped).toBe(false);
    await Promise.all(executions);
    expect(stopped).toBe(true);
  });
});

describe('alwaysInclude', () => {
  it('shows and runs a built-in marked alwaysInclude that a non-empty allowlist does not name', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('tool_search', { alwaysInclude: true }));
    registry.register(echoTool('terminal'));
    expect(registry.toDefinitions(['read_file']).map((definition) => definition.name)).toEqual([
      'tool_search',
    ]);
    const results = await registry.executeParallel(
      [
        { name: 'tool_search', args: { text: 'found' } },
        { name: 'terminal', args: { text: 'ls' } },
      ],
      executeContext(),
      ['read_file'],
    );
    expect(results[0]).toEqual(ok('found'));
    expect(results[1]).toMatchObject({ ok: false, code: 'not_available' });
  });
});
