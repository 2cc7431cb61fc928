import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openDatabase } from '@quiver/storage-sqlite';
import { createTestStorage, structuredOf, type TestStorage, WorkerProcess } from '@quiver/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEMORY_MIGRATIONS, type Memory, memoryList, memorySearch } from '../src/index.js';
import { fixturePath } from './fixtures/fixture-path.js';

let storage: TestStorage;

beforeEach(async () => {
  storage = await createTestStorage({ prefix: 'quiver-memory', personalityId: 'assistant' });
});

afterEach(async () => {
  await storage.dispose();
});

it('keeps every acknowledged memory, searchable, when the saving process is killed mid-way', async () => {
  const planned = 5_000;
  const child = spawn(
    process.execPath,
    [fixturePath('memory-writer.mjs'), storage.dataDir, 'writer', String(planned)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const acknowledged: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    acknowledged.push(line);
    if (acknowledged.length === 600) child.kill('SIGKILL');
  }
  expect(await exited, stderr).toBe('SIGKILL');
  expect(acknowledged.length).toBeLessThan(planned);

  const database = openDatabase(
    join(storage.dataDir, 'storage', 'personality', 'assistant', 'memory.db'),
    MEMORY_MIGRATIONS,
  );
  try {
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
    // Throws SQLITE_CORRUPT_VTAB when the full-text index disagrees with the table.
    database.prepare(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`).run();
    const stored = new Set(
      (database.prepare('SELECT id FROM memories').all() as { id: number }[]).map(
        (row) => `personality:${row.id}`,
      ),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  } finally {
    database.close();
  }
  const last = acknowledged.length - 1;
  const { results } = structuredOf<{ results: Memory[] }>(
    await storage.call(memorySearch, { query: `server ${last} port ${10_000 + last}`, limit: 1 }),
  );
  expect(results.map((memory) => memory.id)).toEqual([acknowledged[last]]);
});

describe('two processes saving at once', () => {
  let savers: WorkerProcess[] = [];

  afterEach(async () => {
    await Promise.all(savers.map((saver) => saver.stop()));
    savers = [];
  });

  it('end up with one memory per fact when they save the same facts concurrently', async () => {
    savers = [0, 1].map(() => new WorkerProcess(fixturePath('memory-saver.mjs'), [storage.dataDir]));
    const facts = Array.from(
      { length: 40 },
      (_, index) =>
        `Service number ${index} is owned by team ${String.fromCharCode(65 + (index % 26))}${index}.`,
    );
    const results = await Promise.all(
      savers.map((saver, which) =>
        Promise.all(
          facts.map((text) =>
            saver.request({
              args: {
                text: which === 0 ? text : text.toUpperCase(),
                scope: 'project',
                tags: [`saver-${which}`],
              },
            }),
          ),
        ),
      ),
    );
    // Any failed save is printed whole, so a failure says which save and why.
    expect(results.flat().filter((result) => !result.ok)).toEqual([]);
    const { memories, total } = structuredOf<{ memories: Memory[]; total: number }>(
      await storage.call(memoryList, { scope: 'project', limit: 200 }),
    );
    expect(total).toBe(facts.length);
    expect(memories.every((memory) => memory.saveCount === 2)).toBe(true);
    expect(memories.every((memory) => memory.tags.sort().join() === 'saver-0,saver-1')).toBe(true);
  });
});
