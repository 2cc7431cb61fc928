import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { openSharedDatabase, type SharedDatabase } from '@quiver/test-storage/postgres';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { SESSION_LOG_MIGRATIONS } from '../src/log/schema.js';
import { SharedSessionEventLog } from '../src/log/shared-session-event-log.js';
import { createHarness, type Harness, removeTempDirs, tempDir } from './fixtures/lifecycle-harness.js';
import { echoTool } from './fixtures/test-tools.js';

const LEASE_MS = 600;
const script = fileURLToPath(new URL('./fixtures/hanging-postgres-session.mjs', import.meta.url));

describeWithSystemTools(['postgres', 'initdb'])('the session log on PostgreSQL shared by replicas', () => {
  const server = usePostgresServer();
  const databases: SharedDatabase[] = [];
  const children: ChildProcess[] = [];
  const harnesses: Harness[] = [];

  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
    await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
    await Promise.all(databases.splice(0).map((database) => database.close()));
    await removeTempDirs();
  });

  async function replica(url: string): Promise<SharedSessionEventLog> {
    const database = await openSharedDatabase({ url, project: 'test', leaseMs: LEASE_MS });
    databases.push(database);
    return new SharedSessionEventLog({
      store: await database.openStore('session-log', SESSION_LOG_MIGRATIONS),
      replica: database.replica!,
    });
  }

  /** Another replica process, running a call that never ends; resolves once the log has it running. */
  async function replicaProcessMidCall(url: string, sessionId: string): Promise<ChildProcess> {
    const workspace = await tempDir('quiver-workspace-');
    const child = spawn(process.execPath, [script, url, workspace, sessionId, String(LEASE_MS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        if (String(chunk).includes('started')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`replica exited early with ${code}: ${stderr}`)));
    });
    return child;
  }

  it('marks the call of a killed replica interrupted for the replica that resumes its session, and leaves a live replica running', async () => {
    const url = await server().freshDatabase('log');
    const killed = await replicaProcessMidCall(url, 'session-on-killed');
    await replicaProcessMidCall(url, 'session-on-live');
    killed.kill('SIGKILL');
    await once(killed, 'exit');

    const log = await replica(url);
    // Before the killed replica's lease runs out it is not known to be dead: nothing is taken.
    expect(await log.recoverOrphans('session-on-killed')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));

    const resumed = await createHarness({
      tools: [echoTool],
      sharedLog: log,
      sessionId: 'session-on-killed',
    });
    harnesses.push(resumed);
    await expect.poll(() => resumed.executor.interruptedCalls).toEqual(['orphan-of-session-on-killed']);
    await expect
      .poll(() => resumed.events.find((event) => event.type === 'session.warning'))
      .toMatchObject({ message: expect.stringContaining('orphan-of-session-on-killed') });

    const killedCalls = await log.sessionCalls('session-on-killed');
    expect(killedCalls.map((call) => [call.callId, call.status, call.code])).toEqual([
      ['orphan-of-session-on-killed', 'interrupted', 'interrupted'],
    ]);
    expect(killedCalls[0]).toMatchObject({ toolName: 'hang', args: { label: 'never ends' } });
    expect(await log.recoverDeadReplicas()).toEqual([]);
    const liveCalls = await log.sessionCalls('session-on-live');
    expect(liveCalls.map((call) => call.status)).toEqual(['running']);
  });

  it('lets a live replica report every call a dead replica left running, once', async () => {
    const url = await server().freshDatabase('log');
    const killed = await replicaProcessMidCall(url, 'abandoned');
    const reporter = await replica(url);
    killed.kill('SIGKILL');
    await once(killed, 'exit');
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));

    const recovered = await reporter.recoverDeadReplicas();
    expect(recovered).toEqual([
      expect.objectContaining({ sessionId: 'abandoned', callId: 'orphan-of-abandoned', toolName: 'hang' }),
    ]);
    expect(await reporter.recoverDeadReplicas()).toEqual([]);
    const summary = (await reporter.recentSessions()).find((session) => session.id === 'abandoned');
    expect(summary).toMatchObject({ calls: 1, interruptedCalls: 1, failedCalls: 0 });
  });

  it('records the calls a session runs on one replica so that another replica reads them', async () => {
    const url = await server().freshDatabase('log');
    const writer = await replica(url);
    const reader = await replica(url);
    // Opened by a signed-in caller; an executor that names none later keeps who called.
    writer.beginSession({ id: 'shared', caller: 'alice@example.test' });
    const harness = await createHarness({ tools: [echoTool], sharedLog: writer, sessionId: 'shared' });
    harnesses.push(harness);
    await harness.run([{ id: 'call-1', name: 'echo', args: { text: 'hello' } }], { turn: 1 });
    await writer.flushed();
    const calls = await reader.sessionCalls('shared');
    expect(calls.map((call) => [call.callId, call.toolName, call.status])).toEqual([
      ['call-1', 'echo', 'ok'],
    ]);
    expect(calls[0]?.args).toEqual({ text: 'hello' });
    // The summary's token count reads the completion's resultTokens out of PostgreSQL's JSON text.
    const [summary] = await reader.recentSessions();
    expect(summary).toMatchObject({ id: 'shared', calls: 1, caller: 'alice@example.test' });
    expect(summary?.resultTokens).toBeGreaterThan(0);
    expect(summary?.definitionTokens).toBeUndefined();
  });
});
