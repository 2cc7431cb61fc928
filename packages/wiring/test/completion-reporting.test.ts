import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverEvent, QuiverEventOf } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('what a session reports about its calls and its tools', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-reporting-')));
    writeFileSync(path.join(workspace, 'notes.txt'), `${'a line of notes\n'.repeat(100)}`);
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('names the model and the interaction on each completion, with the estimated tokens of the result', async () => {
    const session = quiver.createSession({ model: 'claude-sonnet-4-5' });
    const events: QuiverEvent[] = [];
    session.events.subscribe((event) => events.push(event));
    const [read] = await session.execute([{ name: 'read_file', args: { path: 'notes.txt' } }], {
      turn: 3,
      interactionId: 'interaction-7',
    });
    await session.execute([{ name: 'read_file', args: { path: 'notes.txt' } }], { model: 'gpt-5' });
    await settle();
    const completions = events.filter(
      (event): event is QuiverEventOf<'tool.execution_complete'> => event.type === 'tool.execution_complete',
    );
    expect(completions[0]).toMatchObject({
      model: 'claude-sonnet-4-5',
      interactionId: 'interaction-7',
      turn: 3,
    });
    expect(completions[1]).toMatchObject({ model: 'gpt-5' });
    expect(completions[1]?.interactionId).toBeUndefined();
    const text = read?.ok ? read.value : '';
    expect(completions[0]?.resultTokens).toBeGreaterThanOrEqual(Math.ceil(text.length / 4));
    expect(completions[0]?.resultTokens).toBeGreaterThan(300);
  });

  it('counts the estimated tokens of the definitions the model is shown when the tools change', async () => {
    const session = quiver.createSession();
    const events: QuiverEvent[] = [];
    session.events.subscribe((event) => events.push(event));
    session.pool();
    await settle();
    const full = events.find(
      (event): event is QuiverEventOf<'session.tools_updated'> => event.type === 'session.tools_updated',
    );
    session.updateOptions({ availableTools: ['read_file'] });
    session.pool();
    await settle();
    const narrowed = events.filter(
      (event): event is QuiverEventOf<'session.tools_updated'> => event.type === 'session.tools_updated',
    )[1];
    expect(full?.definitionTokens).toBeGreaterThan(narrowed?.definitionTokens ?? Number.POSITIVE_INFINITY);
    expect(narrowed?.definitionTokens).toBeGreaterThan(20);
  });
});
