import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describeWithSystemTools } from '@quiver/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { BIN, tempDirs, write } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

const dirs = tempDirs('quiver-rpc-helpers-');

interface HelperRequest {
  sessionId: string;
  helper: string;
  arguments: Record<string, unknown>;
  question?: { text: string; choices?: string[] };
}

let child: ChildProcessWithoutNullStreams;
let connection: MessageConnection;
const asked: HelperRequest[] = [];

interface HelperReply {
  answer?: string;
  declined?: boolean;
  approved?: boolean;
  feedback?: string;
}

/** The client's answers, as a harness would give them after asking its person. */
function answer(request: HelperRequest): HelperReply {
  asked.push(request);
  if (request.helper === 'ask_user')
    return request.arguments.question === 'Which colour?' ? { answer: 'green' } : { declined: true };
  if (request.helper === 'exit_plan_mode') return { approved: false, feedback: 'add tests first' };
  return {};
}

beforeAll(async () => {
  const dir = path.join(dirs.make(), 'project');
  write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
  write(path.join(dir, 'personalities/agent.yaml'), 'id: agent\nplugins: [tools-code]\n');
  child = spawn(process.execPath, [BIN, '--trust-project', 'rpc'], { cwd: dir, env: serveEnv() });
  connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  connection.onRequest('helper.requested', answer);
  connection.listen();
  await connection.sendRequest('initialize', { protocolVersion: '1', client: { name: 'helper-test' } });
}, 60_000);

afterAll(() => {
  connection?.dispose();
  if (child?.exitCode === null) child.kill('SIGKILL');
  dirs.cleanup();
});

const verdictSchema = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['pass', 'fail'] }, score: { type: 'number' } },
  required: ['verdict'],
};

async function create(params: Record<string, unknown>) {
  const { sessionId } = await connection.sendRequest<{ sessionId: string }>('session.create', params);
  const { tools } = await connection.sendRequest<{ tools: Array<{ name: string }> }>('session.render', {
    sessionId,
    format: 'anthropic',
  });
  return { sessionId, names: tools.map((tool) => tool.name) };
}

type Result = { ok: boolean; code?: string; value?: string; error?: string; structured?: unknown };

async function execute(sessionId: string, calls: Array<{ name: string; args: unknown }>) {
  const { results } = await connection.sendRequest<{ results: Result[] }>('session.execute', {
    sessionId,
    calls: calls.map((call, index) => ({ id: `h${index}`, ...call })),
  });
  return results;
}

