import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeStorage, STORAGE_KINDS, useTestStorage } from '@quiver/test-storage';
import { openDatabase } from '@quiver/test-storage/sqlite';
import { createTestStorage, structuredOf, type TestStorage } from '@quiver/test-utils';
import { TEXT_ANALYZER_VERSION } from '@quiver/text-search';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MEMORY_DATABASE,
  MEMORY_MIGRATIONS,
  type Memory,
  memorySave,
  memorySearch,
  type ScoredMemory,
} from '../src/index.js';

describe('SQLite databases written before analysed search', () => {
  let storage: TestStorage;

  beforeEach(async () => {
    storage = await createTestStorage({ prefix: 'quiver-memory-migration', personalityId: 'assistant' });
  });

  afterEach(async () => {
    await storage.dispose();
  });

  /**
   * A personality memory database at schema version 1, with rows inserted by the statement the
   * first version of memory_save ran: what users have on disk before analysed search.
   */
  function writeVersionOneDatabase(texts: { text: string; tags: string[] }[]): string {
    const directory = join(storage.dataDir, 'storage', 'personality', 'assistant');
    mkdirSync(directory, { recursive: true });
    const path = join(directory, 'memory.db');
    const database = openDatabase(path, MEMORY_MIGRATIONS.sqlite.slice(0, 1));
    const insert = database.prepare(
      `INSERT INTO memories (text, normalized, tags, tag_text, saved_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { text, tags } of texts) {
      const normalized =
        text
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu)
          ?.join(' ') ?? '';
      insert.run(
        text,
        normalized,
        JSON.stringify(tags),
        tags.join(' '),
        'assistant',
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
      );
    }
    expect(database.pragma('user_version', { simple: true })).toBe(1);
    database.close();
    return path;
  }

  async function search(query: string): Promise<ScoredMemory[]> {
    return structuredOf<{ results: ScoredMemory[] }>(
      await storage.call(memorySearch, { query, scopes: ['personality'] }),
    ).results;
  }

  it('re-indexes memories saved before analysed search, so old memories are found by stems and synonyms', async () => {
    const path = writeVersionOneDatabase([
      { text: 'Never deploy to production on Fridays.', tags: ['deploy'] },
      { text: 'Open one pull request per change and keep it small.', tags: ['git'] },
      { text: 'The staging database is PostgreSQL 16.', tags: ['infrastructure'] },
    ]);

    expect((await search('deploying on a friday')).map((memory) => memory.text)).toEqual([
      'Never deploy to production on Fridays.',
    ]);
    expect((await search('how big should a merge request be'))[0]?.text).toBe(
      'Open one pull request per change and keep it small.',
    );

    const database = openDatabase(path, MEMORY_MIGRATIONS.sqlite);
    try {
      expect(database.pragma('user_version', { simple: true })).toBe(MEMORY_MIGRATIONS.sqlite.length);
      // Throws SQLITE_CORRUPT_VTAB when the full-text index disagrees with the table.
      database.prepare(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`).run();
      expect(
        database.prepare('SELECT count(*) AS stale FROM memories WHERE search_version = 0').get(),
      ).toEqual({
        stale: 0,
      });
    } finally {
      database.close();
    }
  });

  it('merges a new save into a memory saved before analysed search instead of adding a copy', async () => {
    writeVersionOneDatabase([{ text: 'The user prefers tabs over spaces.', tags: ['style'] }]);
    const saved = structuredOf<{ memory: Memory; merged: boolean }>(
      await storage.call(memorySave, { text: 'The user prefers tabs over spaces!', tags: ['editor'] }),
    );
    expect(saved.merged).toBe(true);
    expect(saved.memory.tags).toEqual(['style', 'editor']);
    expect((await search('indentation with tabs')).map((memory) => memory.id)).toEqual([saved.memory.id]);
  });
});

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`re-indexing on ${kind}`, () => {
    const fresh = useTestStorage(kind, { prefix: 'quiver-memory-reindex', personalityId: 'assistant' });

    it('re-indexes memories another text analyzer indexed, so search finds them by today’s stems again', async () => {
      for (const text of ['Never deploy to production on Fridays.', 'The staging database is PostgreSQL 16.'])
        structuredOf(await fresh().call(memorySave, { text }));
      const handle = await fresh().handle({ scopes: ['personality'] });
      const store = await handle.connect(MEMORY_DATABASE, {
        scope: 'personality',
        migrations: MEMORY_MIGRATIONS,
      });
      // What an analyzer whose output no longer matches today's queries leaves behind.
      await store.run(
        `UPDATE memories SET search_terms = 'stale', search_tags = '', search_expansions = '', search_version = 0${
          kind === 'postgres' ? `, search_length = 1, search_vector = '''stale'':1A'::tsvector` : ''
        }`,
      );
      const { results } = structuredOf<{ results: ScoredMemory[] }>(
        await fresh().call(memorySearch, { query: 'deploying on a friday' }),
      );
      expect(results.map((memory) => memory.text)).toEqual(['Never deploy to production on Fridays.']);
      expect(
        await store.get('SELECT count(*) AS stale FROM memories WHERE search_version <> ?', [
          TEXT_ANALYZER_VERSION,
        ]),
      ).toEqual({ stale: 0 });
    });
  });
}
