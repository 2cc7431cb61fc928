import { describeStorage, STORAGE_KINDS } from '@quiver/test-storage';
import { structuredOf } from '@quiver/test-utils';
import { expect, it } from 'vitest';
import { memorySearch, type ScoredMemory } from '../src/index.js';
import { type CorpusStorage, useCorpusStorage } from './fixtures/corpus-storage.js';
import { PARAPHRASED_QUERIES } from './fixtures/memory-corpus.js';

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`memory_search ranking on ${kind}`, () => {
    const corpus = useCorpusStorage(kind, 'quiver-memory-ranking');

    async function rankedKeys(args: Record<string, unknown>): Promise<(string | undefined)[]> {
      const { storage, keyOf } = corpus();
      const { results } = structuredOf<{ results: ScoredMemory[] }>(await storage.call(memorySearch, args));
      return results.map((result) => keyOf.get(result.id));
    }

    it.each(PARAPHRASED_QUERIES)('ranks the expected memory first for "%s"', async (query, expected) => {
      const keys = await rankedKeys({ query });
      expect(keys[0], `ranking: ${keys.join(', ')}`).toBe(expected);
    });

    it('narrows results to memories carrying every requested tag', async () => {
      expect(await rankedKeys({ query: 'user preferences commit', tags: ['git', 'preferences'] })).toEqual([
        'emoji',
      ]);
    });

    it('says so when nothing matches', async () => {
      const result = await corpus().storage.call(memorySearch, { query: 'kubernetes helm charts' });
      expect(result.ok && result.value).toBe('No memories match "kubernetes helm charts".');
    });

    if (kind === 'postgres') {
      // SQLite's FTS5 is the oracle: PostgreSQL must rank exactly as it does.
      const sqlite = useCorpusStorage('sqlite', 'quiver-memory-oracle');

      async function ranking({ storage, keyOf }: CorpusStorage, query: string) {
        const { results } = structuredOf<{ results: ScoredMemory[] }>(
          await storage.call(memorySearch, { query, limit: 50 }),
        );
        return results.map((result) => ({ key: keyOf.get(result.id), score: result.score }));
      }

      it.each(
        PARAPHRASED_QUERIES,
      )('finds the memories SQLite finds, in the same order and with the same scores, for "%s"', async (query) => {
        const expected = await ranking(sqlite(), query);
        const actual = await ranking(corpus(), query);
        expect(actual.map((result) => result.key)).toEqual(expected.map((result) => result.key));
        for (const [index, result] of expected.entries())
          expect(actual[index]?.score).toBeCloseTo(result.score, 9);
      });
    }
  });
}
