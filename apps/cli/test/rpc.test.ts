import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { BIN, tempDirs, write } from './helpers.js';
import { serveEnv } from './serve-fixtures.js';

const dirs = tempDirs('quiver-rpc-');

interface RpcEvent {
  sessionId: string;
  event: { type: string; callId?: string; toolName?: string };
}

interface Rpc {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  events: RpcEvent[];
  stderr: () => string;
}

const running: Rpc[] = [];
afterEach(async () => {
  for (const rpc of running.splice(0)) {
    rpc.connection.dispose();
    if (rpc.child.exitCode === null) rpc.child.kill('SIGKILL');
  }
  dirs.cleanup();
});

function workspace(): string {
  const dir = dirs.make();
  write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
  write(
    path.join(dir, 'personalities/agent.yaml'),
    'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, lookup_weather]\n',
  );
  write(path.join(dir, 'notes.txt'), 'remember the milk\n');
  return dir;
}

function startRpc(dir: string, env: Record<string, string> = {}): Rpc {
  const child = spawn(process.execPath, [BIN, '--trust-project', 'rpc'], {
    cwd: dir,
    env: { ...serveEnv(), ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const events: RpcEvent[] = [];
  connection.onNotification('session.event', (params: RpcEvent) => {
    events.push(params);
  });
  connection.listen();
  const rpc = { child, connection, events, stderr: () => stderr };
  running.push(rpc);
  return rpc;
}

const initialize = (connection: MessageConnection, permissions = false) =>
  connection.sendRequest('initialize', {
    protocolVersion: '1',
    client: { name: 'rpc-test' },
    capabilities: { permissions },
  });

const WEATHER = {
  name: 'lookup_weather',
  description: 'The weather in a city, from the client.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('quiver rpc', { timeout: 90_000 }, () => {
  it('renders definitions and runs a first-party and a client-executed tool through the pipeline, with events', async () => {
    const rpc = startRpc(workspace());
    const asked: unknown[] = [];
    rpc.connection.onRequest(
      'external_tool.requested',
      (params: { toolName: string; arguments: { city: string } }) => {
        asked.push(params);
        return { ok: true, value: `Sunny in ${params.arguments.city}` };
      },
    );
    await initialize(rpc.connection);
    const { sessionId } = await rpc.connection.sendRequest<{ sessionId: string }>('session.create', {
      externalTools: [WEATHER],
    });
    const rendered = await rpc.connection.sendRequest<{ tools: Array<{ name: string }> }>('session.render', {
      sessionId,
      format: 'openai',
    });
    const names = JSON.stringify(rendered.tools);
    expect(names).toContain('read_file');
    expect(names).toContain('lookup_weather');

    const { results } = await rpc.connection.sendRequest<{ results: Array<{ ok: boolean; value?: string }> }>(
      'session.execute',
      {
        sessionId,
        calls: [
          { id: 'r1', name: 'read_file', args: { path: 'notes.txt' } },
          { id: 'w1', name: 'lookup_weather', args: { city: 'Lisbon' } },
          { id: 'w2', name: 'lookup_weather', args: { town: 'Porto' } },
        ],
      },
    );
    expect(results[0]?.value).toContain('remember the milk');
    expect(results[1]).toMatchObject({ ok: true, value: 'Sunny in Lisbon' });
    // Validated against the client's schema before the client is ever asked.
    expect(results[2]).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(asked).toHaveLength(1);
    const types = (callId: string) =>
      rpc.events.filter((e) => e.event.callId === callId).map((e) => e.event.type);
    expect(types('w1')).toEqual(
      expect.arrayContaining(['tool.user_requested', 'tool.execution_start', 'tool.execution_complete']),
    );
    expect(types('r1')).toContain('tool.execution_complete');
  });

  it('puts permission asks to a client that can answer them, and honours its answer', async () => {
    const rpc = startRpc(workspace());
    const prompts: Array<{ toolName: string; args: { city: string } }> = [];
    rpc.connection.onRequest(
      'permission.requested',
      (params: { toolName: string; args: { city: string } }): Record<string, string> => {
        prompts.push(params);
        return params.args.city === 'Oslo'
          ? { behavior: 'allow', scope: 'once' }
          : { behavior: 'deny', reason: 'not that city' };
      },
    );
    rpc.connection.onRequest('external_tool.requested', () => ({ ok: true, value: 'Snow' }));
    await initialize(rpc.connection, true);
    const { sessionId } = await rpc.connection.sendRequest<{ sessionId: string }>('session.create', {
      externalTools: [{ ...WEATHER, name: 'forecast' }],
    });
    const { results } = await rpc.connection.sendRequest<{ results: Array<{ ok: boolean; error?: string }> }>(
      'session.execute',
      {
        sessionId,
        calls: [
          { id: 'f1', name: 'forecast', args: { city: 'Oslo' } },
          { id: 'f2', name: 'forecast', args: { city: 'Bergen' } },
        ],
      },
    );
    expect(results[0]).toMatchObject({ ok: true });
    expect(results[1]).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(results[1]?.error).toContain('not that city');
    expect(prompts.map((prompt) => prompt.toolName)).toEqual(['forecast', 'forecast']);
  });

  it('aborts a call the client is still running, cancels its request, and times out a client that never answers', async () => {
    const rpc = startRpc(workspace());
    const cancelled: string[] = [];
    rpc.connection.onRequest('external_tool.requested', (params: { callId: string }, token) => {
      token.onCancellationRequested(() => cancelled.push(params.callId));
      return new Promise(() => {});
    });
    await initialize(rpc.connection);
    const { sessionId } = await rpc.connection.sendRequest<{ sessionId: string }>('session.create', {
      externalTools: [WEATHER, { ...WEATHER, name: 'slow_weather', timeoutMs: 300, skipPermission: true }],
    });
    const executing = rpc.connection.sendRequest<{ results: Array<{ ok: boolean; code?: string }> }>(
      'session.execute',
      {
        sessionId,
        calls: [{ id: 'hang', name: 'lookup_weather', args: { city: 'Rome' } }],
        turn: 3,
      },
    );
    while (!rpc.events.some((e) => e.event.type === 'tool.execution_start'))
      await new Promise((r) => setTimeout(r, 20));
    const { aborted } = await rpc.connection.sendRequest<{ aborted: number }>('session.abort', {
      sessionId,
      turn: 3,
    });
    expect(aborted).toBe(1);
    expect((await executing).results[0]).toMatchObject({ ok: false, code: 'aborted' });
    await expect.poll(() => cancelled).toEqual(['hang']);

    const timed = await rpc.connection.sendRequest<{
      results: Array<{ ok: boolean; code?: string; error?: string }>;
    }>('session.execute', {
      sessionId,
      calls: [{ id: 'late', name: 'slow_weather', args: { city: 'Rome' } }],
    });
    expect(timed.results[0]).toMatchObject({ ok: false, code: 'timeout' });
    expect(timed.results[0]?.error).toContain('timeoutMs');
  });

  it('marks the unfinished calls of a killed process interrupted when the session is resumed', async () => {
    const dir = workspace();
    const first = startRpc(dir);
    first.connection.onRequest('external_tool.requested', () => new Promise(() => {}));
    await initialize(first.connection);
    await first.connection.sendRequest('session.create', {
      sessionId: 'long-lived',
      externalTools: [WEATHER],
    });
    void first.connection
      .sendRequest('session.execute', {
        sessionId: 'long-lived',
        calls: [{ id: 'cut-short', name: 'lookup_weather', args: { city: 'Kyiv' } }],
      })
      .catch(() => {});
    while (!first.events.some((e) => e.event.type === 'tool.execution_start'))
      await new Promise((r) => setTimeout(r, 20));
    // The call's start is durable before the client is asked; give the batched log its moment.
    await new Promise((r) => setTimeout(r, 400));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = startRpc(dir);
    await initialize(second.connection);
    const resumed = await second.connection.sendRequest<{ interruptedCalls: string[] }>('session.resume', {
      sessionId: 'long-lived',
      externalTools: [WEATHER],
    });
    expect(resumed.interruptedCalls).toEqual(['cut-short']);
    expect(existsSync(path.join(dir, '.quiver'))).toBe(true);
  });

  it('answers bad requests with JSON-RPC errors that say what to fix', async () => {
    const rpc = startRpc(workspace());
    await expect(rpc.connection.sendRequest('session.create', {})).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining('initialize'),
    });
    await expect(
      rpc.connection.sendRequest('initialize', { protocolVersion: '9', client: { name: 'x' } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('protocol version 1') });
    await initialize(rpc.connection);
    await expect(
      rpc.connection.sendRequest('session.create', {
        externalTools: [{ name: 'bad name!', description: 'x' }],
      }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('externalTools.0.name') });
    await expect(
      rpc.connection.sendRequest('session.execute', { sessionId: 'nope', calls: [] }),
    ).rejects.toMatchObject({
      code: -32001,
    });
    await expect(
      rpc.connection.sendRequest('session.create', { personality: 'missing' }),
    ).rejects.toMatchObject({
      code: -32010,
      message: expect.stringContaining('missing'),
    });
    await expect(rpc.connection.sendRequest('session.frobnicate', {})).rejects.toMatchObject({
      code: -32601,
    });
  });
});
