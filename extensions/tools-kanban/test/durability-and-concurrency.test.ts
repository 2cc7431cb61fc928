import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openDatabase } from '@quiver/storage-sqlite';
import { createTestStorage, structuredOf, type TestStorage, WorkerProcess } from '@quiver/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KANBAN_MIGRATIONS, kanbanCreate, kanbanGet, type Ticket, type TicketDetails } from '../src/index.js';
import { fixturePath } from './fixtures/fixture-path.js';

let storage: TestStorage;

beforeEach(async () => {
  storage = await createTestStorage({ prefix: 'quiver-kanban', personalityId: 'planner' });
});

afterEach(async () => {
  await storage.dispose();
});

describe('durability', () => {
  it('keeps every acknowledged ticket and comment when the writing process is killed mid-way', async () => {
    const planned = 5_000;
    const child = spawn(
      process.execPath,
      [fixturePath('kanban-writer.mjs'), storage.dataDir, 'writer', String(planned)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const acknowledged: number[] = [];
    for await (const line of createInterface({ input: child.stdout })) {
      acknowledged.push(Number(line));
      if (acknowledged.length === 600) child.kill('SIGKILL');
    }
    expect(await exited, stderr).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(600);
    expect(acknowledged.length).toBeLessThan(planned);

    const database = openDatabase(
      join(storage.dataDir, 'storage', 'project', 'kanban.db'),
      KANBAN_MIGRATIONS,
    );
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      const ticketIds = new Set(
        (database.prepare('SELECT id FROM tickets').all() as { id: number }[]).map((row) => row.id),
      );
      const commented = new Set(
        (database.prepare('SELECT ticket_id FROM comments').all() as { ticket_id: number }[]).map(
          (row) => row.ticket_id,
        ),
      );
      expect(acknowledged.filter((id) => !ticketIds.has(id))).toEqual([]);
      expect(acknowledged.filter((id) => !commented.has(id))).toEqual([]);
    } finally {
      database.close();
    }
  });
});

describe('concurrency', () => {
  let workers: WorkerProcess[] = [];

  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
  });

  it('lets exactly one of two processes win each round of updates to the same ticket', async () => {
    const ticket = structuredOf<{ ticket: Ticket }>(
      await storage.call(kanbanCreate, { title: 'Contended ticket' }),
    ).ticket;
    workers = ['left', 'right'].map(
      (name) => new WorkerProcess(fixturePath('kanban-worker.mjs'), [storage.dataDir, name]),
    );
    const rounds = 15;
    const winners: string[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const read = await Promise.all(
        workers.map((worker) => worker.request({ tool: 'kanban_get', args: { id: ticket.id } })),
      );
      const versions = read.map((result) => result.structured.ticket.version);
      expect(versions[0]).toBe(versions[1]);
      const names = ['left', 'right'];
      const written = await Promise.all(
        workers.map((worker, index) =>
          worker.request({
            tool: 'kanban_update',
            args: { id: ticket.id, version: versions[index], addLabels: [`${names[index]}-${round}`] },
          }),
        ),
      );
      const won = written.flatMap((result, index) => (result.ok ? [names[index]!] : []));
      expect(won).toHaveLength(1);
      const lost = written.find((result) => !result.ok);
      expect(lost.code).toBe('stale_write');
      expect(lost.error).toContain(`version ${versions[0] + 1}`);
      winners.push(`${won[0]}-${round}`);
    }
    const final = structuredOf<{ ticket: TicketDetails }>(
      await storage.call(kanbanGet, { id: ticket.id }),
    ).ticket;
    expect(final.version).toBe(1 + rounds);
    expect(final.labels).toEqual(winners);
  });

  it('loses no update when two processes edit the same ticket at once without versions', async () => {
    const ticket = structuredOf<{ ticket: Ticket }>(
      await storage.call(kanbanCreate, { title: 'Busy ticket' }),
    ).ticket;
    workers = ['left', 'right'].map(
      (name) => new WorkerProcess(fixturePath('kanban-worker.mjs'), [storage.dataDir, name]),
    );
    const count = 150;
    const bursts = await Promise.all(
      workers.map((worker) => worker.request({ burst: { ticketId: ticket.id, count } })),
    );
    expect(bursts).toEqual([
      { ok: true, failures: [] },
      { ok: true, failures: [] },
    ]);
    const final = structuredOf<{ ticket: TicketDetails }>(
      await storage.call(kanbanGet, { id: ticket.id }),
    ).ticket;
    expect(final.version).toBe(1 + 2 * count);
    expect(final.labels).toHaveLength(2 * count);
    expect(new Set(final.labels)).toEqual(
      new Set(
        ['left', 'right'].flatMap((name) => Array.from({ length: count }, (_, index) => `${name}-${index}`)),
      ),
    );
  });
});
