import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Database } from '@quiver/test-storage/drivers';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { defineTool, isQuiverError, ok } from '@quiver/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { SqliteSessionEventLog } from '../src/log/sqlite-session-event-log.js';
import {
  createHarness,
  type Harness,
  poolOf,
  removeTempDirs,
  tempDir,
} from './fixtures/lifecycle-harness.js';
import { echoTool, failingTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
const logs: SqliteSessionEventLog[] = [];
async function harness(...args: Parameters<typeof createHarness>): Promise<Harness> {
  const created = await createHarness(...args);
  harnesses.push(created);
  return created;
}
function openLog(dataDir: string): SqliteSessionEventLog {
  const log = new SqliteSessionEventLog({ dataDir, sqlite: sqliteBackend });
  logs.push(log);
  return log;
}

/** Another connection sees the log's writes once its writer thread has committed them: within milliseconds. */
function whenWritten(check: () => void | Promise<void>): Promise<void> {
  return vi.waitFor(check, { timeout: 5_000, interval: 5 });
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  for (const log of logs.splice(0)) log.close();
  await removeTempDirs();
});

const editTool = defineTool({
  name: 'edit_file',
  description: 'Pretends to edit files and reports what changed.',
  input: z.object({ edits: z.array(z.object({ path: z.string(), added: z.number(), removed: z.number() })) }),
  capabilities: {},
  execute: ({ edits }) => {
    const files = edits.map((edit) => ({
      path: edit.path,
      linesAdded: edit.added,
      linesRemoved: edit.removed,
    }));
    return ok(`edited ${files.length} files`, { structured: files.length === 1 ? files[0] : { files } });
  },
});

