import { describeStorage, STORAGE_KINDS, useTestStorage } from '@quiver/test-storage';
import { structuredOf, WorkerProcess } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { type Memory, memoryList } from '../src/index.js';
import { fixturePath } from './fixtures/fixture-path.js';

const FACTS = Array.from(
  { length: 40 },
  (_, index) => `Service number ${index} is owned by team ${String.fromCharCode(65 + (index % 26))}${index}.`,
);

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`two processes saving at once on ${kind}`, () => {
    const storage = useTestStorage(kind, { prefix: 'quiver-memory-concurrent', personalityId: 'assistant' });
    let savers: WorkerProcess[] = [];

    afterEach(async () => {
      await Promise.all(savers.map((saver) => saver.stop()));
      savers = [];
    });

    /** Both savers save every fact (the second in capitals) at once; resolves with every result. */
    async function saveTwice(saverArgs: string[]): Promise<{ ok: boolean }[]> {
      savers = [0, 1].map(() => new WorkerProcess(fixturePath('memory-saver.mjs'), saverArgs));
      const results = await Promise.all(
        savers.map((saver, which) =>
          Promise.all(
            FACTS.map((text) =>
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
      return results.flat();
    }

    async function expectOneMemoryPerFact(): Promise<void> {
      const { memories, total } = structuredOf<{ memories: Memory[]; total: number }>(
        await storage().call(memoryList, { scope: 'project', limit: 200 }),
      );
      expect(total).toBe(FACTS.length);
      expect(memories.every((memory) => memory.saveCount === 2)).toBe(true);
      expect(memories.every((memory) => memory.tags.sort().join() === 'saver-0,saver-1')).toBe(true);
    }

    it('end up with one memory per fact when they save the same facts concurrently', async () => {
      const results = await saveTwice([storage().location]);
      // Any failed save is printed whole, so a failure says which save and why.
      expect(results.filter((result) => !result.ok)).toEqual([]);
      await expectOneMemoryPerFact();
    }, 180_000);

    if (kind === 'sqlite') {
      it('lose no save when SQLite gives up waiting for the write lock long before the other process releases it', async () => {
        // A 1 ms busy timeout makes every collision surface as SQLITE_BUSY, as a long wait on a
        // slow, loaded machine would with the default timeout.
        const results = await saveTwice([storage().location, '1']);
        expect(results.filter((result) => !result.ok)).toEqual([]);
        await expectOneMemoryPerFact();
      }, 180_000);
    }
  });
}
