import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { QuiverEvent } from '@quiver/types';
import { ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { runAsTeammate } from '../src/agents/teammate-context.js';
import type { SessionPolicy } from '../src/contracts.js';
import { InMemoryEventBus } from '../src/events/bus.js';
import { createSession, type Session } from '../src/session/session.js';
import {
  builtInTool,
  externalTool,
  makeDeps,
  makePolicy,
  mcpTool,
  names,
  newRegistry,
  registerStandardTools,
} from './assembly-helpers.js';

const open: Session[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((session) => session.close()));
});

function track(session: Session): Session {
  open.push(session);
  return session;
}

function collect(session: Session): QuiverEvent[] {
  const events: QuiverEvent[] = [];
  session.events.subscribe((event) => events.push(event));
  return events;
}

function standardRegistry() {
  const registry = newRegistry();
  registerStandardTools(registry);
  return registry;
}

describe('Session', () => {
  it('refuses a permissionResolver given as a bare function, at createSession and updateOptions, saying how to wrap it', () => {
    const deps = makeDeps(standardRegistry(), makePolicy({}));
    const myUi = async () => ({ behavior: 'deny' as const });
    const asFunction = myUi as unknown as { resolve: typeof myUi };
    expect(() => createSession(deps, { permissionResolver: asFunction })).toThrow(
      /permissionResolver must be an object with a resolve\(prompt, signal\) method.*it is a function/,
    );
    const session = track(createSession(deps, {}));
    expect(() => session.updateOptions({ permissionResolver: {} as never })).toThrow(
      /an object without a resolve method/,
    );
    session.updateOptions({ permissionResolver: { resolve: myUi } });
    expect(session.options.permissionResolver).toBeDefined();
  });

  it('keeps two sessions with different policies in one process from seeing each other’s tools', async () => {
    const registry = standardRegistry();
    registry.registerAll([mcpTool('github', 'list_issues'), mcpTool('slack', 'post_message')]);
    const build = async (server: string, client: string, deny: string[]) => {
      await nextMacrotask();
      const session = track(
        createSession(
          makeDeps(registry, makePolicy({ mcpServers: { [server]: {} }, permissions: { deny } })),
          { externalTools: [externalTool(client)] },
        ),
      );
      await nextMacrotask();
      return names(session.pool().definitions);
    };
    const [first, second] = await Promise.all([
      build('github', 'client_one', ['terminal']),
      build('slack', 'client_two', ['read_file']),
    ]);
    expect(first).toContain('mcp__github__list_issues');
    expect(first).toContain('client_one');
    expect(first).toContain('read_file');
    expect(first).not.toContain('terminal');
    expect(first).not.toContain('mcp__slack__post_message');
    expect(first).not.toContain('client_two');
    expect(second).toContain('mcp__slack__post_message');
    expect(second).toContain('client_two');
    expect(second).toContain('terminal');
    expect(second).not.toContain('read_file');
    expect(second).not.toContain('mcp__github__list_issues');
    expect(second).not.toContain('client_one');
  });

  it('bounds a child by its parent’s denies and pool and narrows to the requested tools', () => {
    const registry = standardRegistry();
    registry.registerAll([mcpTool('github', 'list_issues'), mcpTool('github', 'create_issue')]);
    const policy = makePolicy({ mcpServers: { github: {} }, deferLoading: { enabled: true, maxTools: 3 } });
    const parent = track(
      createSession(makeDeps(registry, policy), {
        permissions: { deny: ['terminal'] },
        excludedTools: ['grep_search'],
      }),
    );
    expect(parent.pool().definitions.some((definition) => definition.deferLoading)).toBe(true);
    const child = parent.createChild({
      availableTools: ['terminal', 'grep_search', 'read_file', 'mcp__github__list_issues', 'agent'],
    });
    expect(child.agent.kind).toBe('subagent');
    expect(child.parentDenies).toContain('terminal');
    const pool = child.pool();
    expect(names(pool.definitions)).toEqual(['read_file', 'mcp__github__list_issues']);
    expect(pool.definitions.some((definition) => definition.deferLoading)).toBe(false);
    expect(pool.removed.get('terminal')?.stage).toBe('deny_rules');
    expect(pool.removed.get('grep_search')?.rule).toBe('parent session');
    const grandchild = child.createChild({});
    expect(names(grandchild.pool().definitions)).toEqual(['read_file', 'mcp__github__list_issues']);
  });

  it('emits session.tools_updated on the first assembly and then only when the definitions change', async () => {
    const registry = standardRegistry();
    const session = track(createSession(makeDeps(registry, makePolicy()), {}));
    const events = collect(session);
    const first = session.pool();
    await nextMacrotask();
    expect(events.filter((event) => event.type === 'session.tools_updated')).toEqual([
      expect.objectContaining({
        added: first.definitions.map((definition) => definition.name),
        removed: [],
        count: first.definitions.length,
      }),
    ]);
    events.length = 0;
    registry.register(builtInTool('kanban_add'), { pluginId: 'kanban' });
    session.pool();
    session.updateOptions({ excludedTools: [] });
    session.pool();
    await nextMacrotask();
    expect(events.filter((event) => event.type === 'session.tools_updated')).toEqual([]);
    registry.register(builtInTool('web_fetch'), { pluginId: 'code' });
    session.pool();
    session.pool();
    await nextMacrotask();
    const updates = events.filter((event) => event.type === 'session.tools_updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      added: ['web_fetch'],
      removed: [],
      sessionId: session.id,
      signature: session.pool().signature,
    });
  });

  it('moves the external version only when the external definitions change, and refreshes a stale pool', () => {
    const registry = standardRegistry();
    const session = track(
      createSession(makeDeps(registry, makePolicy()), { externalTools: [externalTool('lookup')] }),
    );
    const inFlight = session.pool();
    session.updateExternalTools([externalTool('lookup', { execute: () => ok('new callback') })]);
    expect(session.externalVersion).toBe(0);
    session.updateExternalTools([externalTool('lookup'), externalTool('summarize')]);
    expect(session.externalVersion).toBe(1);
    const refreshed = session.refreshIfStale(inFlight);
    expect(refreshed.externalVersion).toBe(1);
    expect(names(refreshed.definitions)).toContain('summarize');
    expect(session.refreshIfStale(refreshed)).toBe(refreshed);
  });

  it('keeps the previous pool and warns when a refresh fails', async () => {
    const registry = standardRegistry();
    const session = track(
      createSession(makeDeps(registry, makePolicy()), { externalTools: [externalTool('lookup')] }),
    );
    const events = collect(session);
    const before = session.pool();
    session.updateExternalTools([externalTool('terminal')]);
    const after = session.refreshIfStale(before);
    expect(after).toBe(before);
    await nextMacrotask();
    const warning = events.find((event) => event.type === 'session.warning');
    expect(warning).toMatchObject({ code: 'tools_refresh_failed' });
    expect(warning && 'message' in warning ? warning.message : '').toContain('External tool "terminal"');
  });

  it('reports unknown tool names as session.warning events and forwards every event to the host bus', async () => {
    const registry = standardRegistry();
    const hostBus = new InMemoryEventBus();
    const hostEvents: QuiverEvent[] = [];
    hostBus.subscribe((event) => hostEvents.push(event));
    const session = track(
      createSession(makeDeps(registry, makePolicy(), { events: hostBus }), {
        availableTools: ['read_file', 'Raed'],
      }),
    );
    session.pool();
    session.invalidate();
    session.pool();
    await nextMacrotask();
    await nextMacrotask();
    const warnings = hostEvents.filter((event) => event.type === 'session.warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      code: 'unknown_tool_name',
      message: 'availableTools names "Raed", which matches no tool, alias, plugin or configured MCP server.',
    });
  });

  it('runs a session created inside runAsTeammate as a teammate with the teammate tools', async () => {
    const registry = standardRegistry();
    const session = await runAsTeammate(
      async () => {
        await nextMacrotask();
        return track(createSession(makeDeps(registry, makePolicy()), {}));
      },
      { name: 'researcher' },
    );
    expect(session.agent).toEqual({ kind: 'teammate', name: 'researcher', id: session.id });
    const visible = names(session.pool().definitions);
    expect(visible).toContain('task_create');
    expect(visible).toContain('agent');
    expect(visible).not.toContain('task_stop');
    const main = track(createSession(makeDeps(registry, makePolicy()), {}));
    expect(main.agent.kind).toBe('main');
  });

  it('refuses to change the agent kind of an existing session and points to child sessions', () => {
    const session = track(createSession(makeDeps(standardRegistry(), makePolicy()), {}));
    expect(() => session.updateOptions({ agent: 'async' })).toThrow(/cannot change/);
    session.updateOptions({ agent: 'main', excludedTools: ['grep_search'] });
    expect(names(session.pool().definitions)).not.toContain('grep_search');
  });

  it('disposes session state and stops following the registry when closed', async () => {
    const registry = standardRegistry();
    const session = createSession(makeDeps(registry, makePolicy()), { sessionId: 'fixed-id' });
    expect(session.id).toBe('fixed-id');
    const disposed: string[] = [];
    session.state.set('shell', 'background shell', (value) => {
      disposed.push(value);
    });
    const child = session.createChild({});
    child.state.set('child', 'child value', (value) => {
      disposed.push(value);
    });
    await session.close();
    expect(disposed.sort()).toEqual(['background shell', 'child value']);
    expect(() => session.pool()).toThrow(/closed/);
    expect(() => registry.register(builtInTool('after_close'))).not.toThrow();
  });

  it('runs calls through the pool, including deferred tools, and shows tools found by tool_search in full next time', async () => {
    const registry = standardRegistry();
    registry.registerAll([
      mcpTool('github', 'list_issues', { description: 'List issues of a GitHub repository.' }),
      mcpTool('github', 'create_issue'),
    ]);
    const directory = await mkdtemp(join(tmpdir(), 'quiver-session-'));
    const policy = makePolicy({
      mcpServers: { github: {} },
      deferLoading: { enabled: true, maxTools: 5 },
      permissions: { allow: ['*'] },
    });
    const session = createSession(
      makeDeps(registry, policy, { workspace: directory, dataDir: join(directory, '.quiver') }),
      {},
    );
    try {
      await runThroughSession(session);
    } finally {
      await session.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('tool_search without a rule for it', () => {
  it('runs headless where no rule decides it, and still asks where an ask rule names it', async () => {
    const registry = standardRegistry();
    registry.registerAll([
      mcpTool('github', 'list_issues', { description: 'List issues of a GitHub repository.' }),
    ]);
    const directory = await mkdtemp(join(tmpdir(), 'quiver-search-exempt-'));
    const deps = (permissions: SessionPolicy['permissions']) =>
      makeDeps(
        registry,
        makePolicy({ mcpServers: { github: {} }, deferLoading: { enabled: true, maxTools: 1 }, permissions }),
        { workspace: directory, dataDir: join(directory, '.quiver') },
      );
    const plain = createSession(deps({}), {});
    const asked = createSession(deps({ ask: ['tool_search'] }), {});
    try {
      const [found] = await plain.execute([{ name: 'tool_search', args: { query: 'list issues' } }]);
      expect(found).toMatchObject({ ok: true });
      expect(found?.ok && found.value).toContain('mcp__github__list_issues');
      const [refused] = await asked.execute([{ name: 'tool_search', args: { query: 'list issues' } }]);
      expect(refused).toMatchObject({ ok: false, code: 'not_permitted' });
    } finally {
      await plain.close();
      await asked.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

async function runThroughSession(session: Session): Promise<void> {
  const pool = session.pool();
  expect(
    pool.definitions.find((definition) => definition.name === 'mcp__github__list_issues')?.deferLoading,
  ).toBe(true);
  const [direct, search] = await session.execute([
    { id: 'call-1', name: 'mcp__github__list_issues', args: {} },
    { id: 'call-2', name: 'tool_search', args: { query: 'list issues', limit: 1 } },
  ]);
  expect(direct).toMatchObject({ ok: true, value: 'list_issues answered' });
  expect(search?.ok).toBe(true);
  const next = session.pool();
  expect(
    next.definitions.find((definition) => definition.name === 'mcp__github__list_issues')?.deferLoading,
  ).toBeUndefined();
  expect(
    next.definitions.find((definition) => definition.name === 'mcp__github__create_issue')?.deferLoading,
  ).toBe(true);
}
