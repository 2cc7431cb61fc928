import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quiver, REPO } from './helpers.js';
import {
  type RunningHttpServe,
  request2026,
  type SignedInServe,
  startHttpServe,
  startSignedInServe,
} from './serve-http-fixtures.js';

const FIXTURE_PLUGIN = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-plugin.js');
const CLIENTS = [
  { clientId: 'alice', clientSecret: 'alice-secret', claims: { groups: ['developers'] } },
  { clientId: 'bob', clientSecret: 'bob-secret', claims: { groups: ['developers'] } },
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
      'personalities/dev.yaml':
        'id: dev\nplugins: [tools-terminal, conformance-fixture]\npermissions:\n  allow: ["terminal(sleep:*)", "terminal(touch:*)", slow_compute, failing_job, confirm_delete]\n',
    },
  });
  ({ serve, dir } = running);
}, 60_000);

afterAll(async () => {
  await running?.close();
});

/** A 2026-07-28 request of a client that declares the tasks extension, signed in as `caller`. */
function request(caller: string, method: string, params: Record<string, unknown>, url = serve.url) {
  return request2026({ url, authorization: running.authorization }, caller, method, params, {
    clientName: 'tasks-test',
  });
}

async function untilSettled(caller: string, taskId: string): Promise<Record<string, any>> {
  for (;;) {
    const { result, error } = await request(caller, 'tasks/get', { taskId });
    if (!result) throw new Error(`tasks/get failed: ${JSON.stringify(error)}`);
    if (result.status !== 'working' && result.status !== 'input_required') return result;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('quiver serve --http running long calls as tasks (2026-07-28)', () => {
  it('runs a slow command as a task its caller polls to completion, which another caller cannot read', async () => {
    const created = await request('alice', 'tools/call', {
      name: 'terminal',
      arguments: { command: 'sleep 1.5 && touch finished.txt' },
    });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.result?.taskId);

    const foreign = await request('bob', 'tasks/get', { taskId });
    expect(foreign.error?.code).toBe(-32602);
    expect(foreign.error?.message).toContain('no task of yours');
    expect((await request('bob', 'tasks/cancel', { taskId })).error?.code).toBe(-32602);

    const settled = await untilSettled('alice', taskId);
    expect(settled.status).toBe('completed');
    expect(settled.result.isError).not.toBe(true);
    expect(existsSync(path.join(dir, 'finished.txt'))).toBe(true);
  });

  it('stops the command when its caller cancels the task, and the session log says it was aborted', async () => {
    const created = await request('alice', 'tools/call', {
      name: 'terminal',
      arguments: { command: 'sleep 2 && touch cancelled.txt' },
    });
    const taskId = String(created.result?.taskId);
    expect(created.result?.status).toBe('working');
    expect((await request('alice', 'tasks/cancel', { taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect((await untilSettled('alice', taskId)).status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(path.join(dir, 'cancelled.txt'))).toBe(false);

    // The call is logged in the session of the request that started it, under the task's call id.
    const callId = taskId.slice(taskId.indexOf('-') + 1);
    const listed = JSON.parse((await quiver(['--trust-project', 'log', '--json'], { cwd: dir })).stdout) as {
      sessions: Array<{ id: string; caller?: string; calls: number }>;
    };
    const logs = await Promise.all(
      listed.sessions
        .filter((session) => session.caller === 'alice' && session.calls > 0)
        .map(
          async (session) =>
            (await quiver(['--trust-project', 'log', '--session', session.id, '--json'], { cwd: dir }))
              .stdout,
        ),
    );
    const logged = logs.find((text) => text.includes(callId));
    expect(logged, `no session log holds call ${callId}`).toBeDefined();
    expect(logged).toContain('cancelled by the client (tasks/cancel)');
  });

  it('says on another replica that the task lives on the replica that created it', async () => {
    const created = await request('alice', 'tools/call', { name: 'slow_compute', arguments: { seconds: 5 } });
    const taskId = String(created.result?.taskId);
    const other = await startHttpServe(dir);
    try {
      const elsewhere = await request('alice', 'tasks/get', { taskId }, other.url);
      expect(elsewhere.error?.code).toBe(-32602);
      expect(elsewhere.error?.message).toContain('not created by this server process');
      expect(elsewhere.error?.message).toContain('Mcp-Name');
    } finally {
      await other.stop();
      await request('alice', 'tasks/cancel', { taskId });
    }
  });

  it('holds a question the task asks until its caller answers it with tasks/update', async () => {
    const created = await request('alice', 'tools/call', {
      name: 'confirm_delete',
      arguments: { filename: 'notes.txt' },
    });
    const taskId = String(created.result?.taskId);
    let waiting: Record<string, any> | undefined;
    for (let polls = 0; polls < 50 && waiting?.status !== 'input_required'; polls += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiting = (await request('alice', 'tasks/get', { taskId })).result;
    }
    expect(waiting?.status).toBe('input_required');
    const [key, question] = Object.entries(waiting?.inputRequests ?? {})[0] as [string, Record<string, any>];
    expect(question.method).toBe('elicitation/create');
    expect(JSON.stringify(question.params)).toContain('notes.txt');

    const answer = { [key]: { action: 'accept', content: { confirm: true } } };
    expect((await request('bob', 'tasks/update', { taskId, inputResponses: answer })).error?.code).toBe(
      -32602,
    );
    expect((await request('alice', 'tasks/update', { taskId, inputResponses: answer })).result).toMatchObject(
      {
        resultType: 'complete',
      },
    );
    const settled = await untilSettled('alice', taskId);
    expect(settled.status).toBe('completed');
    expect(settled.result.content[0].text).toContain('Deleted notes.txt');
  });

  it('refuses a task past the live tasks one caller may have, saying the limit and how to free one', async () => {
    const created = await Promise.all(
      Array.from({ length: 16 }, () =>
        request('bob', 'tools/call', { name: 'slow_compute', arguments: { seconds: 60 } }),
      ),
    );
    expect(created.map((answer) => answer.result?.resultType)).toEqual(Array(16).fill('task'));
    const running = created.map((answer) => String(answer.result?.taskId));
    const refused = await request('bob', 'tools/call', { name: 'failing_job', arguments: {} });
    expect(refused.error?.message).toContain('16 tasks running');
    expect(refused.error?.message).toContain('tasks/cancel');
    // Another caller's limit is their own.
    const alice = await request('alice', 'tools/call', { name: 'failing_job', arguments: {} });
    expect(alice.result?.resultType).toBe('task');
    for (const taskId of running) await request('bob', 'tasks/cancel', { taskId });
    expect(
      (await request('bob', 'tools/call', { name: 'failing_job', arguments: {} })).result?.resultType,
    ).toBe('task');
  });
});
