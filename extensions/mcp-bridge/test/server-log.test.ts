import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerLogEntry } from '../src/index.js';
import { SERVER_LOG_MESSAGES_PER_SECOND } from '../src/server-log-limit.js';
import { createHarness, eventually, makeTempDir, successText } from './helpers.js';
import { hostileServer } from './hostile-helpers.js';

const MESSAGES = 5_000;

describe("a server's log messages", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('are passed on a few a second, cleaned, with a count of those dropped', async () => {
    const state = await makeTempDir('server-log');
    cleanups.push(state.remove);
    const logs: McpServerLogEntry[] = [];
    const harness = createHarness(
      { hostile: hostileServer(state.path) },
      { onServerLog: (entry) => logs.push(entry) },
    );
    cleanups.push(() => harness.stop());
    await harness.bridge.start();

    const started = Date.now();
    successText((await harness.call('mcp__hostile__flood', { count: 0, logs: MESSAGES })).result);
    const accounted = () =>
      logs.reduce((total, entry) => total + (entry.dropped === undefined ? 1 : entry.dropped), 0);
    await eventually(() => accounted() === MESSAGES, 'every message to be passed on or counted');
    const seconds = (Date.now() - started) / 1_000;

    const passed = logs.filter((entry) => entry.dropped === undefined);
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.length).toBeLessThanOrEqual((Math.ceil(seconds) + 1) * SERVER_LOG_MESSAGES_PER_SECOND);
    expect(passed[0]).toEqual({ server: 'hostile', level: 'error', logger: 'flood', message: 'line 1' });
    const notices = logs.filter((entry) => entry.dropped !== undefined);
    expect(notices[0]?.level).toBe('warning');
    expect(notices[0]?.message).toMatch(/^Quiver dropped \d+ log messages of MCP server "hostile"/);
    for (const entry of logs)
      expect(`${entry.logger ?? ''}${entry.message}`).not.toMatch(/[\u001b\u200b\u{e0000}-\u{e007f}]/u);
  }, 60_000);
});
