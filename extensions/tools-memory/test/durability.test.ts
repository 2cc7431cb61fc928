import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openDatabase } from '@quiver/test-storage/sqlite';
import { createTestStorage, structuredOf, type TestStorage } from '@quiver/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MEMORY_MIGRATIONS, type Memory, memorySearch } from '../src/index.js';
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
    MEMORY_MIGRATIONS.sqlite,
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
