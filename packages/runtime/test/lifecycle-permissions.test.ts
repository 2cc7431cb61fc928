import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionAnswer, PermissionPrompt, PermissionResolver } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, removeTempDirs, tempDir } from './fixtures/lifecycle-harness.js';
import { appendLineTool, echoTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
async function harness(...args: Parameters<typeof createHarness>): Promise<Harness> {
  const created = await createHarness(...args);
  harnesses.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

/** A UI stand-in that answers every ask the same way and remembers what it was asked. */
function answering(answer: PermissionAnswer): PermissionResolver & { prompts: PermissionPrompt[] } {
  const prompts: PermissionPrompt[] = [];
  return {
    prompts,
    resolve: async (prompt) => {
      prompts.push(prompt);
      return answer;
    },
  };
}

describe('permissions in the call lifecycle', () => {
  it('denies an ask in a headless session with a message naming the rule that would allow it', async () => {
    const h = await harness({ tools: [echoTool], permissions: { ask: ['echo'] } });
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(result?.ok === false && result.error).toMatch(/add "echo[^"]*" to permissions\.allow/i);
    const events = await h.eventsOf('c1');
    expect(events.find((event) => event.type === 'permission.completed')).toMatchObject({ behavior: 'deny' });
  });

  it('denies by a deny rule with the rule in the message, without asking', async () => {
    const resolver = answering({ behavior: 'allow', scope: 'once' });
    const h = await harness({ tools: [echoTool], permissions: { deny: ['echo'] }, resolver });
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(result?.ok === false && result.error).toContain('echo');
    expect(resolver.prompts).toHaveLength(0);
  });

  it('keeps a parent session’s deny even when this session allows the tool', async () => {
    const h = await harness({ tools: [echoTool], permissions: { allow: ['echo'] }, parentDenies: ['echo'] });
    const [result] = await h.run([{ name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('asks the resolver once and allows the second call without asking after a session grant', async () => {
    const resolver = answering({ behavior: 'allow', scope: 'session' });
    const h = await harness({ tools: [echoTool], permissions: {}, resolver });
    const first = await h.run([{ id: 'c1', name: 'echo', args: { text: 'one' } }]);
    const second = await h.run([{ id: 'c2', name: 'echo', args: { text: 'two' } }]);
    expect(first[0]).toMatchObject({ ok: true, value: 'one' });
    expect(second[0]).toMatchObject({ ok: true, value: 'two' });
    expect(resolver.prompts).toHaveLength(1);
    expect(resolver.prompts[0]).toMatchObject({ callId: 'c1', toolName: 'echo', args: { text: 'one' } });
    const completed = (await h.eventsOf('c1')).find((event) => event.type === 'permission.completed');
    expect(completed).toMatchObject({ behavior: 'allow', scope: 'session' });
  });

  it('grants the file the user approved for the session, not every file the tool writes', async () => {
    const resolver = answering({ behavior: 'allow', scope: 'session' });
    const h = await harness({
      toolsFor: (workspace) => [appendLineTool(workspace, 0)],
      permissions: {},
      resolver,
    });
    await h.run([{ name: 'append_line', args: { path: 'notes.txt', line: 'one' } }]);
    await h.run([{ name: 'append_line', args: { path: 'notes.txt', line: 'two' } }]);
    const [other] = await h.run([{ name: 'append_line', args: { path: 'other.txt', line: 'three' } }]);
    expect(other).toMatchObject({ ok: true });
    expect(resolver.prompts.map((prompt) => prompt.decision.suggestedRule)).toEqual([
      'append_line(notes.txt)',
      'append_line(other.txt)',
    ]);
  });

  it('asks again for every call when the user allows only once', async () => {
    const resolver = answering({ behavior: 'allow', scope: 'once' });
    const h = await harness({ tools: [echoTool], permissions: {}, resolver });
    await h.run([{ name: 'echo', args: { text: 'one' } }]);
    await h.run([{ name: 'echo', args: { text: 'two' } }]);
    expect(resolver.prompts).toHaveLength(2);
  });

  it('reports the user’s refusal as not permitted with their reason', async () => {
    const resolver = answering({ behavior: 'deny', reason: 'not on a Friday' });
    const h = await harness({ tools: [echoTool], permissions: {}, resolver });
    const [result] = await h.run([{ name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(result?.ok === false && result.error).toContain('not on a Friday');
  });

  it('keeps a project grant across a restart on the same data directory', async () => {
    const dataDir = await tempDir('quiver-data-');
    const resolver = answering({ behavior: 'allow', scope: 'project' });
    const first = await createHarness({ tools: [echoTool], permissions: {}, resolver, dataDir });
    const [granted] = await first.run([{ name: 'echo', args: { text: 'before' } }]);
    expect(granted).toMatchObject({ ok: true });
    await first.dispose();

    const restarted = await harness({ tools: [echoTool], permissions: {}, dataDir });
    const [result] = await restarted.run([{ name: 'echo', args: { text: 'after' } }]);
    expect(result).toMatchObject({ ok: true, value: 'after' });
    expect(resolver.prompts).toHaveLength(1);
  });

  it('applies a project grant to that call only, saying how to keep it, when no SQLite backend was given', async () => {
    const dataDir = await tempDir('quiver-data-');
    const resolver = answering({ behavior: 'allow', scope: 'project' });
    const h = await harness({ tools: [echoTool], permissions: {}, resolver, dataDir, withoutSqlite: true });
    const [first] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'once' } }]);
    expect(first).toMatchObject({ ok: true, value: 'once' });
    const warning = h.events.find(
      (event) => event.type === 'session.warning' && event.code === 'grant_failed',
    );
    expect(warning).toMatchObject({ message: expect.stringContaining('no SQLite backend was given') });
    expect(warning).toMatchObject({ message: expect.stringContaining('it applies to this call only') });
    const [second] = await h.run([{ id: 'c2', name: 'echo', args: { text: 'again' } }]);
    expect(second).toMatchObject({ ok: true });
    expect(resolver.prompts).toHaveLength(2);
    expect(existsSync(join(dataDir, 'permissions.db'))).toBe(false);
  });
});
