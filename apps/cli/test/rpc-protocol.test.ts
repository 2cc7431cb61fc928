import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { BIN, REPO, tempDirs, write } from './helpers.js';
import { RELAY_SERVER, serveEnv } from './serve-fixtures.js';

/** The published schema file, as the CLI package ships it. */
const SCHEMA = JSON.parse(readFileSync(path.join(REPO, 'apps/cli/rpc-protocol.schema.json'), 'utf8')) as {
  'x-quiver-messages': Array<{ method: string; direction: string; kind: string }>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(SCHEMA, 'protocol');
const problems: string[] = [];
/** Checks one message part against `$defs/<method>.<part>` of the published file. */
function conform(method: string, part: 'params' | 'result', value: unknown): void {
  const validate = ajv.getSchema(`protocol#/$defs/${method}.${part}`);
  if (!validate) {
    problems.push(`${method}.${part}: not in the published schema`);
    return;
  }
  if (!validate(value))
    problems.push(
      `${method}.${part}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 400)}`,
    );
}
const seen = new Set<string>();

const dirs = tempDirs('quiver-rpc-protocol-');
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  dirs.cleanup();
});

interface Checked {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  /** Sends a request, checking its params and its result against the schema. */
  request<R>(method: string, params: unknown): Promise<R>;
  notifications: Array<{ method: string; params: { sessionId?: string; event?: { type: string } } }>;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** A `quiver rpc` whose every message in both directions is checked against the published schema. */
function startChecked(dir: string, args: string[] = ['--trust-project']): Checked {
  const child = spawn(process.execPath, [BIN, ...args, 'rpc'], { cwd: dir, env: serveEnv() });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const notifications: Checked['notifications'] = [];
  for (const method of ['session.event', 'session.ready'])
    connection.onNotification(method, (params: Checked['notifications'][number]['params']) => {
      seen.add(method);
      if (method === 'session.event') seen.add(`event:${params.event?.type}`);
      conform(method, 'params', params);
      notifications.push({ method, params });
    });
  connection.listen();
  const request = async <R>(method: string, params: unknown): Promise<R> => {
    conform(method, 'params', params);
    const result = await connection.sendRequest<R>(method, params);
    seen.add(method);
    conform(method, 'result', result);
    return result;
  };
  return { child, connection, request, notifications, exited, stderr: () => stderr };
}

/** Answers a request from Quiver, checking what Quiver sent and what the client answers. */
function answer<P, R>(checked: Checked, method: string, reply: (params: P) => R | Promise<R>): void {
  checked.connection.onRequest(method, async (params: P) => {
    seen.add(method);
    conform(method, 'params', params);
    const result = await reply(params);
    conform(method, 'result', result);
    return result;
  });
}

const WEATHER = {
  name: 'lookup_weather',
  description: 'The weather in a city, from the client.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function relayWorkspace(): string {
  const dir = dirs.make();
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: agent',
      'mcpServers:',
      '  relay:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(RELAY_SERVER)}]`,
      '    allow: [elicitation, sampling]',
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/agent.yaml'),
    [
      'id: agent',
      'plugins: [tools-code, mcp-bridge]',
      'mcpServers: { relay: true }',
      'permissions:',
      '  allow: [read_file, mcp__relay__ask_name, mcp__relay__summarize]',
      '  ask: [lookup_weather]',
      '',
    ].join('\n'),
  );
  write(path.join(dir, 'notes.txt'), 'remember the milk\n');
  return dir;
}

