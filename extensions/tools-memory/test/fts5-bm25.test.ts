import { join } from 'node:path';
import { openDatabase } from '@quiver/test-storage/sqlite';
import { createTestStorage, structuredOf, type TestStorage } from '@quiver/test-utils';
import type { SqlDatabase } from '@quiver/types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MEMORY_MIGRATIONS, memorySave } from '../src/index.js';
import { memoryQuery } from '../src/memory-text.js';
import { fts5Bm25, phraseInstances, tokenPhrases } from '../src/search/fts5-bm25.js';
import { fts5Expression } from '../src/search/fts5-expression.js';
import { EQUAL_WEIGHTS, SEARCH_WEIGHTS, type SearchPhrase } from '../src/search/search-phrase.js';
import { searchTokens } from '../src/search/search-tokens.js';
import { CORPUS, PARAPHRASED_QUERIES } from './fixtures/memory-corpus.js';

// The PostgreSQL backend ranks with fts5Bm25; SQLite's own FTS5 is the oracle it must agree with.
let storage: TestStorage;
let database: SqlDatabase;
let rows: { id: number; columns: string[][] }[];

beforeAll(async () => {
  storage = await createTestStorage({ prefix: 'quiver-memory-bm25', personalityId: 'assistant' });
  for (const memory of CORPUS)
    structuredOf(await storage.call(memorySave, { text: memory.text, tags: memory.tags }));
  database = openDatabase(
    join(storage.dataDir, 'storage', 'personality', 'assistant', 'memory.db'),
    MEMORY_MIGRATIONS.sqlite,
  );
  rows = (
    database.prepare('SELECT id, search_terms, search_tags, search_expansions FROM memories').all() as {
      id: number;
      search_terms: string;
      search_tags: string;
      search_expansions: string;
    }[]
  ).map((row) => ({
    id: row.id,
    columns: [row.search_terms, row.search_tags, row.search_expansions].map(searchTokens),
  }));
});

afterAll(async () => {
  database?.close();
  await storage.dispose();
});

function fts5Scores(phrases: SearchPhrase[], weights: readonly number[]): Map<number, number> {
  const matched = database
    .prepare(
      `SELECT rowid AS id, bm25(memories_fts, ${weights.join(', ')}) AS score FROM memories_fts
       WHERE memories_fts MATCH ?`,
    )
    .all(fts5Expression(phrases)) as { id: number; score: number }[];
  return new Map(matched.map((row) => [row.id, row.score]));
}

function countMatches(phrase: SearchPhrase): number {
  return (
    database
      .prepare('SELECT count(*) AS hits FROM memories_fts WHERE memories_fts MATCH ?')
      .get(fts5Expression([phrase])) as { hits: number }
  ).hits;
}

function expectSameScores(phrases: SearchPhrase[], weights: typeof SEARCH_WEIGHTS): number {
  const expected = fts5Scores(phrases, weights);
  const tokens = tokenPhrases(phrases);
  const statistics = {
    rows: rows.length,
    tokens: rows.reduce((sum, row) => sum + row.columns.flat().length, 0),
    hits: phrases.map(countMatches),
  };
  const computed = new Map<number, number>();
  for (const row of rows) {
    const matches = tokens.some((phrase) =>
      phrase.columns.some((column) => phraseInstances(phrase, row.columns[column]!) > 0),
    );
    if (matches) computed.set(row.id, fts5Bm25(tokens, row.columns, weights, statistics));
  }
  expect([...computed.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [id, score] of expected) expect(computed.get(id)).toBeCloseTo(score, 9);
  return expected.size;
}

it.each(PARAPHRASED_QUERIES)('matches and scores the memories SQLite FTS5 finds for "%s"', (query) => {
  expect(expectSameScores(memoryQuery(query).phrases, SEARCH_WEIGHTS)).toBeGreaterThan(0);
});

it('scores a near-duplicate lookup, restricted to the text terms, the way FTS5 does', () => {
  const phrases = ['deploy', 'friday', 'product', 'releas', 'window'].map(
    (text): SearchPhrase => ({ text, prefix: false, columns: ['search_terms'] }),
  );
  expect(expectSameScores(phrases, EQUAL_WEIGHTS)).toBeGreaterThan(1);
});

it('matches a prefix phrase against every longer token, and a phrase of two words only where they are adjacent', () => {
  const phrases: SearchPhrase[] = [
    { text: 'commit messag', prefix: false, columns: ['search_terms'] },
    { text: 'pull req', prefix: true, columns: ['search_terms', 'search_tags', 'search_expansions'] },
    { text: 'conf', prefix: true, columns: ['search_terms', 'search_tags'] },
  ];
  expect(expectSameScores(phrases, SEARCH_WEIGHTS)).toBeGreaterThan(1);
});
