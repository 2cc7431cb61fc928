import { createTestStorage, describeStorage, STORAGE_KINDS } from '@quiver/test-storage';
import { structuredOf, type TestStorage, usePostgresServer } from '@quiver/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memorySave, memorySearch, type ScoredMemory } from '../src/index.js';

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`synonyms and inflections on ${kind}`, () => {
    const postgres = kind === 'postgres' ? usePostgresServer() : undefined;
    let storage: TestStorage;

    beforeAll(async () => {
      storage = await createTestStorage({
        prefix: 'quiver-memory-synonyms',
        personalityId: 'assistant',
        backend: kind,
        ...(postgres ? { postgres: postgres() } : {}),
      });
      for (const text of [
        'Background jobs run on BullMQ workers that read from the Redis queue.',
        'Sam drinks oat milk flat whites and no dairy.',
        'Every pull request needs one approval before it is merged.',
        'Customer data of EU users must stay in EU regions.',
      ])
        structuredOf(await storage.call(memorySave, { text }));
    }, 120_000);

    afterAll(async () => {
      await storage.dispose();
    });

    async function best(query: string): Promise<string | undefined> {
      return structuredOf<{ results: ScoredMemory[] }>(await storage.call(memorySearch, { query })).results[0]
        ?.text;
    }

    it('finds a memory through a synonym from WordNet when the request shares no word with it', async () => {
      expect(await best('what do they consume')).toBe('Sam drinks oat milk flat whites and no dairy.');
    });

    it('finds a memory through a software term written another way', async () => {
      expect(await best('what processes async work')).toBe(
        'Background jobs run on BullMQ workers that read from the Redis queue.',
      );
      expect(await best('reviews on merge requests')).toBe(
        'Every pull request needs one approval before it is merged.',
      );
    });

    it('finds a memory by another inflection of its words', async () => {
      expect(await best('storing european customers’ data')).toBe(
        'Customer data of EU users must stay in EU regions.',
      );
    });
  });
}
