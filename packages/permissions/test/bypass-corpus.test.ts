import { readFileSync } from 'node:fs';
import type { PermissionRules } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionEngine } from '../src/index.js';
import {
  createWorkspaceFixture,
  TOOL_SPECS,
  type WorkspaceFixture,
  withWorkspace,
} from './workspace-fixture.js';

interface CorpusEntry {
  tool: string;
  args: Record<string, string>;
  why: string;
  expect?: 'not-allow' | 'deny';
  rules?: PermissionRules;
}

interface Corpus {
  defaultRules: PermissionRules;
  entries: CorpusEntry[];
}

function loadCorpus(name: string): Corpus {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Corpus;
}

const bypasses = loadCorpus('bypass-corpus.json');
const allowed = loadCorpus('allowed-corpus.json');
let fixture: WorkspaceFixture;

beforeAll(async () => {
  fixture = await createWorkspaceFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

/** Sessions decide with a saved-grant store (this one holds none), which decisions read only when needed. */
const noSavedGrants = { add: () => {}, remove: () => false, list: () => [], close: () => {} };

async function decide(corpus: Corpus, entry: CorpusEntry) {
  const engine = new PermissionEngine({
    workspace: fixture.workspace,
    layers: [entry.rules ?? corpus.defaultRules],
    projectGrants: noSavedGrants,
  });
  return engine.decide({
    toolName: entry.tool,
    args: withWorkspace(entry.args, fixture.workspace),
    spec: TOOL_SPECS[entry.tool],
  });
}

describe('the bypass corpus', () => {
  it('holds at least 100 attempts', () => {
    expect(bypasses.entries.length).toBeGreaterThanOrEqual(100);
  });

  it.each(
    bypasses.entries.map((entry) => [entry.why, entry] as const),
  )('does not allow %s', async (_why, entry) => {
    const decision = await decide(bypasses, entry);
    expect(decision.behavior, `${entry.tool} ${JSON.stringify(entry.args)}: ${decision.reason}`).not.toBe(
      'allow',
    );
    if (entry.expect === 'deny')
      expect(decision.behavior, `${JSON.stringify(entry.args)}: ${decision.reason}`).toBe('deny');
  });
});

describe('the allowed corpus', () => {
  it('holds at least 20 commands and calls', () => {
    expect(allowed.entries.length).toBeGreaterThanOrEqual(20);
  });

  it.each(allowed.entries.map((entry) => [entry.why, entry] as const))('allows %s', async (_why, entry) => {
    const decision = await decide(allowed, entry);
    expect(decision.behavior, `${entry.tool} ${JSON.stringify(entry.args)}: ${decision.reason}`).toBe(
      'allow',
    );
  });
});

describe('suggested rules', () => {
  it('allows every asked call of the corpus once its suggested rule is granted, and nothing denied', async () => {
    const failures: string[] = [];
    let asked = 0;
    for (const entry of bypasses.entries) {
      const engine = new PermissionEngine({
        workspace: fixture.workspace,
        layers: [entry.rules ?? bypasses.defaultRules],
      });
      const request = {
        toolName: entry.tool,
        args: withWorkspace(entry.args, fixture.workspace),
        spec: TOOL_SPECS[entry.tool],
      };
      const first = await engine.decide(request);
      if (first.behavior !== 'ask' || first.suggestedRule === undefined) continue;
      asked++;
      engine.grant(first.suggestedRule, 'session');
      const granted = await engine.decide(request);
      if (granted.behavior !== 'allow')
        failures.push(`${entry.why}: ${first.suggestedRule} → ${granted.reason}`);
    }
    expect(asked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });
});
