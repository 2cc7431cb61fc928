import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, fixtureServer, type Harness, makeTempDir } from './helpers.js';

/**
 * A call to a server on a pipe goes out without the SDK's `callTool` (its per-call work is most of
 * the cost of a local call), and learns of an abort through `ctx.onAbort` instead of an
 * AbortSignal per call. What `callTool` checked must still be checked, and aborts still cancel.
 */

async function lines(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function baseContext() {
  return {
    callId: 'direct-1',
    sessionId: 'direct',
    personalityId: 'test',
    agent: { kind: 'main' as const, id: 'main' },
    turn: 1,
    emit: () => {},
    budget: 10_000,
    dryRun: false,
    capabilities: {},
    attachments: [],
    session: { get: () => undefined, set: () => {}, delete: () => {} },
  };
}

/** A context with `onAbort` and a `signal` that must not be read. */
function contextWithoutSignal(onAbort: NonNullable<ToolContext['onAbort']>): ToolContext {
  return Object.defineProperty({ ...baseContext(), onAbort }, 'signal', {
    get(): AbortSignal {
      throw new Error('the bridge read ctx.signal although ctx.onAbort was there');
    },
    enumerable: true,
  }) as unknown as ToolContext;
}

describe('bridged calls to a server on a pipe', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startFixture(): Promise<{ harness: Harness; state: string }> {
    const state = await makeTempDir('direct');
    cleanups.push(state.remove);
    const harness = createHarness({
      fixture: { command: process.execPath, args: [fixtureServer], env: { FIXTURE_STATE_DIR: state.path } },
    });
    cleanups.push(harness.stop);
    await harness.bridge.start();
    return { harness, state: state.path };
  }

  it('checks structured content against the tool’s outputSchema as the SDK client would', async () => {
    const { harness } = await startFixture();
    const good = await harness.call('mcp__fixture__measure', { shape: 'good' });
    expect(good.result).toMatchObject({ ok: true, value: 'length 3', structured: { length: 3 } });

    const bad = await harness.call('mcp__fixture__measure', { shape: 'bad' });
    expect(bad.result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!bad.result.ok) {
      expect(bad.result.error).toContain("breaks the tool's own outputSchema");
      expect(bad.result.error).toContain('length');
    }

    const none = await harness.call('mcp__fixture__measure', { shape: 'none' });
    expect(none.result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!none.result.ok) expect(none.result.error).toContain('did not return structured content');

    // A tool error carries no structure, and is the tool's own answer, not a broken schema.
    const failed = await harness.call('mcp__fixture__measure', { shape: 'error' });
    expect(failed.result).toMatchObject({ ok: false, code: 'execution_failed', error: 'could not measure' });
  });

  it('cancels a running call through onAbort without ever reading ctx.signal', async () => {
    const { harness, state } = await startFixture();
    const tool = harness.registry.get('mcp__fixture__hang')?.tool;
    if (tool === undefined) throw new Error('mcp__fixture__hang is not registered');
    const listeners = new Set<(reason: unknown) => void>();
    const ctx = contextWithoutSignal((listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    });
    const pending = tool.execute({}, ctx);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listeners.size).toBe(1);
    for (const listener of listeners) listener(new Error('the person pressed stop'));
    const result = await pending;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    const cancelled = await until(
      () => lines(join(state, 'cancelled.log')),
      (found) => found.length === 1,
    );
    expect(cancelled).toHaveLength(1);
    // The listener is dropped once the call has settled.
    expect(listeners.size).toBe(0);
  });

  it('sends nothing for a call aborted before it went out', async () => {
    const { harness, state } = await startFixture();
    const tool = harness.registry.get('mcp__fixture__count')?.tool;
    if (tool === undefined) throw new Error('mcp__fixture__count is not registered');
    // onAbort tells at once when the call already was aborted.
    const ctx = contextWithoutSignal((listener) => {
      listener(new Error('aborted before it started'));
      return () => {};
    });
    const result = await tool.execute({}, ctx);
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    const counted = await harness.call('mcp__fixture__read_count', {});
    // The aborted call never reached the server: the counter was not moved.
    expect(counted.result).toMatchObject({ ok: true, value: '0' });
    expect(await lines(join(state, 'cancelled.log'))).toEqual([]);
  });

  it('still cancels through ctx.signal for a caller that gives no onAbort', async () => {
    const { harness, state } = await startFixture();
    const tool = harness.registry.get('mcp__fixture__hang')?.tool;
    if (tool === undefined) throw new Error('mcp__fixture__hang is not registered');
    const controller = new AbortController();
    const ctx: ToolContext = { ...baseContext(), signal: controller.signal };
    const pending = tool.execute({}, ctx);
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject({ ok: false, code: 'aborted' });
    const cancelled = await until(
      () => lines(join(state, 'cancelled.log')),
      (found) => found.length === 1,
    );
    expect(cancelled).toHaveLength(1);
  });
});
