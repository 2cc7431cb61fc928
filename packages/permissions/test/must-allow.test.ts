import { readFileSync } from 'node:fs';
import type { PermissionRules } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionEngine } from '../src/index.js';
import { createWorkspaceFixture, TOOL_SPECS, type WorkspaceFixture } from './workspace-fixture.js';

interface MustAllow {
  rules: PermissionRules;
  commands: string[];
}

const mustAllow = JSON.parse(
  readFileSync(new URL('./fixtures/must-allow.json', import.meta.url), 'utf8'),
) as MustAllow;
let fixture: WorkspaceFixture;

beforeAll(async () => {
  fixture = await createWorkspaceFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

describe('the must-allow set', () => {
  it('holds at least 200 commands agents really run', () => {
    expect(mustAllow.commands.length).toBeGreaterThanOrEqual(200);
  });

  it('allows every one of them under the rules that name their programs', async () => {
    const engine = new PermissionEngine({ workspace: fixture.workspace, layers: [mustAllow.rules] });
    const refused: string[] = [];
    for (const command of mustAllow.commands) {
      const decision = await engine.decide({
        toolName: 'terminal',
        args: { command },
        spec: TOOL_SPECS.terminal,
      });
      if (decision.behavior !== 'allow')
        refused.push(`${JSON.stringify(command)} → ${decision.behavior}: ${decision.reason}`);
    }
    expect(refused).toEqual([]);
  });
});
