import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, removeTempDirs } from './fixtures/lifecycle-harness.js';
import { appendLineTool, echoTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

describe('checking a call before it runs (an embedder framework asks the person itself)', () => {
  it('says allow, ask, deny or invalid for each call without asking, running or publishing anything', async () => {
    let asked = 0;
    const h = await createHarness({
      toolsFor: (workspace) => [echoTool, appendLineTool(workspace, 0)],
      permissions: { allow: ['echo'], deny: ['append_line(secret.txt)'] },
      resolver: {
        resolve: async () => {
          asked++;
          return { behavior: 'allow', scope: 'once' };
        },
      },
    });
    harnesses.push(h);
    const checks = await h.executor.check(
      [
        { id: 'a', name: 'echo', args: { text: 'hi' } },
        { id: 'b', name: 'append_line', args: { path: 'notes.txt', line: 'x' } },
        { id: 'c', name: 'append_line', args: { path: 'secret.txt', line: 'x' } },
        { id: 'd', name: 'echo', args: { wrong: 1 } },
        { id: 'e', name: 'nope', args: {} },
      ],
      h.pool,
    );
    expect(checks.map((check) => [check.callId, check.behavior])).toEqual([
      ['a', 'allow'],
      ['b', 'ask'],
      ['c', 'deny'],
      ['d', 'invalid'],
      ['e', 'invalid'],
    ]);
    expect(checks[1]?.suggestedRule).toMatch(/append_line\(.*notes\.txt.*\)/);
    await h.settle();
    expect(asked).toBe(0);
    expect(h.events).toEqual([]);
    expect(existsLine(h.workspace)).toBe(false);
  });

  it('runs an approved call without asking the resolver; a session approval grants exactly what was checked', async () => {
    const h = await createHarness({
      toolsFor: (workspace) => [appendLineTool(workspace, 0)],
      permissions: {},
    });
    harnesses.push(h);
    const call = { id: 'w1', name: 'append_line', args: { path: 'notes.txt', line: 'one' } };
    const [headless] = await h.run([{ ...call, id: 'w0' }]);
    expect(headless).toMatchObject({ ok: false, code: 'not_permitted' });
    const [approved] = await h.run([call], { approvals: { w1: 'session' } });
    expect(approved).toMatchObject({ ok: true });
    expect((await h.eventsOf('w1')).find((event) => event.type === 'permission.completed')).toMatchObject({
      behavior: 'allow',
      scope: 'session',
    });
    // The grant covers the file that was approved, not the tool's other files.
    const [again] = await h.executor.check([{ ...call, id: 'w2' }], h.pool);
    const [other] = await h.executor.check(
      [{ id: 'w3', name: 'append_line', args: { path: 'b.txt', line: 'x' } }],
      h.pool,
    );
    expect([again?.behavior, other?.behavior]).toEqual(['allow', 'ask']);
    // An approval keyed to another call id answers nothing.
    const [unrelated] = await h.run([{ id: 'w4', name: 'append_line', args: { path: 'b.txt', line: 'x' } }], {
      approvals: { w1: 'once' },
    });
    expect(unrelated).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('never lets an approval answer a deny rule', async () => {
    const h = await createHarness({ tools: [echoTool], permissions: { deny: ['echo'] } });
    harnesses.push(h);
    const [result] = await h.run([{ id: 'x', name: 'echo', args: { text: 'hi' } }], {
      approvals: { x: 'once' },
    });
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
  });
});

function existsLine(workspace: string): boolean {
  return existsSync(join(workspace, 'notes.txt'));
}
