import { defineTool, ok, quiverEventSchema } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createHarness,
  type Harness,
  nextEvent,
  poolOf,
  removeTempDirs,
} from './fixtures/lifecycle-harness.js';
import { echoTool, failingTool, waitTool } from './fixtures/test-tools.js';

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

const typesOf = (events: { type: string }[]) => events.map((event) => event.type);

describe('call lifecycle events', () => {
  it('reports a successful call as requested, started, partial, progress and completed, in that order', async () => {
    const h = await harness({ tools: [echoTool] });
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hello' } }], { turn: 3 });
    expect(result).toEqual({ ok: true, value: 'hello', structured: { length: 5 } });
    const events = await h.eventsOf('c1');
    expect(typesOf(events)).toEqual([
      'tool.user_requested',
      'tool.execution_start',
      'tool.execution_partial_result',
      'tool.execution_progress',
      'tool.execution_complete',
    ]);
    const start = events[1];
    expect(start).toMatchObject({
      toolName: 'echo',
      arguments: { text: 'hello' },
      turn: 3,
      sessionId: 'session-1',
    });
    expect(events[4]).toMatchObject({
      success: true,
      result: { ok: true, value: 'hello', structured: { length: 5 } },
      turn: 3,
    });
    for (const event of events) expect(quiverEventSchema.safeParse(event).success).toBe(true);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  it('reports a headless ask as requested, permission asked, permission denied and completed without starting', async () => {
    const h = await harness({ tools: [echoTool], permissions: { ask: ['echo'] } });
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(typesOf(await h.eventsOf('c1'))).toEqual([
      'tool.user_requested',
      'permission.requested',
      'permission.completed',
      'tool.execution_complete',
    ]);
  });

  it('reports a tool that returns a failure as started and completed with its error code', async () => {
    const h = await harness({ tools: [failingTool] });
    const [result] = await h.run([{ id: 'c1', name: 'broken', args: {} }]);
    expect(result).toEqual({ ok: false, code: 'execution_failed', error: 'the disk is on fire' });
    const events = await h.eventsOf('c1');
    expect(typesOf(events)).toEqual([
      'tool.user_requested',
      'tool.execution_start',
      'tool.execution_complete',
    ]);
    expect(events[2]).toMatchObject({
      success: false,
      result: { ok: false, code: 'execution_failed', error: 'the disk is on fire' },
    });
  });

  it('reports a call aborted in the middle as started, partial, aborted and completed with code aborted', async () => {
    const h = await harness({ tools: [waitTool] });
    const partial = nextEvent(h.bus, 'tool.execution_partial_result', (event) => event.callId === 'c1');
    const running = h.run([{ id: 'c1', name: 'wait_forever', args: {} }], { turn: 2 });
    await partial;
    h.executor.abort('the user pressed stop', 2);
    const [result] = await running;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    await h.settle();
    const types = h.events
      .filter((event) => !('callId' in event) || event.callId === 'c1')
      .map((event) => event.type);
    expect(types).toEqual([
      'tool.user_requested',
      'tool.execution_start',
      'tool.execution_partial_result',
      'abort',
      'tool.execution_complete',
    ]);
    expect(h.events.find((event) => event.type === 'abort')).toMatchObject({
      reason: 'the user pressed stop',
      turn: 2,
    });
  });

  it('refuses a tool that is not in the pool with the reason assembly removed it', async () => {
    const pool = poolOf([echoTool], {
      terminal: { stage: 'deny_rules', rule: 'terminal', reason: 'denied by the personality' },
    });
    const h = await harness({ tools: [echoTool], pool });
    const [removed, unknown] = await h.run([
      { id: 'c1', name: 'terminal', args: {} },
      { id: 'c2', name: 'nonexistent', args: {} },
    ]);
    expect(removed).toMatchObject({ ok: false, code: 'not_available' });
    expect(removed?.ok === false && removed.error).toContain(
      'terminal is not available in this session: denied by the personality',
    );
    expect(unknown).toMatchObject({ ok: false, code: 'not_available' });
    expect(typesOf(await h.eventsOf('c1'))).toEqual(['tool.user_requested', 'tool.execution_complete']);
  });

  it('closes calls whose arguments are invalid with a completion event', async () => {
    const h = await harness({ tools: [echoTool] });
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 42 } }]);
    expect(result).toMatchObject({ ok: false, code: 'input_invalid' });
    const events = await h.eventsOf('c1');
    expect(typesOf(events)).toEqual(['tool.user_requested', 'tool.execution_complete']);
    expect(events[1]).toMatchObject({ success: false, result: { code: 'input_invalid' } });
  });

  it('resolves an alias the model uses to the pool tool it names', async () => {
    const h = await harness({ tools: [echoTool] });
    const [result] = await h.run([{ id: 'c1', name: 'Echo', args: { text: 'aliased' } }]);
    expect(result).toMatchObject({ ok: true, value: 'aliased' });
    expect((await h.eventsOf('c1'))[0]).toMatchObject({ type: 'tool.user_requested', toolName: 'echo' });
  });

  it('returns results in input order and gives calls without an id one of their own', async () => {
    const h = await harness({ tools: [echoTool, failingTool] });
    const results = await h.run([
      { name: 'broken', args: {} },
      { name: 'echo', args: { text: 'second' } },
    ]);
    expect(results.map((result) => result.ok)).toEqual([false, true]);
    await h.settle();
    const completions = h.events.filter((event) => event.type === 'tool.execution_complete');
    expect(completions).toHaveLength(2);
    expect(new Set(completions.map((event) => ('callId' in event ? event.callId : ''))).size).toBe(2);
  });

  it('runs an external tool from the session, and an overriding external tool instead of the built-in', async () => {
    const external = defineTool({
      name: 'echo',
      description: 'The client’s own echo.',
      input: z.object({ text: z.string() }),
      capabilities: {},
      execute: ({ text }) => ok(`client says ${text}`),
    });
    const calculator = defineTool({
      name: 'client_calculator',
      description: 'Adds numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      capabilities: {},
      execute: ({ a, b }) => ok(String(a + b)),
    });
    const pool = poolOf([
      { tool: external, source: 'external' },
      { tool: calculator, source: 'external' },
    ]);
    const h = await harness({ tools: [echoTool], pool });
    const results = await h.run([
      { id: 'c1', name: 'echo', args: { text: 'hi' } },
      { id: 'c2', name: 'client_calculator', args: { a: 2, b: 3 } },
    ]);
    expect(results).toEqual([
      { ok: true, value: 'client says hi' },
      { ok: true, value: '5' },
    ]);
  });

  it('splits the batch budget between calls so the model never gets more than the total', async () => {
    const big = defineTool({
      name: 'big',
      description: 'Returns a lot.',
      input: z.object({}),
      capabilities: {},
      execute: () => ok('x'.repeat(5_000)),
    });
    const h = await harness({ tools: [big], resultChars: 2_000 });
    const results = await h.run([
      { name: 'big', args: {} },
      { name: 'big', args: {} },
    ]);
    const total = results.reduce((sum, result) => sum + (result.ok ? result.value.length : 0), 0);
    expect(total).toBeLessThanOrEqual(2_000);
    expect(total).toBeGreaterThan(0);
  });

  it('names the MCP server in the start event and reports the progress a tool emits', async () => {
    const issues = defineTool({
      name: 'mcp__github__list_issues',
      description: 'Lists issues.',
      input: z.object({}),
      capabilities: {},
      mcp: { server: 'github', originalName: 'list_issues' },
      execute: (_args, ctx) => {
        ctx.emit({ type: 'progress', progress: 3, total: 10, message: 'page 3 of 10' });
        return ok('[]');
      },
    });
    const h = await harness({
      tools: [issues],
      pool: poolOf([{ tool: issues, source: 'mcp', mcpServer: 'github' }]),
    });
    await h.run([{ id: 'c1', name: 'mcp__github__list_issues', args: {} }]);
    const events = await h.eventsOf('c1');
    expect(events.find((event) => event.type === 'tool.execution_start')).toMatchObject({
      mcpServer: 'github',
    });
    expect(events.find((event) => event.type === 'tool.execution_progress')).toMatchObject({
      progress: 3,
      total: 10,
      message: 'page 3 of 10',
    });
  });

  it('does not run the tool in a dry run but still closes the call', async () => {
    let ran = false;
    const sideEffect = defineTool({
      name: 'side_effect',
      description: 'Flips a flag.',
      input: z.object({}),
      capabilities: {},
      execute: () => {
        ran = true;
        return ok('flipped');
      },
    });
    const h = await harness({ tools: [sideEffect] });
    const [result] = await h.run([{ id: 'c1', name: 'side_effect', args: {} }], { dryRun: true });
    expect(ran).toBe(false);
    expect(result).toMatchObject({ ok: true });
    expect(typesOf(await h.eventsOf('c1'))).toEqual(['tool.user_requested', 'tool.execution_complete']);
  });
});
