import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';
import {
  type RunningHttpServe,
  request2026,
  type SignedInServe,
  startSignedInServe,
} from './serve-http-fixtures.js';

// Attacks from outside on serve's 2026-07-28 input-required state and tasks, by signed-in callers.

const FIXTURE_PLUGIN = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-plugin.js');
// carol and dave sign in through the same OAuth client (one app, two people): distinct callers.
const CLIENTS = [
  {
    clientId: 'carol',
    clientSecret: 'carol-secret',
    claims: { groups: ['developers'], client_id: 'shared-app' },
  },
  {
    clientId: 'dave',
    clientSecret: 'dave-secret',
    claims: { groups: ['developers'], client_id: 'shared-app' },
  },
  { clientId: 'erin', clientSecret: 'erin-secret', claims: { groups: ['developers'] } },
];

let running: SignedInServe;
let serve: RunningHttpServe;
let dir: string;

beforeAll(async () => {
  running = await startSignedInServe({
    clients: CLIENTS,
    personalities: { developers: 'dev' },
    plugins: [FIXTURE_PLUGIN],
    files: {
      // terminal is asked about each time; the fixture's task tools run without asking.
      'personalities/dev.yaml':
        'id: dev\nplugins: [tools-terminal, conformance-fixture]\npermissions:\n  allow: [failing_job, slow_compute, confirm_delete, test_input_required_result_elicitation]\n',
    },
  });
  ({ serve, dir } = running);
}, 60_000);

afterAll(async () => {
  await running?.close();
});

/** One 2026-07-28 request signed in as `caller`, declaring form elicitation and (with `tasks`) the tasks extension. */
function request(caller: string, method: string, params: Record<string, unknown>, tasks = true) {
  return request2026({ url: serve.url, authorization: running.authorization }, caller, method, params, {
    clientName: 'redteam',
    tasks,
  });
}

const YES = { quiver_permission: { action: 'accept', content: { decision: 'once' } } };

