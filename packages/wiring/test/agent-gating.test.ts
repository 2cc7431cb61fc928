import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, defineTool, ok, type QuiverEvent } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createQuiver, type Quiver } from '../src/index.js';

const REVIEWER = `id: reviewer-team
plugins: [tools-code, tools-terminal, tools-kanban]
permissions:
  allow: [read_file, grep_search, file_search, list_dir]
agents:
  reviewer:
    description: Reads and searches, runs the tests.
    tools: [Read, Grep, Glob, Bash]
  typo:
    tools: [Raed, Grep]
  web:
    tools: [WebFetch, Read]
  memo:
    tools: [memory_save]
`;

function eventsOf(session: { events: { subscribe(listener: (event: QuiverEvent) => void): unknown } }) {
  const events: QuiverEvent[] = [];
  session.events.subscribe((event) => events.push(event));
  return events;
}

const names = (pool: { definitions: { name: string }[] }) => pool.definitions.map((d) => d.name);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('agent gating as users write it', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-agents-')));
    writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: default\n');
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(path.join(workspace, 'personalities/reviewer-team.yaml'), REVIEWER);
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('gives a background agent the shipped search tools, the shell and the edit tools, and nothing that manages boards', () => {
    const tools = names(quiver.createSession({ agent: 'async' }).pool());
    expect(tools).toEqual(
      expect.arrayContaining([
        'grep_search',
        'file_search',
        'list_dir',
        'read_file',
        'write_file',
        'edit_file',
        'terminal',
        'terminal_read',
      ]),
    );
    expect(tools.some((name) => name.startsWith('kanban_') || name.startsWith('memory_'))).toBe(false);
  });

  it('gives a teammate the same search tools as a background agent', () => {
    const tools = names(quiver.createSession({ agent: 'teammate' }).pool());
    expect(tools).toEqual(expect.arrayContaining(['grep_search', 'file_search', 'read_file']));
  });

  it('gives a custom agent written with Claude Code names the tools those names mean', () => {
    const session = quiver.createSession({ personality: 'reviewer-team', customAgent: 'reviewer' });
    const tools = names(session.pool());
    expect(tools).toEqual(
      expect.arrayContaining(['read_file', 'grep_search', 'file_search', 'list_dir', 'terminal']),
    );
    expect(tools).not.toContain('write_file');
    expect(tools.some((name) => name.startsWith('kanban_'))).toBe(false);
  });

  it('warns when the session starts about a misspelled name and still gives the agent the rest', async () => {
    const session = quiver.createSession({ personality: 'reviewer-team', customAgent: 'typo' });
    const events = eventsOf(session);
    const tools = names(session.pool());
    await settle();
    expect(tools).toContain('grep_search');
    const warnings = events.filter((event) => event.type === 'session.warning');
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'unknown_tool_name',
        message: expect.stringContaining('agents.typo.tools names "Raed"'),
      }),
    );
  });

  it('warns that a Claude Code name has no counterpart here instead of calling it a typo', async () => {
    const session = quiver.createSession({ personality: 'reviewer-team', customAgent: 'web' });
    const events = eventsOf(session);
    expect(names(session.pool())).toContain('read_file');
    await settle();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'session.warning', code: 'tool_name_without_counterpart' }),
    );
  });

  it('warns when a custom agent’s tools all come from a plugin the personality does not enable', async () => {
    const session = quiver.createSession({ personality: 'reviewer-team', customAgent: 'memo' });
    const events = eventsOf(session);
    expect(names(session.pool())).toEqual([]);
    await settle();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'session.warning', code: 'custom_agent_without_tools' }),
    );
  });

  it('hides the terminal and its background tools behind a deny rule written as Bash, and a plugin behind its id', () => {
    const session = quiver.createSession({ permissions: { deny: ['Bash', 'tools-kanban'] } });
    const pool = session.pool();
    const tools = names(pool);
    expect(tools.some((name) => name.startsWith('terminal'))).toBe(false);
    expect(tools.some((name) => name.startsWith('kanban_'))).toBe(false);
    expect(tools).toContain('read_file');
    expect(pool.removed.get('terminal_start')).toMatchObject({ stage: 'deny_rules', rule: 'Bash' });
  });

  it('applies permission rules written with Claude Code names to the tools they mean', async () => {
    writeFileSync(path.join(workspace, 'secret.txt'), 'hunter2\n');
    const session = quiver.createSession({
      permissions: { allow: ['Bash'], deny: ['Bash(rm:*)', 'Read(secret.txt)'] },
    });
    const [echo, remove, read] = await session.execute([
      { name: 'terminal', args: { command: 'echo still-allowed' } },
      { name: 'terminal', args: { command: 'rm -f nothing.txt' } },
      { name: 'read_file', args: { path: 'secret.txt' } },
    ]);
    expect(echo).toMatchObject({ ok: true });
    expect(echo?.ok && echo.value).toContain('still-allowed');
    expect(remove).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(read).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('tells a coordinator which tools its workers can use', () => {
    const pool = quiver.createSession({ agent: 'coordinator' }).pool();
    expect(names(pool)).not.toContain('grep_search');
    expect(pool.workerTools).toEqual(expect.arrayContaining(['grep_search', 'file_search', 'terminal']));
    expect(pool.agentContext).toContain('grep_search');
  });
});