describe('SqliteSessionEventLog', () => {
  it('records each call with its arguments, status, code and duration, and only durable events, readable once execute returns', async () => {
    const h = await harness({ tools: [echoTool, failingTool], withLog: true, sessionId: 'logged' });
    await h.run([
      { id: 'c1', name: 'echo', args: { text: 'hello' } },
      { id: 'c2', name: 'broken', args: {} },
      { id: 'c3', name: 'missing', args: {} },
    ]);
    // Reading through the log the session writes to waits for what it handed over.
    const log = h.log as SqliteSessionEventLog;
    const calls = await log.sessionCalls('logged');
    // Calls start in the order asked (nothing to wait for before a cheap call starts); the unknown
    // tool is refused when its turn comes, without a start.
    expect(calls.map((call) => [call.callId, call.toolName, call.status, call.code])).toEqual([
      ['c1', 'echo', 'ok', undefined],
      ['c2', 'broken', 'error', 'execution_failed'],
      ['c3', 'missing', 'error', 'not_available'],
    ]);
    expect(calls[0]).toMatchObject({ args: { text: 'hello' }, structured: { length: 5 }, turn: 0 });
    expect(calls[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(calls[2]?.startedAt).toBeUndefined();
    const types = new Set((await log.sessionEvents('logged')).map((event) => event.type));
    expect(types.has('tool.user_requested')).toBe(true);
    expect(types.has('tool.execution_complete')).toBe(true);
    expect(types.has('tool.execution_start')).toBe(false);
    expect(types.has('tool.execution_partial_result')).toBe(false);
  });

  it('has a call on disk as running while its tool runs, and the batch’s completions soon after execute returns', async () => {
    let reader: SqliteSessionEventLog | undefined;
    const peek = defineTool({
      name: 'peek',
      description: 'Waits until the log has this call as running, then reports what the log holds.',
      input: z.object({}),
      capabilities: {},
      execute: async () => {
        const running = async () =>
          (await reader?.sessionCalls('behind'))?.some(
            (call) => call.callId === 'peeking' && call.status === 'running',
          );
        const deadline = Date.now() + 5_000;
        while (!(await running()) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 5));
        const calls = (await reader?.sessionCalls('behind')) ?? [];
        return ok(calls.map((call) => `${call.callId}:${call.status}`).join(' '));
      },
    });
    const h = await harness({ tools: [echoTool, peek], withLog: true, sessionId: 'behind' });
    reader = openLog(h.dataDir);
    const [, seen] = await h.run([
      { id: 'quick', name: 'echo', args: { text: 'done' } },
      { id: 'peeking', name: 'peek', args: {} },
    ]);
    expect(seen).toEqual(ok(expect.stringContaining('peeking:running') as unknown as string));
    await whenWritten(async () =>
      expect((await reader?.sessionCalls('behind'))?.map((call) => [call.callId, call.status])).toEqual([
        ['quick', 'ok'],
        ['peeking', 'ok'],
      ]),
    );
  });

  it('has the start of a call that runs other calls on disk before the tool runs, and an MCP call hands its start over without waiting', async () => {
    let reader: SqliteSessionEventLog | undefined;
    const seenBy = (sessionId: string) => async () => {
      const calls = (await reader?.sessionCalls(sessionId)) ?? [];
      return ok(calls.map((call) => `${call.callId}:${call.status}`).join(' '));
    };
    const orchestrator = defineTool({
      name: 'orchestrate',
      description: 'Reports, as it starts, what the log holds for it.',
      input: z.object({}),
      capabilities: { tools: true },
      execute: seenBy('ahead'),
    });
    const h = await harness({ tools: [orchestrator], withLog: true, sessionId: 'ahead' });
    reader = openLog(h.dataDir);
    const [seen] = await h.run([{ id: 'scripted-1', name: 'orchestrate', args: {} }]);
    expect(seen).toEqual(ok('scripted-1:running'));

    // A remote call waits for its server; by then its start is on its way to disk.
    const remote = defineTool({
      name: 'mcp__remote__lookup',
      description: 'Waits for its server, then reports what the log holds for it.',
      input: z.object({}),
      capabilities: {},
      execute: async () => {
        await whenWritten(async () =>
          expect((await reader?.sessionCalls('remote'))?.map((call) => call.status)).toEqual(['running']),
        );
        return seenBy('remote')();
      },
    });
    const r = await harness({
      pool: poolOf([{ tool: remote, source: 'mcp', mcpServer: 'remote' }]),
      tools: [remote],
      withLog: true,
      sessionId: 'remote',
    });
    reader = openLog(r.dataDir);
    const [remoteSeen] = await r.run([{ id: 'remote-1', name: 'mcp__remote__lookup', args: {} }]);
    expect(remoteSeen).toEqual(ok('remote-1:running'));
  });

  it('has every event on disk once the session is disposed, with nothing awaited before', async () => {
    const h = await harness({ tools: [echoTool], withLog: true, sessionId: 'disposed' });
    const batches = Array.from({ length: 20 }, (_, batch) =>
      h.run(
        Array.from({ length: 5 }, (_, index) => ({
          id: `b${batch}-c${index}`,
          name: 'echo',
          args: { text: `${batch}.${index}` },
        })),
        { turn: batch },
      ),
    );
    await Promise.all(batches);
    await h.executor.dispose();
    const calls = await openLog(h.dataDir).sessionCalls('disposed');
    expect(calls).toHaveLength(100);
    expect(calls.every((call) => call.status === 'ok')).toBe(true);
  });

  it('has an event published outside a batch on disk once the session closes', async () => {
    const h = await harness({ tools: [echoTool], withLog: true, sessionId: 'closing' });
    await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    h.executor.abort('the user pressed stop');
    await h.executor.dispose();
    expect((await openLog(h.dataDir).sessionEvents('closing')).map((event) => event.type)).toContain('abort');
  });

  it('logs every call of sessions running side by side in one process, without a warning', async () => {
    const dataDir = await tempDir('quiver-data-');
    // Calls to another server commit their start on the calling thread while the log's thread writes.
    const remote = defineTool({
      name: 'mcp__remote__echo',
      description: 'Echoes, as a bridged tool would.',
      input: z.object({ text: z.string() }),
      capabilities: {},
      execute: ({ text }) => ok(text),
    });
    const sessions = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        harness({
          tools: [echoTool, remote],
          pool: poolOf([echoTool, { tool: remote, source: 'mcp', mcpServer: 'remote' }]),
          withLog: true,
          dataDir,
          sessionId: `side-${index}`,
        }),
      ),
    );
    await Promise.all(
      sessions.map(async (h, index) => {
        for (let turn = 0; turn < 15; turn += 1) {
          await h.run(
            [
              { id: `s${index}-t${turn}-a`, name: 'echo', args: { text: 'a' } },
              { id: `s${index}-t${turn}-b`, name: 'mcp__remote__echo', args: { text: 'b' } },
            ],
            { turn },
          );
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    await Promise.all(sessions.map((h) => h.executor.dispose()));
    const reader = openLog(dataDir);
    for (const [index, h] of sessions.entries()) {
      const calls = await reader.sessionCalls(`side-${index}`);
      expect(calls).toHaveLength(30);
      expect(calls.every((call) => call.status === 'ok')).toBe(true);
      expect(h.events.filter((event) => event.type === 'session.warning')).toEqual([]);
    }
    expect((await reader.recentSessions(10)).every((session) => session.endedAt !== undefined)).toBe(true);
  });

  it('lists recent sessions with their personality, agent and call counts, most recent first', async () => {
    const dataDir = await tempDir('quiver-data-');
    const older = await harness({
      tools: [echoTool, failingTool],
      withLog: true,
      dataDir,
      sessionId: 'older',
    });
    await older.run([{ name: 'broken', args: {} }]);
    await older.dispose();
    const newer = await harness({ tools: [echoTool], withLog: true, dataDir, sessionId: 'newer' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await newer.run([
      { name: 'echo', args: { text: 'a' } },
      { name: 'echo', args: { text: 'b' } },
    ]);
    const reader = openLog(dataDir);
    await whenWritten(async () =>
      expect(
        (await reader.recentSessions(10)).map((session) => [session.id, session.calls, session.failedCalls]),
      ).toEqual([
        ['newer', 2, 0],
        ['older', 1, 1],
      ]),
    );
    const sessions = await reader.recentSessions(10);
    expect(sessions[0]).toMatchObject({
      personalityId: 'test-personality',
      agent: 'main',
      endedAt: undefined,
    });
    expect(sessions[1]?.endedAt).toBeTypeOf('number');
  });

  it('sums files changed and lines added and removed from edit results, per session and overall', async () => {
    const dataDir = await tempDir('quiver-data-');
    const first = await harness({
      tools: [editTool, failingTool],
      withLog: true,
      dataDir,
      sessionId: 'first',
    });
    await first.run([
      { name: 'edit_file', args: { edits: [{ path: 'src/a.ts', added: 10, removed: 2 }] } },
      {
        name: 'edit_file',
        args: {
          edits: [
            { path: 'src/a.ts', added: 1, removed: 1 },
            { path: 'README.md', added: 3, removed: 0 },
          ],
        },
      },
      { name: 'broken', args: {} },
    ]);
    const second = await harness({ tools: [editTool], withLog: true, dataDir, sessionId: 'second' });
    await second.run([{ name: 'edit_file', args: { edits: [{ path: 'src/b.ts', added: 4, removed: 4 }] } }]);

    const log = openLog(dataDir);
    await whenWritten(async () => expect(await log.fileEditMetrics()).toMatchObject({ filesChanged: 3 }));
    expect(await log.fileEditMetrics('first')).toEqual({
      filesChanged: 2,
      linesAdded: 14,
      linesRemoved: 3,
      files: [
        { path: 'README.md', linesAdded: 3, linesRemoved: 0, edits: 1 },
        { path: 'src/a.ts', linesAdded: 11, linesRemoved: 3, edits: 2 },
      ],
    });
    expect(await log.fileEditMetrics()).toMatchObject({ filesChanged: 3, linesAdded: 18, linesRemoved: 7 });
  });

  it('records a call id used again, in one write, as its latest call at its latest start', async () => {
    const h = await harness({ tools: [echoTool, failingTool], sessionId: 'again' });
    await h.run([{ id: 'same', name: 'echo', args: { text: 'first' } }], { turn: 1 });
    await h.run([{ id: 'same', name: 'broken', args: {} }], { turn: 2 });
    await h.run([{ id: 'other', name: 'echo', args: { text: 'third' } }], { turn: 3 });
    await h.settle();
    const recorded = h.events.filter(
      (event) => event.type !== 'tool.execution_partial_result' && event.type !== 'tool.execution_progress',
    );
    const log = openLog(await tempDir('quiver-data-'));
    log.appendAll(recorded);
    expect(
      (await log.sessionCalls('again')).map((call) => [call.callId, call.toolName, call.status, call.turn]),
    ).toEqual([
      ['same', 'broken', 'error', 2],
      ['other', 'echo', 'ok', 3],
    ]);
  });

  it('stores its data in WAL mode with a versioned schema', async () => {
    const dataDir = await tempDir('quiver-data-');
    openLog(dataDir).close();
    const db = new Database(`${dataDir}/sessions.db`, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(3);
    } finally {
      db.close();
    }
  });

  it('refuses a log written by a newer schema version instead of corrupting it', async () => {
    const dataDir = await tempDir('quiver-data-');
    const db = new Database(`${dataDir}/sessions.db`);
    db.pragma('user_version = 99');
    db.close();
    // The host still starts: every use of the log fails with the reason, and nothing is written.
    const log = openLog(dataDir);
    let error: unknown;
    try {
      await log.recentSessions();
    } catch (caught) {
      error = caught;
    }
    expect(isQuiverError(error) && error.code).toBe('config_invalid');
    expect(isQuiverError(log.unusable) && log.unusable.code).toBe('config_invalid');
  });
});

describe('a process that ends without closing its session', () => {
  it('still writes what its sessions handed over, then ends on its own', async () => {
    const dataDir = await tempDir('quiver-data-');
    const workspace = await tempDir('quiver-workspace-');
    const script = fileURLToPath(new URL('./fixtures/unclosed-session.mjs', import.meta.url));
    const child = spawn(process.execPath, [script, dataDir, workspace, 'unclosed'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(output).toContain('returned');
    expect(code).toBe(0);
    const calls = await openLog(dataDir).sessionCalls('unclosed');
    expect(calls).toHaveLength(50);
    expect(calls.every((call) => call.status === 'ok')).toBe(true);
  });
});

describe('orphaned calls', () => {
  it('marks a call interrupted when its process was killed, once the session resumes', async () => {
    const dataDir = await tempDir('quiver-data-');
    const workspace = await tempDir('quiver-workspace-');
    const script = fileURLToPath(new URL('./fixtures/hanging-session.mjs', import.meta.url));
    const child = spawn(process.execPath, [script, dataDir, workspace, 'resumable'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          if (String(chunk).includes('started')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`fixture exited early with ${code}: ${stderr}`)));
      });
    } finally {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }

    const before = await openLog(dataDir).sessionCalls('resumable');
    expect(before.map((call) => [call.callId, call.status])).toEqual([
      ['finished-1', 'ok'],
      ['orphan-1', 'running'],
    ]);

    const resumed = await harness({ tools: [echoTool], withLog: true, dataDir, sessionId: 'resumable' });
    expect(resumed.executor.interruptedCalls).toEqual(['orphan-1']);
    await resumed.settle();
    const warning = resumed.events.find((event) => event.type === 'session.warning');
    expect(warning && 'message' in warning && warning.message).toContain('orphan-1');

    const after = await (resumed.log as SqliteSessionEventLog).sessionCalls('resumable');
    expect(after.map((call) => [call.callId, call.status, call.code])).toEqual([
      ['finished-1', 'ok', undefined],
      ['orphan-1', 'interrupted', 'interrupted'],
    ]);
    expect(after[1]).toMatchObject({ toolName: 'hang', args: { label: 'never ends' } });
    const again = await harness({ tools: [echoTool], withLog: true, dataDir, sessionId: 'resumable' });
    expect(again.executor.interruptedCalls).toEqual([]);
  });
});
