import { describe, expect, it } from 'vitest';
import { runBridgeCallWarmUp } from '../src/call-path-warmup.js';

/**
 * The warm-up drops its failures (a real call reports its own), so a change to `callOnce` or the
 * router that broke it would go unseen, and the first real call would compile the path again:
 * it must run the whole path, to the stand-in's answer converted as a real call's would be.
 */
describe('the bridge call path warm-up', () => {
  it('runs two calls through the send, the settling by id and the conversion of the result', async () => {
    const outcomes = await runBridgeCallWarmUp();
    expect(outcomes).toEqual([
      { kind: 'result', result: { ok: true, value: 'warm-up' } },
      { kind: 'result', result: { ok: true, value: 'warm-up' } },
    ]);
  });
});
