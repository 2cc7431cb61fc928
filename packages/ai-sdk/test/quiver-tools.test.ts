import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { QuiverClient, type ToolSession } from '@quiver/client';
import { createQuiver } from '@quiver/wiring';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { quiverTools } from '../src/index.js';

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
  const tools = await quiverTools(session);
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
