import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteDriverPath } from '@quiver/test-storage/drivers';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import type { QuiverEvent } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, SqliteSessionEventLog } from '../src/index.js';
import { builtInTool, makeDeps, makePolicy, newRegistry } from './assembly-helpers.js';
import { removeTempDirs, tempDir } from './fixtures/lifecycle-harness.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** A second process that holds the write lock of the session log until told to let go. */
const HOLDER = `
const Database = require(${JSON.stringify(sqliteDriverPath)});
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
db.prepare("UPDATE sessions SET agent = agent WHERE id = 'nobody'").run();
process.stdout.write('holding\\n');
process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
`;

const holders: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const holder of holders.splice(0)) {
    if (holder.exitCode === null && holder.signalCode === null) {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
  }
  await removeTempDirs();
});

async function holdLog(path: string): Promise<ChildProcessWithoutNullStreams> {
  const holder = spawn(process.execPath, ['-e', HOLDER, path], { cwd: packageDir, stdio: 'pipe' });
  holders.push(holder);
  let stderr = '';
  holder.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (chunk) => {
      if (String(chunk).includes('holding')) resolve();
    });
    holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}: ${stderr}`)));
  });
  return holder;
}

describe.each([
  'thread',
  'calling-thread',
] as const)('a session log another process holds (writer: %s)', (writer) => {
  it('runs the calls, keeps the event loop free and degrades to a warning instead of throwing', async () => {
    const dataDir = await tempDir('quiver-busy-log-');
    const log = new SqliteSessionEventLog({ dataDir, sqlite: sqliteBackend, writer });
    const holder = await holdLog(join(dataDir, 'sessions.db'));
    const registry = newRegistry();
    registry.register(builtInTool('echo'), { pluginId: 'code' });
    const session = createSession(
      makeDeps(registry, makePolicy({ permissions: { allow: ['echo'] } }), { eventLog: log, dataDir }),
      {
        sessionId: 'busy-session',
      },
    );
    const events: QuiverEvent[] = [];
    session.events.subscribe((event) => events.push(event));
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 10);
    try {
      const [result] = await session.execute([{ id: 'c1', name: 'echo', args: { value: 'hi' } }]);
      expect(result).toMatchObject({ ok: true });
      const ticksAtResult = ticks;
      while (!events.some((event) => event.type === 'session.warning')) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const warning = events.find((event) => event.type === 'session.warning');
      expect(warning).toMatchObject({ code: 'log_busy' });
      expect(warning && 'message' in warning && warning.message).toMatch(/locked by another process/);
      // The retries waited on timers: the loop kept running while the log was busy.
      expect(ticks - ticksAtResult).toBeGreaterThan(10);
    } finally {
      clearInterval(ticker);
    }
    holder.stdin.write('release\n');
    await once(holder, 'exit');
    await session.execute([{ id: 'c2', name: 'echo', args: { value: 'after' } }]);
    await session.close();
    // The session's own records gave up; the call's events waited (on the log's writer thread,
    // or in the session writer's retries on the calling thread) and outlast a lock released
    // within the patience.
    const calls = await log.sessionCalls('busy-session');
    expect(calls.map((call) => [call.callId, call.status])).toEqual([
      ['c1', 'ok'],
      ['c2', 'ok'],
    ]);
    log.close();
  });

  it('writes everything once the other process lets go within the patience', async () => {
    const dataDir = await tempDir('quiver-busy-log-');
    const log = new SqliteSessionEventLog({ dataDir, sqlite: sqliteBackend, writer });
    const holder = await holdLog(join(dataDir, 'sessions.db'));
    const registry = newRegistry();
    registry.register(builtInTool('echo'), { pluginId: 'code' });
    const session = createSession(
      makeDeps(registry, makePolicy({ permissions: { allow: ['echo'] } }), { eventLog: log, dataDir }),
      {
        sessionId: 'brief-lock',
      },
    );
    const events: QuiverEvent[] = [];
    session.events.subscribe((event) => events.push(event));
    const [result] = await session.execute([{ id: 'c1', name: 'echo', args: { value: 'hi' } }]);
    expect(result).toMatchObject({ ok: true });
    setTimeout(() => holder.stdin.write('release\n'), 200);
    await session.close();
    expect(events.filter((event) => event.type === 'session.warning')).toEqual([]);
    expect((await log.sessionCalls('brief-lock')).map((call) => [call.callId, call.status])).toEqual([
      ['c1', 'ok'],
    ]);
    log.close();
  });
});
