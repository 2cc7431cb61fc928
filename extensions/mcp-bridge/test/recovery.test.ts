import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHarness,
  eventually,
  fixtureServer,
  type Harness,
  makeTempDir,
  successText,
} from './helpers.js';

async function lines(path: string): Promise<string[]> {
  try {
    return (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

describe('recovery of a fixture server that crashes, hangs and changes its tools', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startFixture(
    env: Record<string, string> = {},
    extra: Record<string, unknown> = {},
    options: Parameters<typeof createHarness>[1] = {},
  ) {
    const state = await makeTempDir('fixture');
    cleanups.push(state.remove);
    const harness: Harness = createHarness(
      {
        fixture: {
          command: process.execPath,
          args: [fixtureServer],
          env: { FIXTURE_STATE_DIR: state.path, ...env },
          ...extra,
        },
      },
      options,
    );
    cleanups.push(harness.stop);
    await harness.bridge.start();
    return { harness, state: state.path };
  }

  // A slow first reconnection leaves time to observe the server while it is down.
  const slowReconnect = { reconnect: { initialDelayMs: 1_000, maxDelayMs: 1_000 } };

  it('skips lines of a server that are no JSON-RPC message and goes on answering over the same connection', async () => {
    const { harness, state } = await startFixture();
    const junk = await harness.call('mcp__fixture__junk_lines', {});
    expect(successText(junk.result)).toBe('answered after the junk');
    const echoed = await harness.call('mcp__fixture__echo', { text: 'still here' });
    expect(successText(echoed.result)).toBe('still here');
    expect(harness.bridge.status()[0]?.state).toBe('connected');
    expect(await lines(join(state, 'starts.log'))).toHaveLength(1);
  });

  it('keeps the tools of a crashed server listed, answers not_available, then works again after reconnecting', async () => {
    const { harness, state } = await startFixture({}, {}, slowReconnect);
    const before = harness.toolNames();
    expect(before).toContain('mcp__fixture__echo');

    const crashed = await harness.call('mcp__fixture__crash', {});
    expect(crashed.result).toMatchObject({ ok: false, code: 'execution_failed' });
    await eventually(() => harness.bridge.status()[0]?.state === 'down', 'the server to be seen down');

    const whileDown = await harness.call('mcp__fixture__echo', { text: 'anyone?' });
    expect(whileDown.result).toMatchObject({ ok: false, code: 'not_available' });
    if (!whileDown.result.ok) {
      expect(whileDown.result.error).toMatch(
        /^MCP server "fixture" is down: .+; reconnecting \(attempt 1\)…$/,
      );
    }
    expect(harness.toolNames()).toEqual(before);

    await eventually(() => harness.bridge.status()[0]?.state === 'connected', 'the server to reconnect');
    const again = await harness.call('mcp__fixture__echo', { text: 'back again' });
    expect(successText(again.result)).toBe('back again');
    expect(await lines(join(state, 'starts.log'))).toHaveLength(2);
    expect(harness.diagnostics.map((diagnostic) => diagnostic.code)).toContain('mcp_server_down');
  });

  it('reports the last stderr line of a crashed server as the reason it is down', async () => {
    const { harness } = await startFixture({}, {}, slowReconnect);
    await harness.call('mcp__fixture__crash', {});
    const down = await eventually(() => {
      const status = harness.bridge.status()[0];
      return status?.state === 'down' ? status : undefined;
    }, 'the server to be seen down');
    expect(down.lastError).toMatch(/fixture: crashing on request/);
    const { result } = await harness.call('mcp__fixture__echo', { text: 'x' });
    expect(result.ok ? '' : result.error).toContain('fixture: crashing on request');
  });

  it('fails a non-idempotent call in flight when the server dies and never runs it twice', async () => {
    const { harness, state } = await startFixture({}, { trustAnnotations: true });
    const { result } = await harness.call('mcp__fixture__count', { crashAfterMs: 100 });
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!result.ok) {
      expect(result.error).toBe(
        'the MCP server "fixture" exited while the call was running; it was not retried because the tool is not annotated idempotent',
      );
    }
    await eventually(() => harness.bridge.status()[0]?.state === 'connected', 'the server to reconnect');
    const { result: count } = await harness.call('mcp__fixture__read_count', {});
    expect(successText(count)).toBe('1');
    expect(await lines(join(state, 'starts.log'))).toHaveLength(2);
  });

  it('retries an idempotent call once after the server came back, when its annotations are trusted', async () => {
    const { harness, state } = await startFixture({}, { trustAnnotations: true });
    const { result } = await harness.call('mcp__fixture__flaky_lookup', { key: 'answer' });
    expect(successText(result)).toBe('value of answer');
    expect(await lines(join(state, 'flaky.log'))).toHaveLength(2);
  });

  it('never retries a call whose tool only claims to be idempotent, when the server is not trusted', async () => {
    const { harness, state } = await startFixture();
    const { result } = await harness.call('mcp__fixture__flaky_lookup', { key: 'answer' });
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!result.ok) expect(result.error).toContain('mcpServers.fixture.trustAnnotations');
    expect(await lines(join(state, 'flaky.log'))).toHaveLength(1);
  });

  it('sends notifications/cancelled to the server when a call is aborted', async () => {
    const { harness, state } = await startFixture();
    const controller = new AbortController();
    const pending = harness.call('mcp__fixture__hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const { result } = await pending;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    const cancelled = await eventuallyAsync(
      () => lines(join(state, 'cancelled.log')),
      (found) => found.length === 1,
    );
    expect(cancelled).toHaveLength(1);
  });

  it('times a hanging call out with the configured call timeout and cancels it on the server', async () => {
    const { harness, state } = await startFixture({}, { callTimeoutMs: 300 });
    expect(harness.registry.get('mcp__fixture__hang')?.tool.timeouts).toEqual({
      defaultMs: 300,
      maxMs: 600_000,
    });
    const { result } = await harness.call('mcp__fixture__hang', {});
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    if (!result.ok) expect(result.error).toContain('300 ms');
    const cancelled = await eventuallyAsync(
      () => lines(join(state, 'cancelled.log')),
      (found) => found.length === 1,
    );
    expect(cancelled).toHaveLength(1);
  });

  it('passes progress notifications on with their messages, the first and the last always', async () => {
    const { harness } = await startFixture();
    const { result, emissions } = await harness.call('mcp__fixture__steps', { steps: 3 });
    expect(successText(result)).toBe('done after 3 steps');
    expect(emissions[0]).toEqual({ type: 'progress', progress: 1, total: 3, message: 'step 1' });
    expect(emissions.at(-1)).toEqual({ type: 'progress', progress: 3, total: 3, message: 'step 3' });
  });

  it('updates the registered tools when the server announces tools/list_changed', async () => {
    const { harness } = await startFixture();
    expect(harness.toolNames()).not.toContain('mcp__fixture__fresh_tool');
    await harness.call('mcp__fixture__add_tool', { name: 'fresh_tool' });
    await eventually(
      () => harness.toolNames().includes('mcp__fixture__fresh_tool'),
      'the new tool to be registered',
    );
    const { result } = await harness.call('mcp__fixture__fresh_tool', {});
    expect(successText(result)).toBe('I am fresh_tool');

    await harness.call('mcp__fixture__remove_tool', { name: 'fresh_tool' });
    await eventually(
      () => !harness.toolNames().includes('mcp__fixture__fresh_tool'),
      'the tool to be unregistered',
    );
    expect(harness.changes).toEqual(
      expect.arrayContaining([
        { server: 'fixture', added: ['mcp__fixture__fresh_tool'], removed: [] },
        { server: 'fixture', added: [], removed: ['mcp__fixture__fresh_tool'] },
      ]),
    );
  });

  it('follows nextCursor through every page of tools/list', async () => {
    const { harness, state } = await startFixture({ FIXTURE_PAGE_SIZE: '4', FIXTURE_EXTRA_TOOLS: '25' });
    const names = harness.toolNames();
    expect(names).toContain('mcp__fixture__echo');
    expect(names).toContain('mcp__fixture__extra_024');
    expect(names.filter((name) => name.startsWith('mcp__fixture__extra_'))).toHaveLength(25);
    expect((await lines(join(state, 'list.log'))).length).toBeGreaterThan(5);
  });

  it('skips a tool whose input schema is not an object schema and says so', async () => {
    const { harness } = await startFixture({ FIXTURE_BAD_SCHEMA: '1' });
    expect(harness.toolNames()).toContain('mcp__fixture__echo');
    expect(harness.toolNames()).not.toContain('mcp__fixture__string_input');
    expect(harness.diagnostics).toContainEqual(
      expect.objectContaining({
        server: 'fixture',
        code: 'mcp_tool_skipped',
        message: expect.stringContaining('string_input'),
      }),
    );
  });

  it('registers only the included tools minus the excluded ones, by original name with globs', async () => {
    const { harness } = await startFixture(
      {},
      { includeTools: ['e*', 'count', 'read_*'], excludeTools: ['env'] },
    );
    expect(harness.toolNames()).toEqual([
      'mcp__fixture__count',
      'mcp__fixture__echo',
      'mcp__fixture__read_count',
    ]);
  });

  it('does not let a server that hangs at connect delay or break another server', async () => {
    const hangingState = await makeTempDir('hanging');
    const goodState = await makeTempDir('good');
    cleanups.push(hangingState.remove, goodState.remove);
    const harness = createHarness({
      hanging: {
        command: process.execPath,
        args: [fixtureServer],
        env: { FIXTURE_STATE_DIR: hangingState.path, FIXTURE_HANG_AT_CONNECT: '1' },
        connectTimeoutMs: 1_500,
      },
      good: { command: process.execPath, args: [fixtureServer], env: { FIXTURE_STATE_DIR: goodState.path } },
    });
    cleanups.push(harness.stop);
    let goodToolsWhileHanging: string[] = [];
    const watcher = eventually(
      () => harness.toolNames().includes('mcp__good__echo'),
      'the good server tools',
    ).then(() => {
      goodToolsWhileHanging = harness.toolNames();
      return harness.bridge.status().find((status) => status.server === 'hanging')?.state;
    });
    await harness.bridge.start();
    expect(await watcher).toBe('connecting');
    expect(goodToolsWhileHanging.filter((name) => name.startsWith('mcp__hanging__'))).toEqual([]);
    const statuses = Object.fromEntries(harness.bridge.status().map((status) => [status.server, status]));
    expect(statuses.good?.state).toBe('connected');
    expect(statuses.hanging?.state).not.toBe('connected');
    expect(statuses.hanging?.lastError).toMatch(/initialize within 1500 ms/);
    expect(harness.diagnostics).toContainEqual(
      expect.objectContaining({ server: 'hanging', code: 'mcp_connect_failed' }),
    );
    const { result } = await harness.call('mcp__good__echo', { text: 'unaffected' });
    expect(successText(result)).toBe('unaffected');
  });

  it('reports a server whose command does not exist without throwing', async () => {
    const harness = createHarness({ missing: { command: '/nonexistent/quiver-mcp-server' } });
    cleanups.push(harness.stop);
    await harness.bridge.start();
    expect(harness.bridge.status()[0]).toMatchObject({ server: 'missing', state: 'down' });
    expect(harness.diagnostics[0]).toMatchObject({ server: 'missing', code: 'mcp_connect_failed' });
  });

  it('kills the server process and unregisters its tools on stop', async () => {
    const { harness, state } = await startFixture();
    const [pid] = await lines(join(state, 'starts.log'));
    await harness.stop();
    expect(harness.toolNames()).toEqual([]);
    expect(harness.bridge.status()[0]?.state).toBe('stopped');
    expect(() => process.kill(Number(pid), 0)).toThrow();
  });
});

async function eventuallyAsync<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  limitMs = 5_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > limitMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
