import { fail, ok, type ToolContext } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import {
  DefaultToolRegistry,
  DefaultToolResultReducerRegistry,
  splitBudget,
  trimResult,
} from '../src/index.js';
import { echoTool, executeContext } from './support.js';

describe('budget arithmetic', () => {
  it('splits a total evenly, rounding down', () => {
    expect(splitBudget(80_000, 1)).toBe(80_000);
    expect(splitBudget(80_000, 3)).toBe(26_666);
    expect(splitBudget(5, 10)).toBe(0);
  });

  it('returns no results and runs nothing for an empty batch', async () => {
    const registry = new DefaultToolRegistry();
    expect(await registry.executeParallel([], executeContext())).toEqual([]);
  });

  it('gives a single call the whole budget', async () => {
    const registry = new DefaultToolRegistry();
    let budget = 0;
    registry.register(
      echoTool('probe', {
        execute: (_args: unknown, context: ToolContext) => {
          budget = context.budget;
          return ok('');
        },
      }),
    );
    await registry.executeParallel([{ name: 'probe', args: { text: '' } }], executeContext({ budget: 1234 }));
    expect(budget).toBe(1234);
  });

  it('leaves a result that fits its budget exactly untouched', () => {
    const result = ok('x'.repeat(40));
    expect(trimResult(result, 40)).toEqual(result);
  });

  it('cuts a result one char over budget so that it fits, marker included', () => {
    const trimmed = trimResult(ok('x'.repeat(41)), 40);
    expect(trimmed.ok && trimmed.value).toBe('x\n[truncated — 41 chars total]'.padStart(40, 'x'));
    expect(trimmed.ok && trimmed.value.length).toBe(40);
  });

  it('returns the marker cut to the budget when the budget is smaller than the marker', () => {
    expect(trimResult(ok('y'.repeat(500)), 10)).toEqual(ok('[truncated'));
    expect(trimResult(ok('y'.repeat(500)), 0)).toEqual(ok(''));
  });

  it('trims failures too, by their error text', () => {
    const trimmed = trimResult(fail('execution_failed', 'e'.repeat(200)), 60);
    expect(trimmed).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(trimmed.ok === false && trimmed.error.length).toBe(60);
    expect(trimmed.ok === false && trimmed.error.endsWith('[truncated — 200 chars total]')).toBe(true);
  });

  it('never splits a surrogate pair when cutting', () => {
    const trimmed = trimResult(ok('😀'.repeat(100)), 60);
    expect(trimmed.ok && trimmed.value.includes('\uFFFD')).toBe(false);
    expect(trimmed.ok && /^(😀)+\n\[truncated — 200 chars total\]$/u.test(trimmed.value)).toBe(true);
  });

  it('keeps structured data and attachments through a reducer that drops them', async () => {
    const reducers = new DefaultToolResultReducerRegistry();
    reducers.register({
      tool: 'screenshot',
      reduce: (result) => (result.ok ? ok(result.value.slice(0, 50)) : result),
    });
    const registry = new DefaultToolRegistry({ reducers });
    const attachments = [{ type: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' }];
    const structured = { width: 800, height: 600 };
    registry.register(
      echoTool('screenshot', { execute: () => ok('p'.repeat(1000), { structured, attachments }) }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'screenshot', args: { text: '' } }],
      executeContext({ budget: 100 }),
    );
    expect(result).toEqual({ ok: true, value: 'p'.repeat(50), structured, attachments });
  });
});