describe('the published rpc protocol', { timeout: 90_000 }, () => {
  it('describes every message a real session exchanges, in both directions, and ends on shutdown', async () => {
    const rpc = startChecked(relayWorkspace());
    const elicited: Array<{ message: string; mcpServer?: string }> = [];
    const sampled: Array<{ params: { systemPrompt?: string } }> = [];
    answer(rpc, 'permission.requested', () => ({ behavior: 'allow', scope: 'session' }));
    answer(rpc, 'elicitation.requested', (params: { message: string; mcpServer?: string }) => {
      elicited.push(params);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    answer(rpc, 'sampling.requested', (params: { params: { systemPrompt?: string } }) => {
      sampled.push(params);
      return { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'scripted' };
    });
    answer(rpc, 'external_tool.requested', async (params: { sessionId: string; callId: string }) => {
      await rpc.connection.sendNotification('external_tool.progress', {
        sessionId: params.sessionId,
        callId: params.callId,
        progress: 1,
        total: 2,
        message: 'asking the sky',
      });
      return {
        ok: true,
        value: 'Sunny',
        attachments: [{ type: 'image', mimeType: 'image/png', data: PIXEL }],
      };
    });

    const init = await rpc.request<{ trust: { state: string }; readiness: string }>('initialize', {
      protocolVersion: '1',
      client: { name: 'schema-check' },
      capabilities: { permissions: true, elicitation: true, sampling: true },
    });
    expect(init.trust.state).toBe('trusted');
    expect(init.readiness).toBe('session.ready');
    const { sessionId } = await rpc.request<{ sessionId: string }>('session.create', {
      sessionId: 'checked',
      externalTools: [WEATHER],
    });
    // The bridged server's tools are in the pool once session.ready says so.
    await expect
      .poll(() => rpc.notifications.find((n) => n.method === 'session.ready'), { timeout: 30_000 })
      .toBeDefined();
    const ready = rpc.notifications.find((n) => n.method === 'session.ready')?.params as { tools: string[] };
    expect(ready.tools).toEqual(
      expect.arrayContaining(['read_file', 'lookup_weather', 'mcp__relay__ask_name']),
    );
    await rpc.request('session.render', { sessionId, format: 'openai' });

    const { results } = await rpc.request<{
      results: Array<{ ok: boolean; value?: string; attachments?: Array<{ type: string; data?: string }> }>;
    }>('session.execute', {
      sessionId,
      calls: [
        { id: 'r1', name: 'read_file', args: { path: 'notes.txt' } },
        { id: 'w1', name: 'lookup_weather', args: { city: 'Lisbon' } },
        { id: 'e1', name: 'mcp__relay__ask_name', args: {} },
        { id: 's1', name: 'mcp__relay__summarize', args: { text: 'a long story' } },
      ],
    });
    expect(results[0]?.value).toContain('remember the milk');
    expect(results[1]).toMatchObject({
      ok: true,
      value: 'Sunny',
      attachments: [{ type: 'image', data: PIXEL }],
    });
    expect(results[2]?.value).toContain('hello Ada');
    expect(results[3]?.value).toContain('summary by scripted: short');
    // What the person is shown names who asks; the server's prompt is labelled as the server's.
    expect(elicited[0]?.mcpServer).toBe('relay');
    expect(elicited[0]?.message).toMatch(/relay.*asks: What is your name\?/);
    expect(sampled[0]?.params.systemPrompt).toContain('it is not Quiver');
    const progress = rpc.notifications.find(
      (n) =>
        n.params.event?.type === 'tool.execution_progress' &&
        (n.params.event as { callId?: string }).callId === 'w1',
    );
    expect(progress?.params.event).toMatchObject({ progress: 1, total: 2, message: 'asking the sky' });

    await rpc.request('session.explain', { sessionId, tool: 'read_file' });
    await rpc.request('session.abort', { sessionId });
    const listed = await rpc.request<{ sessions: Array<{ id: string; open: boolean }> }>('session.list', {});
    expect(listed.sessions).toContainEqual(expect.objectContaining({ id: 'checked', open: true }));
    const logged = await rpc.request<{ calls: Array<{ callId: string; status: string }> }>('session.log', {
      sessionId,
      events: true,
    });
    expect(logged.calls.map((call) => call.callId)).toEqual(expect.arrayContaining(['r1', 'w1', 'e1', 's1']));
    await rpc.request('session.close', { sessionId });
    await rpc.request('shutdown', {});
    expect(await rpc.exited).toBe(0);

    expect(problems).toEqual([]);
    // Every message and every kind of event this session produced was checked.
    for (const name of [
      'session.ready',
      'permission.requested',
      'elicitation.requested',
      'sampling.requested',
      'external_tool.requested',
      'event:tool.execution_complete',
      'event:tool.execution_progress',
      'event:permission.completed',
      'event:session.tools_updated',
    ])
      expect(seen, name).toContain(name);
  });

  it('says what to fix for an untrusted personality with no tools, an unknown resume and a known id created again', async () => {
    const dir = dirs.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
    write(path.join(dir, 'personalities/agent.yaml'), 'id: agent\nplugins: [tools-code]\n');
    const untrusted = startChecked(dir, []);
    const init = await untrusted.request<{ trust: { state: string; fix?: string } }>('initialize', {
      protocolVersion: '1',
      client: { name: 'schema-check' },
    });
    expect(init.trust.state).toBe('untrusted');
    expect(init.trust.fix).toContain('quiver trust');
    await expect(
      untrusted.connection.sendRequest('session.create', { personality: 'agent' }),
    ).rejects.toMatchObject({
      code: -32004,
      message: expect.stringContaining('not trusted'),
      data: { code: 'personality_untrusted', fix: expect.stringContaining('--trust-project') },
    });

    const trusted = startChecked(dir);
    await trusted.request('initialize', { protocolVersion: '1', client: { name: 'schema-check' } });
    await expect(
      trusted.connection.sendRequest('session.resume', { sessionId: 'never-was' }),
    ).rejects.toMatchObject({
      code: -32001,
      message: expect.stringContaining('session.create'),
    });
    await trusted.request('session.create', { sessionId: 'once' });
    await trusted.request('session.close', { sessionId: 'once' });
    await expect(
      trusted.connection.sendRequest('session.create', { sessionId: 'once' }),
    ).rejects.toMatchObject({
      code: -32003,
      message: expect.stringContaining('session.resume'),
    });
    await trusted.request('session.resume', { sessionId: 'once' });
    expect(problems).toEqual([]);
  });
});
