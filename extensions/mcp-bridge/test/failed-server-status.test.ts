import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, eventually, type Harness, makeTempDir } from './helpers.js';

describe('a server that failed and is being tried again', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps how its process ended and its last stderr lines in its status while the retry connects', async () => {
    const state = await makeTempDir('retry');
    cleanups.push(state.remove);
    const mark = join(state.path, 'started-once');
    // The first start fails the way a broken server does; every later start hangs before
    // answering, so the retry stays in `connecting` for as long as the test looks.
    const script = `if [ -e "${mark}" ]; then exec sleep 30; fi; : > "${mark}"; echo starting up >&2; echo cannot open the database >&2; exit 3`;
    const harness: Harness = createHarness(
      { broken: { command: 'sh', args: ['-c', script], connectTimeoutMs: 20_000 } },
      { reconnect: { initialDelayMs: 1, maxDelayMs: 1 } },
    );
    cleanups.push(harness.stop);
    await harness.bridge.start();
    const retrying = await eventually(() => {
      const status = harness.bridge.status()[0];
      return status?.state === 'connecting' && status.attempt > 0 ? status : undefined;
    }, 'the retry after the first failure');
    expect(retrying.lastError).toContain('its process exited with code 3');
    expect(retrying.exit).toEqual({ code: 3, signal: null });
    expect(retrying.stderrTail).toEqual(['starting up', 'cannot open the database']);
  });
});
