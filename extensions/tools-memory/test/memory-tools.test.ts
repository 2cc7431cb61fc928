import { describeStorage, STORAGE_KINDS, useTestStorage } from '@quiver/test-storage';
import { structuredOf } from '@quiver/test-utils';
import type { PluginContext, Tool, ToolResult } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import defaultPlugin, {
  createMemoryTools,
  type Memory,
  memoryForget,
  memoryList,
  memoryPlugin,
  memorySave,
  memorySearch,
  type ScoredMemory,
} from '../src/index.js';

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`memory tools on ${kind}`, () => {
    const storage = useTestStorage(kind, { prefix: 'quiver-memory', personalityId: 'assistant' });

    interface Saved {
      memory: Memory;
      merged: boolean;
    }

    async function save(
      args: Record<string, unknown>,
      personalityId?: string,
      tool: Tool = memorySave,
    ): Promise<Saved> {
      return structuredOf<Saved>(await storage().call(tool, args, personalityId ? { personalityId } : {}));
    }

    async function searchIds(query: string, personalityId?: string): Promise<string[]> {
      const { results } = structuredOf<{ results: ScoredMemory[] }>(
        await storage().call(memorySearch, { query }, personalityId ? { personalityId } : {}),
      );
      return results.map((result) => result.id);
    }

    async function listed(args: Record<string, unknown> = {}, personalityId?: string): Promise<Memory[]> {
      return structuredOf<{ memories: Memory[] }>(
        await storage().call(memoryList, args, personalityId ? { personalityId } : {}),
      ).memories;
    }

    function failure(result: ToolResult): { code: string; error: string } {
      if (result.ok) throw new Error(`expected a failure, got: ${result.value}`);
      return { code: result.code, error: result.error };
    }

    describe('saving and forgetting', () => {
      it('saves to the personality scope by default and lists the newest first', async () => {
        const first = await save({ text: 'The user drinks oat milk.', tags: ['Food Preferences'] });
        const second = await save({ text: 'The repository uses trunk-based development.', scope: 'project' });
        expect(first.memory).toMatchObject({
          id: 'personality:1',
          scope: 'personality',
          tags: ['food-preferences'],
        });
        expect(second.memory.id).toBe('project:1');
        const result = await storage().call(memoryList, {});
        expect(result.ok && result.value.split('\n')[0]).toBe(
          '2 memories (personality 1 · project 1 · user 0):',
        );
        expect((await listed()).map((memory) => memory.id)).toEqual(['project:1', 'personality:1']);
        expect((await listed({ scope: 'project' })).map((memory) => memory.id)).toEqual(['project:1']);
        expect((await listed({ tags: ['food preferences'] })).map((memory) => memory.id)).toEqual([
          'personality:1',
        ]);
      });

      it('merges a save that differs only in case and punctuation, combining the tags', async () => {
        const first = await save({ text: 'Dana prefers dark mode in the editor.', tags: ['ui'] });
        const again = await save({ text: 'dana prefers DARK MODE in the editor', tags: ['preferences'] });
        expect(again.merged).toBe(true);
        expect(again.memory).toMatchObject({
          id: first.memory.id,
          saveCount: 2,
          tags: ['ui', 'preferences'],
        });
        expect(await listed()).toHaveLength(1);
      });

      it('merges a near-identical save (word overlap of 90% or more) and keeps the latest wording', async () => {
        const original =
          'Production deploys happen on Tuesday and Wednesday mornings after the standup meeting ends';
        const reworded =
          'Production deploys happen on Tuesday and Wednesday mornings after the daily standup meeting ends';
        const first = await save({ text: original });
        const again = await save({ text: reworded });
        expect(again).toMatchObject({ merged: true, memory: { id: first.memory.id, text: reworded } });
        expect(await searchIds('standup deploys')).toEqual([first.memory.id]);
      });

      it('keeps similar but different facts apart', async () => {
        await save({ text: 'The user prefers tabs for indentation.' });
        const other = await save({ text: 'The user prefers spaces for indentation.' });
        expect(other.merged).toBe(false);
        expect(await listed()).toHaveLength(2);
      });

      it('does not merge across scopes', async () => {
        await save({ text: 'Releases are cut from the main branch.', scope: 'project' });
        const personal = await save({ text: 'Releases are cut from the main branch.' });
        expect(personal.merged).toBe(false);
      });

      it('forgets a memory by id so that search no longer finds it', async () => {
        const saved = await save({ text: 'The VPN password rotates every ninety days.' });
        const forgotten = await storage().call(memoryForget, { id: saved.memory.id });
        expect(forgotten.ok && forgotten.value).toContain('Forgot [personality:1]');
        expect(await searchIds('vpn password rotation')).toEqual([]);
        expect(failure(await storage().call(memoryForget, { id: saved.memory.id })).code).toBe('not_found');
        expect(failure(await storage().call(memoryForget, { id: '../1' })).code).toBe('input_invalid');
      });
    });

    describe('unusual text', () => {
      it('saves, merges and finds a memory holding a word too long for a PostgreSQL index', async () => {
        const text = `The deploy key ${'x9'.repeat(1_500)} lives in the team vault.`;
        const first = await save({ text });
        expect(first.merged).toBe(false);
        expect((await save({ text: `${text}!` })).merged).toBe(true);
        expect(await searchIds('where is the deploy key kept')).toEqual([first.memory.id]);
      });
    });

    describe('limits', () => {
      it('refuses a memory longer than 4,000 characters and says how to fix it', async () => {
        const error = failure(await storage().call(memorySave, { text: 'word '.repeat(900) }));
        expect(error.code).toBe('limit_exceeded');
        expect(error.error).toContain('the limit is 4,000 per memory');
        expect(error.error).toContain('several shorter memories');
      });

      it('refuses a new memory once the scope holds the configured number', async () => {
        const [limitedSave] = createMemoryTools({ maxMemoriesPerScope: 2 });
        await save({ text: 'First fact about the build.' }, undefined, limitedSave);
        await save({ text: 'Second fact about the tests.' }, undefined, limitedSave);
        const error = failure(await storage().call(limitedSave!, { text: 'Third fact about the docs.' }));
        expect(error.code).toBe('limit_exceeded');
        expect(error.error).toContain('it holds 2 memories, and the limit is 2 memories');
        expect(error.error).toContain('memory_forget');
        const merged = await save({ text: 'first fact about the build' }, undefined, limitedSave);
        expect(merged.merged).toBe(true);
        expect(
          await save({ text: 'Third fact, kept for the project.', scope: 'project' }, undefined, limitedSave),
        ).toMatchObject({
          merged: false,
        });
      });

      it('refuses a memory that would push the scope over its byte budget', async () => {
        const [limitedSave] = createMemoryTools({ maxBytesPerScope: 100 });
        await save({ text: 'x'.repeat(60) }, undefined, limitedSave);
        const error = failure(await storage().call(limitedSave!, { text: 'y'.repeat(60) }));
        expect(error.code).toBe('limit_exceeded');
        expect(error.error).toContain('take 60 bytes and this one needs 60 more, and the limit is 100 bytes');
      });
    });

    describe('scope isolation', () => {
      it("never shows one personality's memories to another in the same storage", async () => {
        await save(
          { text: 'Ada is planning a surprise party for Grace on Saturday.', tags: ['secret'] },
          'ada-helper',
        );
        await save({ text: 'Grace is interviewing candidates for the party planning role.' }, 'grace-helper');
        await save(
          { text: 'The party budget for the team offsite is 500 euros.', scope: 'project' },
          'ada-helper',
        );

        const { results } = structuredOf<{ results: ScoredMemory[] }>(
          await storage().call(
            memorySearch,
            { query: 'surprise party saturday' },
            { personalityId: 'grace-helper' },
          ),
        );
        expect(results.map((result) => result.text).sort()).toEqual([
          'Grace is interviewing candidates for the party planning role.',
          'The party budget for the team offsite is 500 euros.',
        ]);
        const graceTexts = (await listed({}, 'grace-helper')).map((memory) => memory.text);
        expect(graceTexts.some((text) => text.includes('surprise'))).toBe(false);
        expect(
          await storage().call(memoryForget, { id: 'personality:1' }, { personalityId: 'grace-helper' }),
        ).toMatchObject({
          ok: true,
          structured: { memory: { text: expect.stringContaining('Grace is interviewing') } },
        });
        expect(await searchIds('surprise party', 'ada-helper')).toContain('personality:1');
        expect((await listed({ tags: ['secret'] }, 'ada-helper')).map((memory) => memory.text)).toEqual([
          'Ada is planning a surprise party for Grace on Saturday.',
        ]);
      });

      it('shares user-scope memories across personalities', async () => {
        await save({ text: 'The user is left-handed.', scope: 'user' }, 'ada-helper');
        expect(await searchIds('left handed', 'grace-helper')).toEqual(['user:1']);
      });

      it('reads and writes only the scopes the host grants', async () => {
        await save({ text: 'Project builds use Node 20.', scope: 'project' });
        await save({ text: 'I build the docs with Node 20 too.' });
        const grant = { storageGrant: { scopes: ['personality' as const] } };
        const { results } = structuredOf<{ results: ScoredMemory[] }>(
          await storage().call(memorySearch, { query: 'node builds' }, grant),
        );
        expect(results.map((result) => result.id)).toEqual(['personality:1']);
        const refused = failure(
          await storage().call(memorySave, { text: 'Shared fact.', scope: 'project' }, grant),
        );
        expect(refused.code).toBe('not_permitted');
        expect(refused.error).toContain('project');
      });

      it('searches only the scopes asked for', async () => {
        await save({ text: 'Staging deploys need a feature flag.', scope: 'project' });
        await save({ text: 'Staging deploys are my favourite task.' });
        const { results } = structuredOf<{ results: ScoredMemory[] }>(
          await storage().call(memorySearch, { query: 'staging deploys', scopes: ['project'] }),
        );
        expect(results.map((result) => result.id)).toEqual(['project:1']);
      });
    });

    describe('memoryPlugin', () => {
      function registerWith(config: Record<string, unknown>): Tool[] {
        const tools: Tool[] = [];
        memoryPlugin.register({
          pluginId: 'tools-memory',
          registerTool: (tool: Tool) => {
            tools.push(tool);
            return () => {};
          },
          registerReducer: () => () => {},
          registerHook: () => () => {},
          registerBackend: () => () => {},
          services: { config },
        } satisfies PluginContext<'config'>);
        return tools;
      }

      it('registers the four memory tools with the limits from its configuration', async () => {
        const tools = registerWith({ maxMemoryChars: 10 });
        expect(defaultPlugin).toBe(memoryPlugin);
        expect(tools.map((tool) => tool.name)).toEqual([
          'memory_save',
          'memory_search',
          'memory_list',
          'memory_forget',
        ]);
        expect(
          failure(await storage().call(tools[0]!, { text: 'more than ten characters' })).error,
        ).toContain('the limit is 10 per memory');
      });

      it('rejects unknown or invalid settings with a fix', () => {
        expect(() => registerWith({ maxMemories: 5 })).toThrow(/Unknown tools-memory setting "maxMemories"/);
        expect(() => registerWith({ maxMemoryChars: -1 })).toThrow(/positive integer/);
      });
    });
  });
}
