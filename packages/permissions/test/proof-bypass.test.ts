import { readFileSync } from 'node:fs';
import type { PermissionRules } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionEngine } from '../src/index.js';
import { createWorkspaceFixture, TOOL_SPECS, type WorkspaceFixture } from './workspace-fixture.js';

interface ProofCorpus {
  ruleSets: Record<string, PermissionRules>;
  entries: Array<{ class: string; command: string; ruleSets?: string[] }>;
}

const corpus = JSON.parse(
  readFileSync(new URL('./fixtures/proof-bypass-corpus.json', import.meta.url), 'utf8'),
) as ProofCorpus;
let fixture: WorkspaceFixture;

beforeAll(async () => {
  fixture = await createWorkspaceFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

const classes = [...new Set(corpus.entries.map((entry) => entry.class))];

describe('the proof bypass corpus', () => {
  it('holds several variants of each of the eight classes but the sibling tools, which are tested below', () => {
    expect(classes).toHaveLength(7);
    for (const name of classes)
      expect(corpus.entries.filter((entry) => entry.class === name).length, name).toBeGreaterThanOrEqual(5);
  });

  it.each(classes)('allows nothing of class %s under any rule set', async (name) => {
    const allowed: string[] = [];
    for (const [setName, rules] of Object.entries(corpus.ruleSets)) {
      const engine = new PermissionEngine({ workspace: fixture.workspace, layers: [rules] });
      for (const entry of corpus.entries) {
        if (entry.class !== name || (entry.ruleSets && !entry.ruleSets.includes(setName))) continue;
        const decision = await engine.decide({
          toolName: 'terminal',
          args: { command: entry.command },
          spec: TOOL_SPECS.terminal,
        });
        if (decision.behavior === 'allow')
          allowed.push(`${setName}: ${JSON.stringify(entry.command)} (${decision.reason})`);
      }
    }
    expect(allowed).toEqual([]);
  });

  it('denies under a blanket allow every command whose program the analyzer finds to be denied', async () => {
    const engine = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [corpus.ruleSets['blanket-allow-with-deny'] as PermissionRules],
    });
    const decide = (command: string) =>
      engine.decide({ toolName: 'terminal', args: { command }, spec: TOOL_SPECS.terminal });
    for (const command of [
      'ls; touch pwned',
      'bash -c "touch pwned"',
      'timeout 5 touch pwned',
      'ls; /bin/touch pwned',
      'eval x; touch pwned',
    ])
      expect(await decide(command), command).toMatchObject({ behavior: 'deny', rule: 'terminal(touch:*)' });
    expect((await decide('ionice touch pwned')).behavior).toBe('ask');
    expect((await decide('ls -la && echo ok')).behavior).toBe('allow');
  });
});