describe('defaultAgentExcludedTools as Copilot CLI applies it', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-default-agent-')));
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('hides the tools from a main session without a custom agent and leaves them to its sub-agents', () => {
    const main = quiver.createSession({ defaultAgentExcludedTools: ['Grep', 'memory_*'] });
    const tools = names(main.pool());
    expect(tools).not.toContain('grep_search');
    expect(tools.some((name) => name.startsWith('memory_'))).toBe(false);
    expect(tools).toContain('read_file');
    const child = names(main.createChild().pool());
    expect(child).toContain('grep_search');
    expect(child).toContain('memory_save');
  });

  it('keeps the tools when an explicit availableTools allowlist names them', () => {
    const tools = names(
      quiver
        .createSession({ defaultAgentExcludedTools: ['Grep'], availableTools: ['grep_search', 'Read'] })
        .pool(),
    );
    expect(tools).toEqual(['grep_search', 'read_file']);
  });
});

describe('a plugin tool that declares a Claude Code name in its aliases', () => {
  let workspace: string;
  let quiver: Quiver;

  const pagesPlugin = definePlugin({
    id: 'pages',
    apiVersion: 1,
    version: '0.1.0',
    register(ctx) {
      ctx.registerTool(
        defineTool({
          name: 'page_fetch',
          description: 'Returns a stored page by its address.',
          aliases: ['WebFetch'],
          input: z.object({ url: z.string() }),
          capabilities: {},
          execute: ({ url }) => ok(`page ${url}`),
        }),
      );
    },
  });

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-alias-')));
    writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: pages\n');
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/pages.yaml'),
      'id: pages\nplugins: [pages, tools-code]\npermissions:\n  allow: [WebFetch]\nagents:\n  researcher:\n    tools: [WebFetch]\n',
    );
    quiver = await createQuiver({
      workspace,
      trustProject: true,
      plugins: [{ definition: pagesPlugin, source: 'test:pages' }],
    });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('joins the background agent set, a custom agent naming it, and answers a call by that name', async () => {
    expect(names(quiver.createSession({ agent: 'async' }).pool())).toContain('page_fetch');
    const session = quiver.createSession({ customAgent: 'researcher' });
    const events = eventsOf(session);
    expect(names(session.pool())).toEqual(['page_fetch']);
    const [result] = await session.execute([{ name: 'WebFetch', args: { url: 'https://example.com' } }]);
    expect(result).toMatchObject({ ok: true, value: 'page https://example.com' });
    await settle();
    expect(events.filter((event) => event.type === 'session.warning')).toEqual([]);
  });
});
