import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { definePlugin, defineTool, ok } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createQuiver, type Quiver } from '../src/index.js';

/** A harness plugin that supplies the agent-management tools in their snake_case spellings. */
const agentToolsPlugin = definePlugin({
  id: 'agent-tools',
  apiVersion: 1,
  version: '0.1.0',
  register(ctx) {
    for (const name of ['agent', 'send_message', 'task_stop', 'task_output', 'task_create', 'task_list'])
      ctx.registerTool(
        defineTool({
          name,
          description: `The harness's ${name} tool.`,
          input: z.object({}),
          capabilities: {},
          execute: () => ok(name),
        }),
      );
  },
});

const names = (pool: { definitions: { name: string }[] }) => pool.definitions.map((d) => d.name);

describe('agent sets with plugin-supplied agent tools', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-agent-sets-')));
    writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: team\n');
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/team.yaml'),
      'id: team\nplugins: [tools-code, tools-terminal, agent-tools]\n',
    );
    writeFileSync(
      path.join(workspace, 'personalities/simple.yaml'),
      'id: simple\nplugins: [tools-code, tools-terminal, agent-tools]\nsimpleMode: true\n',
    );
    quiver = await createQuiver({
      workspace,
      trustProject: true,
      plugins: [{ definition: agentToolsPlugin, source: 'test' }],
    });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('takes task_stop and task_output from a sub-agent, as TaskStop and TaskOutput', () => {
    const pool = quiver.createSession({ agent: 'subagent' }).pool();
    expect(names(pool)).not.toContain('task_stop');
    expect(names(pool)).not.toContain('task_output');
    expect(names(pool)).not.toContain('agent');
    expect(names(pool)).toContain('read_file');
    expect(pool.removed.get('task_stop')).toMatchObject({ stage: 'agent_context' });
  });

  it('gives a teammate the agent tool with the task and message tools, but not task_stop or task_output', () => {
    const tools = names(quiver.createSession({ agent: 'teammate' }).pool());
    expect(tools).toEqual(expect.arrayContaining(['agent', 'send_message', 'task_create', 'task_list']));
    expect(tools).not.toContain('task_stop');
    expect(tools).not.toContain('task_output');
  });

  it('leaves a simple-mode coordinator its delegation tools', () => {
    const tools = names(quiver.createSession({ personality: 'simple', agent: 'coordinator' }).pool());
    expect(tools).toEqual(['agent', 'send_message', 'task_stop']);
    // Simple mode still narrows the main session to the shell, read and edit tools.
    const main = names(quiver.createSession({ personality: 'simple' }).pool());
    expect(main).not.toContain('agent');
    expect(main).toContain('terminal');
  });
});
