import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTracingDisabled,
  Usage,
} from '@openai/agents';
import { QuiverClient } from '@quiver/client';
import { afterEach, describe, expect, it } from 'vitest';
import { liveQuiverTools, quiverTools } from '../src/index.js';

const QUIVER_BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@quiver/cli/package.json')),
  'dist/bin.js',
);
/** The SDK needs Node 22; Quiver's native SQLite driver is built for the Node that installed it. */
const QUIVER_NODE = process.env.QUIVER_NODE ?? 'node';
setTracingDisabled(true);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quiver-openai-agents-'));
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

/** A scripted model implementing the SDK's Model interface: one response per turn, requests kept. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: AgentInputItem[][];
  constructor(turns: AgentInputItem[][]) {
    this.#turns = turns;
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.#turns[this.requests.length - 1];
    if (!output) throw new Error('the script has no more turns');
    return { usage: new Usage(), output: output as ModelResponse['output'] };
  }
  // biome-ignore lint/correctness/useYield: the script answers only non-streamed runs
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed');
  }
}

const call = (callId: string, name: string, args: unknown): AgentInputItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});

describe('@quiver/openai-agents with the OpenAI Agents SDK and a scripted model', { timeout: 60_000 }, () => {
  it('runs a multi-step agent loop through a quiver rpc session: results, denials and the log', async () => {
    const dir = workspace();
    const client = await QuiverClient.start({
      command: QUIVER_NODE,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'agents' });
    await session.ready();
    const model = new ScriptedModel([
      [
        call('oa-1', 'read_file', { path: 'notes.txt' }),
        call('oa-2', 'write_file', { path: 'x.txt', content: 'x' }),
      ],
      [call('oa-3', 'list_dir', { path: '.' })],
      [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Buy milk.' }],
        } as AgentInputItem,
      ],
    ]);
    const agent = new Agent({
      name: 'scripted',
      instructions: 'Help.',
      model,
      // Asks answered by Quiver's side (headless here: denied with the rule that would allow).
      tools: await quiverTools(session, { approval: 'quiver' }),
    });
    const result = await run(agent, 'What should I remember?', { maxTurns: 5 });
    expect(result.finalOutput).toBe('Buy milk.');
    expect(model.requests).toHaveLength(3);
    expect(model.requests[0]?.tools.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'list_dir']),
    );
    // What the model read back on its second turn: the file, and Quiver's denial as text.
    const secondInput = JSON.stringify(model.requests[1]?.input);
    expect(secondInput).toContain('remember the milk');
    expect(secondInput).toMatch(/Error \(not_permitted\)/);
    const log = await client.sessionLog('agents');
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual(
      expect.arrayContaining([
        ['oa-1', 'ok'],
        ['oa-2', 'error'],
        ['oa-3', 'ok'],
      ]),
    );
    await client.shutdown();
  });

  it("turns Quiver's asks into run interruptions: an approved call runs once, a rejected one never runs", async () => {
    const dir = workspace();
    const client = await QuiverClient.start({
      command: QUIVER_NODE,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'agents-approvals' });
    await session.ready();
    const model = new ScriptedModel([
      [call('w-1', 'write_file', { path: 'approved.txt', content: 'yes\n' })],
      [call('w-2', 'write_file', { path: 'refused.txt', content: 'no\n' })],
      [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Done.' }],
        } as AgentInputItem,
      ],
    ]);
    const agent = new Agent({
      name: 'scripted',
      instructions: 'Help.',
      model,
      tools: await quiverTools(session),
    });
    let result = await run(agent, 'Write the files.', { maxTurns: 5 });
    expect(result.interruptions.map((item) => item.rawItem)).toMatchObject([{ callId: 'w-1' }]);
    expect(existsSync(path.join(dir, 'approved.txt'))).toBe(false);
    for (const item of result.interruptions) result.state.approve(item);
    result = await run(agent, result.state, { maxTurns: 5 });
    expect(readFileSync(path.join(dir, 'approved.txt'), 'utf8')).toBe('yes\n');
    expect(result.interruptions.map((item) => item.rawItem)).toMatchObject([{ callId: 'w-2' }]);
    for (const item of result.interruptions) result.state.reject(item);
    result = await run(agent, result.state, { maxTurns: 5 });
    expect(result.finalOutput).toBe('Done.');
    expect(existsSync(path.join(dir, 'refused.txt'))).toBe(false);
    const log = await client.sessionLog('agents-approvals');
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual([['w-1', 'ok']]);
    await client.shutdown();
  });
});

describe("liveQuiverTools: the agent's tools follow session.tools_updated", { timeout: 60_000 }, () => {
  it("a tool the session gains mid-run is in the model's next turn and runs through Quiver", async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'personalities/agent.yaml'),
      'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir, lookup_weather]\n',
    );
    const client = await QuiverClient.start({
      command: QUIVER_NODE,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'agents-live' });
    await session.ready();
    const weather = {
      name: 'lookup_weather',
      description: 'The weather in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args: unknown) => `Sunny in ${(args as { city: string }).city}.`,
    };
    const model = new ScriptedModel([
      [call('l-1', 'read_file', { path: 'notes.txt' })],
      [call('l-2', 'lookup_weather', { city: 'Oslo' })],
      [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Sunny.' }],
        } as AgentInputItem,
      ],
    ]);
    const getResponse = model.getResponse.bind(model);
    // The harness gives the session a tool of its own while the model's first call is pending.
    model.getResponse = async (request) => {
      const response = await getResponse(request);
      if (model.requests.length === 1) await session.update({ externalTools: [weather] });
      return response;
    };
    const live = await liveQuiverTools(session);
    cleanups.push(() => live.stop());
    const agent = new Agent({ name: 'scripted', instructions: 'Help.', model, tools: live.tools });
    const result = await run(agent, 'Weather?', { maxTurns: 5 });
    const names = model.requests.map((request) => request.tools.map((entry) => entry.name));
    expect(names[0]).not.toContain('lookup_weather');
    expect(names[1]).toContain('lookup_weather');
    expect(result.finalOutput).toBe('Sunny.');
    expect(JSON.stringify(model.requests[2]?.input)).toContain('Sunny in Oslo.');
    const log = await client.sessionLog('agents-live');
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual([
      ['l-1', 'ok'],
      ['l-2', 'ok'],
    ]);
    await client.shutdown();
  });
});

describe('packages/openai-agents/README.md', { timeout: 90_000 }, () => {
  it('runs its example exactly as the README says', async () => {
    const repo = path.resolve(path.dirname(QUIVER_BIN), '../../..');
    const readme = readFileSync(path.join(repo, 'packages/openai-agents/README.md'), 'utf8');
    const command = /## Run the example[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trim() ?? '';
    expect(command).toContain('scripted-agent.mjs');
    const dir = workspace();
    // As a person's shell would have it: the Node that installed Quiver first on PATH.
    const nodeDir = path.dirname(QUIVER_NODE === 'node' ? process.execPath : QUIVER_NODE);
    const output = execFileSync('bash', ['-c', command], {
      cwd: repo,
      env: { ...process.env, PATH: `${nodeDir}:${process.env.PATH}`, XDG_DATA_HOME: path.join(dir, '.xdg') },
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toMatchObject({ toolsCalled: ['list_dir', 'read_file'], turns: 3 });
  });
});
