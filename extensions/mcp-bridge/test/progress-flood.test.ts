import { afterEach, describe, expect, it } from 'vitest';
import { PROGRESS_EMISSIONS_PER_SECOND } from '../src/progress-throttle.js';
import { createHarness, type Harness, makeTempDir, successText } from './helpers.js';
import { hostileServer } from './hostile-helpers.js';

describe('a server flooding a call', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startHostile(): Promise<Harness> {
    const state = await makeTempDir('hostile-flood');
    cleanups.push(state.remove);
    const harness = createHarness({ hostile: hostileServer(state.path) });
    cleanups.push(() => harness.stop());
    await harness.bridge.start();
    return harness;
  }

  it('passes on at most a few progress updates a second, ending with the latest value', async () => {
    const harness = await startHostile();
    const started = Date.now();
    const { result, emissions } = await harness.call('mcp__hostile__flood', { count: 5_000 });
    const seconds = (Date.now() - started) / 1_000;
    const sent = successText(result);
    expect(sent).toMatch(/^sent 5000 in/);
    expect(emissions.length).toBeGreaterThanOrEqual(2);
    expect(emissions.length).toBeLessThanOrEqual(Math.ceil(seconds * PROGRESS_EMISSIONS_PER_SECOND) + 2);
    expect(emissions.at(-1)).toEqual({ type: 'progress', progress: 5_000, total: 5_000, message: undefined });
  });

  it('reports a result too large to read as oversized, not as a crash of the server', async () => {
    const harness = await startHostile();
    const { result } = await harness.call('mcp__hostile__huge', { megabytes: 11 });
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!result.ok) {
      expect(result.error).toContain('was too large for Quiver to read');
      expect(result.error).not.toContain('exited');
    }
  });
});
