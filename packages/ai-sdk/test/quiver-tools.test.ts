import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { QuiverClient, type ToolSession } from '@quiver/client';
import { createQuiver } from '@quiver/wiring';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { liveQuiverTools, quiverTools } from '../src/index.js';

const QUIVER_BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@quiver/cli/package.json')),
  'dist/bin.js',
);
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quiver-ai-sdk-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
  writeFileSync(
    path.join(dir, 'personalities/agent.yaml'),
    'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir]\n  ask: [write_file]\n',
  );
  writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
  return dir;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const call = (toolCallId: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/** A scripted model (the AI SDK's mock): reads a file and tries a denied write, then answers. */
function scriptedModel() {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [
          call('ai-1', 'read_file', { path: 'notes.txt' }),
          call('ai-2', 'write_file', { path: 'x.txt', content: 'x' }),
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      {
        content: [call('ai-3', 'list_dir', { path: '.' })],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'Buy milk.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  });
}

async function runLoop(session: ToolSession) {
  const model = scriptedModel();
  // Asks answered by Quiver's side (headless here: denied with the rule that would allow).
  const tools = await quiverTools(session, { approval: 'quiver' });
  const result = await generateText({
    model,
    tools,
    stopWhen: stepCountIs(5),
    prompt: 'What should I remember?',
  });
  return { model, result, tools };
}

describe('@quiver/ai-sdk with the AI SDK and its mock model', { timeout: 60_000 }, () => {
  it('runs a multi-step tool loop through a quiver rpc session: results, denials and the log', async () => {
    const dir = workspace();
    const client = await QuiverClient.start({
      command: process.execPath,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'ai-sdk' });
    await session.ready();
    const { model, result, tools } = await runLoop(session);
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['read_file', 'write_file', 'list_dir']));
    expect(result.text).toBe('Buy milk.');
    expect(result.steps).toHaveLength(3);
    // What the model read back in its second step: the file, and Quiver's denial as text.
    const secondPrompt = JSON.stringify(model.doGenerateCalls[1]?.prompt);
    expect(secondPrompt).toContain('remember the milk');
    expect(secondPrompt).toMatch(/Error \(not_permitted\)/);
    const log = await client.sessionLog('ai-sdk');
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual(
      expect.arrayContaining([
        ['ai-1', 'ok'],
        ['ai-2', 'error'],
        ['ai-3', 'ok'],
      ]),
    );
    await client.shutdown();
  });

  it('takes an in-process session of @quiver/wiring the same way', async () => {
    const dir = workspace();
    const quiver = await createQuiver({
      workspace: dir,
      trustProject: true,
      dataDir: path.join(dir, '.data'),
    });
    cleanups.push(() => quiver.close());
    const session = quiver.createSession();
    cleanups.push(() => session.close());
    const { result, model } = await runLoop(session);
    expect(result.text).toBe('Buy milk.');
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('remember the milk');
  });
});

/** A scripted model that writes two files (one call each step), then answers. */
function writingModel() {
  const step = (content: unknown[], unified: 'tool-calls' | 'stop') => ({
    content,
    finishReason: { unified, raw: unified },
    usage,
    warnings: [],
  });
  return new MockLanguageModelV3({
    doGenerate: [
      step([call('w-1', 'write_file', { path: 'approved.txt', content: 'yes\n' })], 'tool-calls'),
      step([call('w-2', 'write_file', { path: 'refused.txt', content: 'no\n' })], 'tool-calls'),
      step([{ type: 'text', text: 'Done.' }], 'stop'),
    ] as never,
  });
}

describe("Quiver's asks as the AI SDK's tool approval", { timeout: 60_000 }, () => {
  it('stops for approval where Quiver would ask; an approved call runs once, a refused one never runs', async () => {
    const dir = workspace();
    const client = await QuiverClient.start({
      command: process.execPath,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'approvals' });
    await session.ready();
    const model = writingModel();
    const tools = await quiverTools(session);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Write the files.' }];
    const answer = async (approved: boolean) => {
      const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
      messages.push(...result.response.messages);
      const requests = result.content.filter((part) => part.type === 'tool-approval-request');
      if (requests.length > 0)
        messages.push({
          role: 'tool',
          content: requests.map((request) => ({
            type: 'tool-approval-response' as const,
            approvalId: request.approvalId,
            approved,
          })),
        });
      return { result, requests };
    };
    const first = await answer(true);
    expect(first.requests.map((request) => request.toolCall.toolCallId)).toEqual(['w-1']);
    expect(existsSync(path.join(dir, 'approved.txt'))).toBe(false);
    const second = await answer(false);
    expect(readFileSync(path.join(dir, 'approved.txt'), 'utf8')).toBe('yes\n');
    expect(second.requests.map((request) => request.toolCall.toolCallId)).toEqual(['w-2']);
    const third = await answer(false);
    expect(third.result.text).toBe('Done.');
    expect(existsSync(path.join(dir, 'refused.txt'))).toBe(false);
    // The approval was a once grant for that call: the next write to the same file asks again.
    const [again] = await session.check([
      { id: 'w-3', name: 'write_file', args: { path: 'approved.txt', content: 'x' } },
    ]);
    expect(again?.behavior).toBe('ask');
    expect(again?.question?.headline).toContain('approved.txt');
    const log = await client.sessionLog('approvals', { events: true });
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual([['w-1', 'ok']]);
    await client.shutdown();
  });

  it('gives a session grant for the approved call when asked to, in process too', async () => {
    const dir = workspace();
    // Writes ask by default here (an explicit ask rule would keep asking after any grant).
    writeFileSync(
      path.join(dir, 'personalities/agent.yaml'),
      'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir]\n',
    );
    const quiver = await createQuiver({
      workspace: dir,
      trustProject: true,
      dataDir: path.join(dir, '.data'),
    });
    cleanups.push(() => quiver.close());
    const session = quiver.createSession();
    cleanups.push(() => session.close());
    const tools = await quiverTools(session, { approvalScope: 'session', only: ['write_file'] });
    const write = tools.write_file;
    const options = { toolCallId: 'p-1', messages: [] };
    const args = { path: 'approved.txt', content: 'one\n' };
    expect(
      await (write?.needsApproval as (input: unknown, o: unknown) => Promise<boolean>)(args, options),
    ).toBe(true);
    await write?.execute?.(args, options as never);
    expect(readFileSync(path.join(dir, 'approved.txt'), 'utf8')).toBe('one\n');
    const [same, other] = await session.check([
      { id: 'p-2', name: 'write_file', args: { path: 'approved.txt', content: 'two\n' } },
      { id: 'p-3', name: 'write_file', args: { path: 'other.txt', content: 'two\n' } },
    ]);
    expect([same?.behavior, other?.behavior]).toEqual(['allow', 'ask']);
  });
});

describe('liveQuiverTools: the tool set follows session.tools_updated', { timeout: 60_000 }, () => {
  it("a tool the session gains mid-loop is in the model's next step and runs through Quiver", async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'personalities/agent.yaml'),
      'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir, lookup_weather]\n',
    );
    const client = await QuiverClient.start({
      command: process.execPath,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'live' });
    await session.ready();
    const weather = {
      name: 'lookup_weather',
      description: 'The weather in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args: unknown) => `Sunny in ${(args as { city: string }).city}.`,
    };
    const seen: string[][] = [];
    const replies = [
      [call('l-1', 'read_file', { path: 'notes.txt' })],
      [call('l-2', 'lookup_weather', { city: 'Oslo' })],
      [{ type: 'text', text: 'Sunny.' }],
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        seen.push((options.tools ?? []).map((entry) => entry.name));
        // The harness gives the session a tool of its own while the model's first call is pending.
        if (seen.length === 1) await session.update({ externalTools: [weather] });
        const content = replies[seen.length - 1] ?? [];
        const unified = seen.length === 3 ? 'stop' : 'tool-calls';
        return { content, finishReason: { unified, raw: unified }, usage, warnings: [] } as never;
      },
    });
    const live = await liveQuiverTools(session);
    cleanups.push(() => live.stop());
    const result = await generateText({
      model,
      tools: live.tools,
      prompt: 'Weather?',
      stopWhen: stepCountIs(5),
    });
    expect(seen[0]).not.toContain('lookup_weather');
    expect(seen[1]).toContain('lookup_weather');
    expect(result.text).toBe('Sunny.');
    expect(JSON.stringify(model.doGenerateCalls[2]?.prompt)).toContain('Sunny in Oslo.');
    const log = await client.sessionLog('live');
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual([
      ['l-1', 'ok'],
      ['l-2', 'ok'],
    ]);
    await client.shutdown();
  });
});

describe('packages/ai-sdk/README.md', { timeout: 60_000 }, () => {
  it('runs its example exactly as the README says', async () => {
    const { execFileSync } = await import('node:child_process');
    const { readFileSync } = await import('node:fs');
    const repo = path.resolve(path.dirname(QUIVER_BIN), '../../..');
    const readme = readFileSync(path.join(repo, 'packages/ai-sdk/README.md'), 'utf8');
    const command = /## Run the example[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trim() ?? '';
    const dir = workspace();
    const output = execFileSync('bash', ['-c', command], {
      cwd: repo,
      env: {
        ...process.env,
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
        XDG_DATA_HOME: path.join(dir, '.xdg'),
      },
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toMatchObject({ toolsCalled: ['list_dir', 'read_file'], steps: 3 });
  });
});
