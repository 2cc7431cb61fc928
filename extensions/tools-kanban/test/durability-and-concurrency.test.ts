import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describeStorage, STORAGE_KINDS, useTestStorage } from '@quiver/test-storage';
import { openDatabase } from '@quiver/test-storage/sqlite';
import { structuredOf, type TestStorage, WorkerProcess } from '@quiver/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  KANBAN_DATABASE,
  KANBAN_MIGRATIONS,
  kanbanCreate,
  kanbanGet,
  type Ticket,
  type TicketDetails,
} from '../src/index.js';
import { fixturePath } from './fixtures/fixture-path.js';

// Each test drives child processes: generous under a loaded machine, where they take many times longer.
const PROCESS_TEST_TIMEOUT_MS = 180_000;

// The storage of the running test, on the backend of its describe block.
let storage: TestStorage;

/** Ticket ids and commented ticket ids as the board's storage holds them now. */
async function storedIds(): Promise<{ tickets: Set<number>; commented: Set<number> }> {
  const handle = await storage.handle({ scopes: ['project'] });
  const store = await handle.connect(KANBAN_DATABASE, { scope: 'project', migrations: KANBAN_MIGRATIONS });
  const tickets = await store.all<{ id: number }>('SELECT id FROM tickets');
  const comments = await store.all<{ ticket_id: number }>('SELECT ticket_id FROM comments');
  return {
    tickets: new Set(tickets.map((row) => row.id)),
    commented: new Set(comments.map((row) => row.ticket_id)),
  };
}

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`kanban on ${kind}`, () => {
    const current = useTestStorage(kind, { prefix: 'quiver-kanban', personalityId: 'planner' });
    beforeEach(() => {
      storage = current();
    });

    describe('durability', () => {
      it(
        'keeps every acknowledged ticket and comment when the writing process is killed mid-way',
        async () => {
          const planned = 5_000;
          const child = spawn(
            process.execPath,
            [fixturePath('kanban-writer.mjs'), storage.location, 'writer', String(planned)],
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

          const stored = await storedIds();
          expect(acknowledged.filter((id) => !stored.tickets.has(id))).toEqual([]);
          expect(acknowledged.filter((id) => !stored.commented.has(id))).toEqual([]);
          if (kind === 'sqlite') {
            const database = openDatabase(
              join(storage.dataDir, 'storage', 'project', 'kanban.db'),
              KANBAN_MIGRATIONS.sqlite,
            );
            try {
              expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
            } finally {
              database.close();
            }
          }
        },
        PROCESS_TEST_TIMEOUT_MS,
      );
    });

    describe('concurrency', () => {
      let workers: WorkerProcess[] = [];

      afterEach(async () => {
        await Promise.all(workers.map((worker) => worker.stop()));
        workers = [];
      });

      it(
        'lets exactly one of two processes win each round of updates to the same ticket',
        async () => {
          const ticket = structuredOf<{ ticket: Ticket }>(
            await storage.call(kanbanCreate, { title: 'Contended ticket' }),
          ).ticket;
          workers = ['left', 'right'].map(
            (name) => new WorkerProcess(fixturePath('kanban-worker.mjs'), [storage.location, name]),
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
        },
        PROCESS_TEST_TIMEOUT_MS,
      );

      it(
        'refuses the move of the process that read a stale version and names the state that won',
        async () => {
          workers = ['left', 'right'].map(
            (name) => new WorkerProcess(fixturePath('kanban-worker.mjs'), [storage.location, name]),
          );
          const rounds = 10;
          for (let round = 0; round < rounds; round += 1) {
            const ticket = structuredOf<{ ticket: Ticket }>(
              await storage.call(kanbanCreate, { title: `Contended move ${round}` }),
            ).ticket;
            const targets = ['in_progress', 'blocked'];
            const moved = await Promise.all(
              workers.map((worker, index) =>
                worker.request({
                  tool: 'kanban_move',
                  args: { id: ticket.id, version: ticket.version, status: targets[index] },
                }),
              ),
            );
            const winners = moved.flatMap((result, index) => (result.ok ? [targets[index]!] : []));
            expect(winners).toHaveLength(1);
            const lost = moved.find((result) => !result.ok);
            expect(lost.code).toBe('stale_write');
            expect(lost.error).toContain(`version 2, not 1`);
            expect(lost.error).toContain(`is now ${winners[0]}`);
            expect(lost.structured.ticket).toMatchObject({ status: winners[0], version: 2 });
            const final = structuredOf<{ ticket: TicketDetails }>(
              await storage.call(kanbanGet, { id: ticket.id }),
            ).ticket;
            expect(final.history.map((change) => change.to)).toEqual(['todo', winners[0]]);
          }
        },
        PROCESS_TEST_TIMEOUT_MS,
      );

      it(
        'loses no update when two processes edit the same ticket at once without versions',
        async () => {
          const ticket = structuredOf<{ ticket: Ticket }>(
            await storage.call(kanbanCreate, { title: 'Busy ticket' }),
          ).ticket;
          workers = ['left', 'right'].map(
            (name) => new WorkerProcess(fixturePath('kanban-worker.mjs'), [storage.location, name]),
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
              ['left', 'right'].flatMap((name) =>
                Array.from({ length: count }, (_, index) => `${name}-${index}`),
              ),
            ),
          );
        },
        PROCESS_TEST_TIMEOUT_MS,
      );
    });
  });
}
