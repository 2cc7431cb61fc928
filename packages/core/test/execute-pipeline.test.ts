import { fail, ok, type ToolContext, type ToolEmission, type ToolResult } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry, InMemorySessionState } from '../src/index.js';
import { echoTool, executeContext, MapBackends, until } from './support.js';

const ctx = executeContext();

describe('executeParallel, step by step', () => {
  it('splits the total budget evenly between the calls of a batch (1)', async () => {
    const registry = new DefaultToolRegistry();
    const seen: number[] = [];
    registry.register(
      echoTool('probe', {
        execute: (_args: unknown, context: ToolContext) => {
          seen.push(context.budget);
          return ok('');
        },
      }),
    );
    const calls = [1, 2, 3].map(() => ({ name: 'probe', args: { text: '' } }));
    await registry.executeParallel(calls, ctx);
    expect(seen).toEqual([26_666, 26_666, 26_666]);
    seen.length = 0;
    await registry.executeParallel(calls, executeContext({ budget: 100 }));
    expect(seen).toEqual([33, 33, 33]);
  });

  it('answers an unknown tool name with not_available (2)', async () => {
    const registry = new DefaultToolRegistry();
    expect(await registry.executeParallel([{ name: 'nope', args: {} }], ctx)).toEqual([
      { ok: false, code: 'not_available', error: 'Unknown tool: nope' },
    ]);
  });

  it('refuses a built-in outside a non-empty allowlist and lets MCP and plugin tools through their own gates (3)', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('builtin'));
    registry.register(
      echoTool('mcp__github__issues', { mcp: { server: 'github', originalName: 'issues' } }),
      { pluginId: 'mcp-bridge' },
    );
    registry.register(echoTool('board'), { pluginId: 'kanban' });
    const calls = ['builtin', 'mcp__github__issues', 'board'].map((name) => ({ name, args: { text: name } }));

    const open = await registry.executeParallel(calls, ctx, ['other']);
    expect(open[0]).toMatchObject({ ok: false, code: 'not_available' });
    expect(open[0]?.ok === false && open[0].error).toContain('allowed tools');
    expect(open.slice(1)).toEqual([ok('mcp__github__issues'), ok('board')]);

    expect(await registry.executeParallel(calls, ctx, [])).toEqual([
      ok('builtin'),
      ok('mcp__github__issues'),
      ok('board'),
    ]);

    const gated = await registry.executeParallel(calls, ctx, ['builtin'], {
      allowedMcpServers: ['slack'],
      allowedPlugins: ['memory'],
    });
    expect(gated[0]).toEqual(ok('builtin'));
    expect(gated[1]).toMatchObject({
      ok: false,
      code: 'not_available',
      error: expect.stringContaining('MCP server "github"'),
    });
    expect(gated[2]).toMatchObject({
      ok: false,
      code: 'not_available',
      error: expect.stringContaining('plugin "kanban"'),
    });
  });

  it('reports an unavailable tool with its reason and does not run it (4)', async () => {
    const registry = new DefaultToolRegistry();
    let ran = false;
    const run = () => {
      ran = true;
      return ok('ran');
    };
    registry.register(echoTool('offline', { isAvailable: () => false, execute: run }));
    registry.register(
      echoTool('no_git', {
        isAvailable: () => ({ available: false, reason: 'git is not installed' }),
        execute: run,
      }),
    );
    const [offline, noGit] = await registry.executeParallel(
      [
        { name: 'offline', args: { text: '' } },
        { name: 'no_git', args: { text: '' } },
      ],
      ctx,
    );
    expect(offline).toEqual(fail('not_available', 'Tool "offline" is not available'));
    expect(noGit).toEqual(fail('not_available', 'Tool "no_git" is not available: git is not installed'));
    expect(ran).toBe(false);
  });

  it('fails closed when a declared capability has no backend (5)', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('fetcher', { capabilities: { network: true, process: true } }));
    const call = [{ name: 'fetcher', args: { text: '' } }];
    const withoutBackends = await registry.executeParallel(call, ctx);
    expect(withoutBackends[0]).toMatchObject({
      code: 'not_available',
      error: expect.stringContaining('"network"'),
    });
    const withNetworkOnly = await registry.executeParallel(
      call,
      executeContext({ backends: new MapBackends({ network: { fetch } }) }),
    );
    expect(withNetworkOnly[0]).toMatchObject({
      code: 'not_available',
      error: expect.stringContaining('"process"'),
    });
  });

  it('lists every schema issue with its path, the root as (root) (6)', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('edit', { input: z.object({ path: z.string(), range: z.object({ start: z.number() }) }) }),
    );
    const [nested, root] = await registry.executeParallel(
      [
        { name: 'edit', args: { path: 3, range: { start: 'x' } } },
        { name: 'edit', args: 'not an object' },
      ],
      ctx,
    );
    expect(nested).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(nested?.ok === false && nested.error).toMatch(
      /path: .*expected string.*; range\.start: .*expected number/,
    );
    expect(root?.ok === false && root.error).toMatch(/\(root\): .*expected object/);
  });

  it('gives the tool the parsed arguments, defaults applied (6)', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('repeat', {
        input: z.object({ text: z.string(), times: z.number().default(2) }),
        execute: (args: { text: string; times: number }) => ok(args.text.repeat(args.times)),
      }),
    );
    expect(await registry.executeParallel([{ name: 'repeat', args: { text: 'ab' } }], ctx)).toEqual([
      ok('abab'),
    ]);
  });

  it('describes a dry run without running the tool (7)', async () => {
    const registry = new DefaultToolRegistry();
    let ran = false;
    registry.register(
      echoTool('rm', {
        execute: () => {
          ran = true;
          return ok('gone');
        },
      }),
    );
    const [result] = await registry.executeParallel(
      [{ name: 'rm', args: { text: 'all' } }],
      executeContext({ dryRun: true }),
    );
    expect(result).toEqual(ok('[dry run] rm would run with {"text":"all"}'));
    expect(ran).toBe(false);
  });

  it("caps the call's budget at the tool's maxResultChars (8)", async () => {
    const registry = new DefaultToolRegistry();
    let budget = -1;
    registry.register(
      echoTool('small', {
        maxResultChars: 50,
        execute: (_args: unknown, context: ToolContext) => {
          budget = context.budget;
          return ok('y'.repeat(500));
        },
      }),
    );
    const [result] = await registry.executeParallel([{ name: 'small', args: { text: '' } }], ctx);
    expect(budget).toBe(50);
    expect(result?.ok && result.value.length).toBe(50);
  });

  it('injects capability handles from the backends, and reports a failing backend as not_available (9)', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('reader', {
        capabilities: { fs_reach: { mode: 'read' } },
        execute: (_args: unknown, context: ToolContext) =>
          ok(context.capabilities.fs_reach?.roots.join(',') ?? 'none'),
      }),
      { pluginId: 'code' },
    );
    const backends = new MapBackends({ fs_reach: { roots: ['/work'], mode: 'read' } });
    expect(
      await registry.executeParallel([{ name: 'reader', args: { text: '' } }], executeContext({ backends })),
    ).toEqual([ok('/work')]);
    expect(backends.requests).toEqual([
      {
        capability: 'fs_reach',
        declaration: { mode: 'read' },
        toolName: 'reader',
        pluginId: 'code',
        sessionId: 'session-1',
        personalityId: 'default',
        agentId: 'agent-1',
      },
    ]);
    const broken = new MapBackends({
      fs_reach: () => {
        throw new Error('no workspace');
      },
    });
    const [result] = await registry.executeParallel(
      [{ name: 'reader', args: { text: '' } }],
      executeContext({ backends: broken }),
    );
    expect(result).toMatchObject({
      ok: false,
      code: 'not_available',
      error: expect.stringContaining('no workspace'),
    });
  });

  it('runs the tool with its call id, the session, emissions routed by call id, and the turn attachments (10)', async () => {
    const registry = new DefaultToolRegistry();
    const contexts: ToolContext[] = [];
    registry.register(
      echoTool('probe', {
        execute: (_args: unknown, context: ToolContext) => {
          contexts.push(context);
          context.emit({ type: 'progress', progress: 1, total: 2 });
          context.session.set('visits', (context.session.get<number>('visits') ?? 0) + 1);
          return ok('');
        },
      }),
    );
    const emitted: Array<[string, ToolEmission]> = [];
    const session = new InMemorySessionState();
    const attachment = { type: 'image' as const, mimeType: 'image/png', data: 'AAAA' };
    await registry.executeParallel(
      [
        { id: 'given', name: 'probe', args: { text: '' } },
        { name: 'probe', args: { text: '' } },
      ],
      executeContext({ session, emit: (callId, emission) => emitted.push([callId, emission]) }),
      undefined,
      undefined,
      [attachment],
    );
    expect(contexts[0]?.callId).toBe('given');
    expect(contexts[1]?.callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(emitted.map(([callId]) => callId)).toEqual([contexts[0]?.callId, contexts[1]?.callId]);
    expect(session.get('visits')).toBe(2);
    expect(contexts[0]?.attachments).toEqual([attachment]);
    expect(contexts[0]?.signal).not.toBe(contexts[1]?.signal);
  });

  it('gives calls without a caller session a shared fresh session, and no attachments (10)', async () => {
    const registry = new DefaultToolRegistry();
    const contexts: ToolContext[] = [];
    registry.register(
      echoTool('probe', {
        execute: (_args: unknown, context: ToolContext) => {
          contexts.push(context);
          return ok('');
        },
      }),
    );
    await registry.executeParallel(
      [
        { name: 'probe', args: { text: '' } },
        { name: 'probe', args: { text: '' } },
      ],
      ctx,
    );
    expect(contexts[0]?.session).toBeInstanceOf(InMemorySessionState);
    expect(contexts[0]?.session).toBe(contexts[1]?.session);
    expect(contexts[0]?.attachments).toEqual([]);
  });

  it('applies the reducer registered for the exact tool name (11)', async () => {
    const reducers = new DefaultToolResultReducerRegistry();
    reducers.register({
      tool: 'log',
      reduce: (result) => (result.ok ? ok(result.value.split('\n').slice(-1).join('')) : result),
    });
    const registry = new DefaultToolRegistry({ reducers });
    registry.register(echoTool('log'));
    registry.register(echoTool('log_raw'));
    const results = await registry.executeParallel(
      [
        { name: 'log', args: { text: 'a\nb\nlast' } },
        { name: 'log_raw', args: { text: 'a\nb\nlast' } },
      ],
      ctx,
    );
    expect(results).toEqual([ok('last'), ok('a\nb\nlast')]);
  });

  it('cuts an oversized result to its budget with a marker naming the original length (12)', async () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('echo'));
    const [result] = await registry.executeParallel(
      [{ name: 'echo', args: { text: 'z'.repeat(1000) } }],
      executeContext({ budget: 100 }),
    );
    expect(result?.ok && result.value.length).toBe(100);
    expect(result?.ok && result.value.endsWith('[truncated — 1000 chars total]')).toBe(true);
  });
});

