import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionEngine, type PermissionRequest, type ProjectGrants } from '../src/index.js';
import { TOOL_SPECS } from './workspace-fixture.js';

/**
 * `decideNow` answers at once what `decide` would answer, or nothing. Its oracle is `decide`
 * itself: every pairing of rule layers, saved grants, once grants and requests below is decided
 * both ways, on fresh engines, and must agree wherever `decideNow` answers.
 */

let workspace: string;
beforeAll(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-decide-now-'));
});
afterAll(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

const LAYERS = [
  {},
  { allow: ['echo'] },
  { allow: ['mcp__everything__echo'] },
  { allow: ['mcp__everything'] },
  { allow: ['mcp__everything__*'] },
  { deny: ['mcp__everything__echo'], allow: ['mcp__everything'] },
  { ask: ['echo'], allow: ['echo'] },
  { deny: ['echo'] },
  { allow: ['read_file(src/**)'] },
  { allow: ['terminal(git status)'] },
  { deny: ['mcp__everything'], allow: ['mcp__everything__echo'] },
];
const SAVED: Array<string[] | undefined> = [
  undefined,
  [],
  ['echo'],
  ['mcp__everything__echo'],
  ['mcp__other'],
];
const ONCE: string[][] = [[], ['echo']];

function requests(): PermissionRequest[] {
  return [
    { toolName: 'echo', args: {} },
    { toolName: 'other', args: {} },
    { toolName: 'mcp__everything__echo', args: { message: 'hi' }, mcpServer: 'everything' },
    { toolName: 'mcp__everything__add', args: {}, mcpServer: 'everything' },
    { toolName: 'mcp__other__echo', args: {}, mcpServer: 'other' },
    { toolName: 'read_file', args: { path: 'src/a.ts' }, spec: TOOL_SPECS.read_file as never },
    { toolName: 'terminal', args: { command: 'git status' }, spec: TOOL_SPECS.terminal as never },
  ];
}

function savedGrants(rules: string[]): ProjectGrants {
  const held = [...rules];
  return {
    add: (rule) => {
      held.push(rule);
    },
    remove: () => false,
    list: () => held,
    close: () => {},
  };
}

function engine(
  layer: (typeof LAYERS)[number],
  saved: string[] | undefined,
  once: string[],
): PermissionEngine {
  const made = new PermissionEngine({
    workspace,
    layers: [layer],
    ...(saved === undefined ? {} : { projectGrants: savedGrants(saved) }),
  });
  for (const rule of once) made.grant(rule, 'once');
  return made;
}

describe('a permission decision taken at once', () => {
  it('agrees with decide wherever it answers, over every pairing of rules, grants and requests', async () => {
    let answered = 0;
    let pairings = 0;
    for (const layer of LAYERS) {
      for (const saved of SAVED) {
        for (const once of ONCE) {
          for (const request of requests()) {
            pairings += 1;
            const now = engine(layer, saved, once).decideNow(request);
            const later = await engine(layer, saved, once).decide(request);
            if (now === undefined) continue;
            answered += 1;
            expect({ layer, saved, once, request: request.toolName, decision: now }).toEqual({
              layer,
              saved,
              once,
              request: request.toolName,
              decision: later,
            });
          }
        }
      }
    }
    expect(answered).toBeGreaterThan(pairings / 10);
  });

  it('answers the common case at once: a tool allowed by name, whatever grants are saved', () => {
    for (const saved of SAVED) {
      const made = engine({ allow: ['mcp__everything__echo'] }, saved, []);
      expect(
        made.decideNow({ toolName: 'mcp__everything__echo', args: {}, mcpServer: 'everything' }),
      ).toMatchObject({ behavior: 'allow', rule: 'mcp__everything__echo' });
    }
  });

  it('leaves a pending once grant to decide, which spends it', async () => {
    const made = engine({}, undefined, ['echo']);
    expect(made.decideNow({ toolName: 'echo', args: {} })).toBeUndefined();
    expect(await made.decide({ toolName: 'echo', args: {} })).toMatchObject({ behavior: 'allow' });
    expect(made.decideNow({ toolName: 'echo', args: {} })).toMatchObject({ behavior: 'ask' });
  });

  it('leaves a tool judged by its arguments to decide', () => {
    const made = engine({ allow: ['read_file(src/**)'] }, undefined, []);
    expect(
      made.decideNow({
        toolName: 'read_file',
        args: { path: 'src/a.ts' },
        spec: TOOL_SPECS.read_file as never,
      }),
    ).toBeUndefined();
  });
});