describe('attacks on quiver serve --http 2026-07-28 state and tasks', () => {
  it("refuses one caller's input-required state replayed by another caller signed in through the same OAuth client", async () => {
    const call = { name: 'terminal', arguments: { command: 'touch replayed' } };
    const asked = await request('carol', 'tools/call', call, false);
    expect(asked.result?.resultType).toBe('input_required');
    const requestState = String(asked.result?.requestState);

    const replayed = await request(
      'dave',
      'tools/call',
      { ...call, requestState, inputResponses: YES },
      false,
    );
    expect(replayed.error?.code).toBe(-32602);
    expect(existsSync(path.join(dir, 'replayed'))).toBe(false);

    // Its own caller's answer is taken.
    const answered = await request(
      'carol',
      'tools/call',
      { ...call, requestState, inputResponses: YES },
      false,
    );
    expect(answered.result?.isError).toBeFalsy();
    expect(existsSync(path.join(dir, 'replayed'))).toBe(true);
  });

  it('keeps a caller at 16 live tasks when it starts 20 tasks at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => request('erin', 'tools/call', { name: 'failing_job', arguments: {} })),
    );
    const tasks = answers.filter((answer) => answer.result?.resultType === 'task');
    const refused = answers.filter((answer) => answer.error?.message.includes('16 tasks running'));
    expect(tasks).toHaveLength(16);
    expect(refused).toHaveLength(4);
    for (const task of tasks) await request('erin', 'tasks/cancel', { taskId: task.result?.taskId });
  });

  it("refuses an answer that does not fit the question's schema, as a 2025-11-25 client's would be", async () => {
    const call = { name: 'test_input_required_result_elicitation', arguments: {} };
    const asked = await request('erin', 'tools/call', call, false);
    expect(asked.result?.resultType).toBe('input_required');
    const [key] = Object.keys(asked.result?.inputRequests ?? {});
    const requestState = String(asked.result?.requestState);

    const offSchema = { [String(key)]: { action: 'accept', content: { name: 42, role: 'admin' } } };
    const refused = await request(
      'erin',
      'tools/call',
      { ...call, requestState, inputResponses: offSchema },
      false,
    );
    expect(refused.result?.isError).toBe(true);
    expect(JSON.stringify(refused.result?.content)).toContain('does not match the question');
    expect(JSON.stringify(refused.result?.content)).not.toContain('admin');

    const fitting = { [String(key)]: { action: 'accept', content: { name: 'Erin' } } };
    const answered = await request(
      'erin',
      'tools/call',
      { ...call, requestState, inputResponses: fitting },
      false,
    );
    expect(answered.result?.isError).toBeFalsy();
    expect(JSON.stringify(answered.result?.content)).toContain('Erin');
  });

  it("refuses a task's tasks/update answer that does not fit the question's schema", async () => {
    const created = await request('erin', 'tools/call', {
      name: 'confirm_delete',
      arguments: { filename: 'a.txt' },
    });
    const taskId = String(created.result?.taskId);
    let waiting: Record<string, any> | undefined;
    for (let polls = 0; polls < 50 && waiting?.status !== 'input_required'; polls += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiting = (await request('erin', 'tasks/get', { taskId })).result;
    }
    const [key] = Object.keys(waiting?.inputRequests ?? {});
    const malformed = await request('erin', 'tasks/update', {
      taskId,
      inputResponses: { [String(key)]: { action: 'agree' } },
    });
    expect(malformed.error?.code).toBe(-32602);
    expect(malformed.error?.message).toContain('not a valid ElicitResult');
    expect((await request('erin', 'tasks/get', { taskId })).result?.status).toBe('input_required');
    const offSchema = { [String(key)]: { action: 'accept', content: { confirm: 'yes', also: 'rm -rf' } } };
    await request('erin', 'tasks/update', { taskId, inputResponses: offSchema });
    let task: Record<string, any> | undefined;
    for (let polls = 0; polls < 50 && (!task || task.status === 'working'); polls += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      task = (await request('erin', 'tasks/get', { taskId })).result;
    }
    expect(task?.status).toBe('completed');
    expect(task?.result.isError).toBe(true);
    expect(JSON.stringify(task?.result.content)).toContain('does not match the question');
  });

  it("refuses another caller's token on a 2025-11-25 session, and lists nobody's tasks", async () => {
    const post = async (caller: string, body: unknown, session?: string) =>
      fetch(serve.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${await running.authorization.tokenFor(caller, serve.url)}`,
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify(body),
      });
    const opened = await post('carol', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'carol', version: '1' },
      },
    });
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    expect(session).not.toBe('');
    await (await post('carol', { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    const hijack = await post('dave', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, session);
    expect(hijack.status).toBe(403);
    expect(await hijack.text()).toContain('opened by another caller');
    const own = await post('carol', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, session);
    expect(own.status).toBe(200);
    await own.text();

    expect((await request('erin', 'tasks/list', {})).error?.code).toBe(-32601);
  });

  it('asks the permission question of a slow command in the request, then runs it as a task once approved', async () => {
    const call = { name: 'terminal', arguments: { command: 'sleep 1 && touch tasked' } };
    const asked = await request('erin', 'tools/call', call);
    expect(asked.result?.resultType).toBe('input_required');
    expect(asked.result?.inputRequests.quiver_permission.params.message).toContain('touch tasked');
    const requestState = String(asked.result?.requestState);

    const started = await request('erin', 'tools/call', { ...call, requestState, inputResponses: YES });
    expect(started.result?.resultType).toBe('task');
    const taskId = String(started.result?.taskId);
    let task: Record<string, any> | undefined;
    for (let polls = 0; polls < 50 && (!task || task.status === 'working'); polls += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      task = (await request('erin', 'tasks/get', { taskId })).result;
    }
    expect(task?.status).toBe('completed');
    expect(existsSync(path.join(dir, 'tasked'))).toBe(true);
  });
});