describe('executeParallel as a batch', () => {
  it('returns results in input order even when later calls finish first', async () => {
    const registry = new DefaultToolRegistry();
    const gates = new Map<string, () => void>();
    registry.register(
      echoTool('wait', {
        execute: (args: { text: string }) =>
          new Promise<ToolResult>((resolve) => gates.set(args.text, () => resolve(ok(args.text)))),
      }),
    );
    const pending = registry.executeParallel(
      ['first', 'second', 'third'].map((text) => ({ name: 'wait', args: { text } })),
      ctx,
    );
    await until(() => gates.size === 3);
    for (const text of ['third', 'second', 'first']) gates.get(text)?.();
    expect(await pending).toEqual([ok('first'), ok('second'), ok('third')]);
  });

  it('runs calls concurrently: two calls that each wait for the other both finish', async () => {
    const registry = new DefaultToolRegistry();
    const arrived = new Set<string>();
    let release: () => void = () => {};
    const bothArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    registry.register(
      echoTool('rendezvous', {
        execute: async (args: { text: string }) => {
          arrived.add(args.text);
          if (arrived.size === 2) release();
          await bothArrived;
          return ok(`${args.text} met the other`);
        },
      }),
    );
    const results = await registry.executeParallel(
      [
        { name: 'rendezvous', args: { text: 'left' } },
        { name: 'rendezvous', args: { text: 'right' } },
      ],
      ctx,
    );
    expect(results).toEqual([ok('left met the other'), ok('right met the other')]);
  });
});
