import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, everythingServer, type Harness, successText } from './helpers.js';

/** A harness with server-everything on a pipe under these limits, started before the tests of its block. */
function everythingUnderLimits(callTimeoutMs: number, maxCallTimeoutMs: number): () => Harness {
  let harness: Harness;
  beforeAll(async () => {
    harness = createHarness({
      everything: {
        command: process.execPath,
        args: [everythingServer, 'stdio'],
        callTimeoutMs,
        maxCallTimeoutMs,
      },
    });
    await harness.bridge.start();
  });
  afterAll(() => harness.stop());
  return () => harness;
}

describe("the registry's timeout backstop for a bridged MCP tool", () => {
  const current = everythingUnderLimits(1_000, 20_000);

  it('lets a call that reports progress run past its call timeout, as the server settings allow', async () => {
    const tool = current().registry.get('mcp__everything__trigger-long-running-operation')?.tool;
    const { result, emissions } = await current().call(
      'mcp__everything__trigger-long-running-operation',
      { duration: 3, steps: 6 },
      // What the runtime resolves for the call: the server's callTimeoutMs.
      { timeoutMs: tool?.timeouts?.defaultMs },
    );
    expect(successText(result)).toContain('Long running operation completed');
    expect(emissions).toHaveLength(6);
  });

  it('still times out a call that goes quiet for longer than its call timeout', async () => {
    const tool = current().registry.get('mcp__everything__trigger-long-running-operation')?.tool;
    const { result } = await current().call(
      'mcp__everything__trigger-long-running-operation',
      { duration: 4, steps: 2 },
      { timeoutMs: tool?.timeouts?.defaultMs },
    );
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    if (!result.ok) expect(result.error).toContain('did not answer within 1000 ms');
  });
});

describe('the overall limit of a bridged call on a pipe', () => {
  const current = everythingUnderLimits(1_000, 1_500);

  it('ends a call at maxCallTimeoutMs even while it reports progress, and the next call still works', async () => {
    const tool = current().registry.get('mcp__everything__trigger-long-running-operation')?.tool;
    const { result } = await current().call(
      'mcp__everything__trigger-long-running-operation',
      { duration: 4, steps: 8 },
      { timeoutMs: tool?.timeouts?.defaultMs },
    );
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    if (!result.ok) expect(result.error).toContain('did not answer within 1500 ms');
    const { result: next } = await current().call('mcp__everything__echo', { message: 'after' });
    expect(successText(next)).toContain('after');
  });
});