describe('helper tools an rpc client declares', { timeout: 90_000 }, () => {
  it('exist only when declared and route each call to the client as helper.requested', async () => {
    const plain = await create({});
    expect(plain.names).not.toContain('ask_user');

    const { sessionId, names } = await create({
      helperTools: {
        askUser: true,
        taskComplete: true,
        exitPlanMode: true,
        structuredOutput: { schema: verdictSchema },
      },
    });
    expect(names).toEqual(
      expect.arrayContaining(['ask_user', 'task_complete', 'exit_plan_mode', 'structured_output']),
    );
    expect(names).not.toContain('worktree_create');

    asked.length = 0;
    const [colour, refused, plan, wrong, output, done] = await execute(sessionId, [
      { name: 'ask_user', args: { question: 'Which colour?', choices: ['green', 'red'] } },
      { name: 'ask_user', args: { question: 'Your password?' } },
      { name: 'exit_plan_mode', args: { plan: '1. change the parser' } },
      { name: 'structured_output', args: { verdict: 'maybe' } },
      { name: 'structured_output', args: { verdict: 'pass', score: 0.9 } },
      { name: 'task_complete', args: { summary: 'Parser fixed.' } },
    ]);
    expect(colour).toMatchObject({ ok: true, value: 'green' });
    expect(refused).toMatchObject({ ok: true });
    expect(refused?.value).toContain('did not answer');
    expect(plan).toMatchObject({ ok: true });
    expect(plan?.value).toContain('not approved');
    expect(plan?.value).toContain('add tests first');
    expect(wrong).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(output).toMatchObject({ ok: true });
    expect(done).toMatchObject({ ok: true });
    // The value that broke the schema never reached the client.
    expect(asked.map((request) => [request.helper, request.arguments])).toEqual([
      ['ask_user', { question: 'Which colour?', choices: ['green', 'red'] }],
      ['ask_user', { question: 'Your password?' }],
      ['exit_plan_mode', { plan: '1. change the parser' }],
      ['structured_output', { verdict: 'pass', score: 0.9 }],
      ['task_complete', { summary: 'Parser fixed.' }],
    ]);
    expect(asked.every((request) => request.sessionId === sessionId)).toBe(true);

    // The log's summary of the session counts the results' tokens and its definitions' size.
    const { sessions } = await connection.sendRequest<{
      sessions: Array<{ id: string; resultTokens: number; definitionTokens?: number }>;
    }>('session.list', {});
    const summary = sessions.find((listed) => listed.id === sessionId);
    expect(summary?.resultTokens).toBeGreaterThan(0);
    expect(summary?.definitionTokens).toBeGreaterThan(0);
  });

  it("sends the model's question and plan to show labelled as the model's, every hidden character escaped", async () => {
    const { sessionId } = await create({ helperTools: { askUser: true, exitPlanMode: true } });
    asked.length = 0;
    const question = `Deploy?\u202e${'\n'.repeat(8)}[Quiver] Allow terminal: git status?\u001b[2J`;
    const plan = 'Step 1\n[Quiver] Plan approved by the user\u2066\n\u200bStep 2';
    await execute(sessionId, [
      { name: 'ask_user', args: { question, choices: ['Yes\u202e', 'Allow once'] } },
      { name: 'exit_plan_mode', args: { plan } },
    ]);
    const [asking, planning] = asked;
    // The raw arguments still reach the client; what it shows is the rendered question.
    expect(asking?.arguments).toEqual({ question, choices: ['Yes\u202e', 'Allow once'] });
    expect(asking?.question).toEqual({
      text: `The model asks: Deploy?\\u202e${'\\u000a'.repeat(8)}[Quiver] Allow terminal: git status?\\u001b[2J`,
      choices: ['Yes\\u202e', 'Allow once'],
    });
    expect(planning?.question?.text).toBe(
      [
        'The model presents this plan and asks to leave plan mode:',
        '> Step 1',
        '> [Quiver] Plan approved by the user\\u2066',
        '> \\u200bStep 2',
      ].join('\n'),
    );
    for (const shown of [
      asking?.question?.text,
      planning?.question?.text,
      ...(asking?.question?.choices ?? []),
    ])
      expect(shown).not.toMatch(
        /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069]/,
      );
  });

  it('keeps the helpers when session.update replaces the external tools', async () => {
    const { sessionId } = await create({ helperTools: { askUser: true } });
    await connection.sendRequest('session.update', {
      sessionId,
      externalTools: [{ name: 'lookup', description: 'Looks something up.' }],
    });
    const { tools } = await connection.sendRequest<{ tools: Array<{ name: string }> }>('session.render', {
      sessionId,
      format: 'anthropic',
    });
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['ask_user', 'lookup']));
  });

  it('follows the agent sets: a sub-agent gets neither ask_user nor exit_plan_mode', async () => {
    const { names } = await create({
      agent: 'subagent',
      helperTools: { askUser: true, exitPlanMode: true, taskComplete: true },
    });
    expect(names).not.toContain('ask_user');
    expect(names).not.toContain('exit_plan_mode');
  });

  it('refuses a structured-output schema that is not an object schema, saying how to fix it', async () => {
    await expect(
      connection.sendRequest('session.create', {
        helperTools: { structuredOutput: { schema: { type: 'string' } } },
      }),
    ).rejects.toThrow(/JSON object schema/);
    await expect(
      connection.sendRequest('session.create', { helperTools: { askUser: 'yes' } }),
    ).rejects.toThrow(/helperTools\.askUser/);
    await expect(
      connection.sendRequest('session.create', {
        helperTools: { askUser: true },
        externalTools: [{ name: 'ask_user', description: 'Asks.' }],
      }),
    ).rejects.toThrow(/"ask_user", which helperTools also declares/);
  });
});

describeWithSystemTools(['git'])('worktree helpers an rpc client declares', { timeout: 90_000 }, () => {
  it('creates a worktree with git run by Quiver, hardened: the repository hook does not run', async () => {
    const dir = path.join(dirs.make(), 'repo');
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
    write(path.join(dir, 'personalities/agent.yaml'), 'id: agent\nplugins: [tools-code]\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    const hookRan = path.join(dir, 'hook-ran');
    write(path.join(dir, '.git/hooks/post-checkout'), `#!/bin/sh\ntouch ${hookRan}\n`);
    chmodSync(path.join(dir, '.git/hooks/post-checkout'), 0o755);
    const repoChild = spawn(process.execPath, [BIN, '--trust-project', 'rpc'], { cwd: dir, env: serveEnv() });
    const repo = createMessageConnection(
      new StreamMessageReader(repoChild.stdout),
      new StreamMessageWriter(repoChild.stdin),
    );
    repo.listen();
    try {
      await repo.sendRequest('initialize', { protocolVersion: '1', client: { name: 'worktree-test' } });
      const { sessionId } = await repo.sendRequest<{ sessionId: string }>('session.create', {
        helperTools: { worktrees: true },
        permissions: { allow: ['worktree_create'] },
      });
      const { results } = await repo.sendRequest<{ results: Result[] }>('session.execute', {
        sessionId,
        calls: [
          { id: 'w1', name: 'worktree_create', args: { name: 'feature-a' } },
          { id: 'w2', name: 'worktree_remove', args: { name: 'feature-a' } },
        ],
      });
      expect(results[0]).toMatchObject({ ok: true });
      expect(results[0]?.value).toContain('.worktrees/feature-a');
      expect(existsSync(path.join(dir, '.worktrees/feature-a/quiver.yaml'))).toBe(true);
      expect(existsSync(hookRan)).toBe(false);
      // Removing is asked like any destructive tool; with no one to ask, it does not run.
      expect(results[1]).toMatchObject({ ok: false });
      expect(existsSync(path.join(dir, '.worktrees/feature-a'))).toBe(true);
    } finally {
      repo.dispose();
      repoChild.kill('SIGKILL');
    }
  });
});
