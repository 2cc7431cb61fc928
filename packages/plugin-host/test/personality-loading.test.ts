import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverError } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPersonalityFile, resolvePersonality, toSessionPolicy } from '../src/personality/index.js';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-personality-')));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Writes `personalities/NAME.yaml` (or any relative path) under `dir`. */
function writePersonality(relativePath: string, yaml: string, dir = root): string {
  const file = path.join(
    dir,
    relativePath.includes('/') ? relativePath : `personalities/${relativePath}.yaml`,
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, yaml);
  return file;
}

function failure(action: () => unknown): QuiverError {
  try {
    action();
  } catch (error) {
    return error as QuiverError;
  }
  throw new Error('expected a QuiverError');
}

describe('personality validation', () => {
  it('rejects an unknown key with the file, the key path and a did-you-mean', () => {
    const file = writePersonality('coder', 'plugins: [code]\ntoolsett: [read_file]\n');
    const error = failure(() => resolvePersonality('coder', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(file);
    expect(error.message).toContain('toolsett: unknown key "toolsett". Did you mean "toolset"?');
    expect(error.fix).toContain('toolsett');
  });

  it('suggests keys of the nested level for an unknown nested key', () => {
    writePersonality(
      'coder',
      'permissions:\n  alow: [read_file]\nmcpServers:\n  github:\n    includeTool: [issues]\n',
    );
    const error = failure(() => resolvePersonality('coder', { searchDirs: [root] }));
    expect(error.message).toContain('permissions.alow: unknown key "alow". Did you mean "allow"?');
    expect(error.message).toContain(
      'mcpServers.github.includeTool: unknown key "includeTool". Did you mean "includeTools"?',
    );
  });

  it('names the allowed prompt naming of a server when the personality gives another', () => {
    writePersonality('coder', 'mcpServers:\n  docs: { promptNames: original }\n');
    const error = failure(() => resolvePersonality('coder', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(
      'mcpServers.docs: expected `true` or `{ includeTools, excludeTools, promptNames: namespaced | own }`',
    );
  });

  it('lists the allowed keys when no key is close to the unknown one', () => {
    writePersonality('coder', 'budget:\n  wholeLotOfChars: 5\n');
    expect(failure(() => resolvePersonality('coder', { searchDirs: [root] })).message).toContain(
      'budget.wholeLotOfChars: unknown key "wholeLotOfChars". Allowed keys here: resultChars.',
    );
  });

  it('names the key path of values with the wrong type', () => {
    writePersonality(
      'coder',
      'toolset: read_file\nbudget:\n  resultChars: lots\nsandbox: maybe\ndeferLoading:\n  enabled: sometimes\n',
    );
    const error = failure(() => resolvePersonality('coder', { searchDirs: [root] }));
    expect(error.message).toMatch(/toolset: expected a list .*or \{ add: \[\.\.\.\], remove: \[\.\.\.\] \}/);
    expect(error.message).toMatch(/budget\.resultChars: .*expected number, received string/);
    expect(error.message).toMatch(/sandbox: .*"auto"\|"off"\|"required"/);
    expect(error.message).toContain("deferLoading.enabled: expected true, false or 'auto'");
  });

  it('rejects a permission rule the permission engine cannot parse, naming the list entry', () => {
    writePersonality(
      'coder',
      'permissions:\n  allow: ["read_file(src/**)", "terminal(git status"]\n  deny: ["terminal()"]\n',
    );
    const error = failure(() => resolvePersonality('coder', { searchDirs: [root] }));
    expect(error.message).toContain('permissions.allow.1: Invalid permission rule "terminal(git status"');
    expect(error.message).toContain(
      'permissions.deny.0: Permission rule "terminal()" has an empty specifier',
    );
    expect(error.message).not.toContain('allow.0');
  });

  it('rejects a file that is not valid YAML', () => {
    const file = writePersonality('broken', 'plugins: [code\n');
    const error = failure(() => resolvePersonality('broken', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(`${file}:2:1: not valid YAML`);
  });
});

describe('finding personalities', () => {
  it('reports a missing file as config_not_found', () => {
    const missing = path.join(root, 'nowhere/ghost.yaml');
    const error = failure(() => loadPersonalityFile(missing, { searchDirs: [root] }));
    expect(error.code).toBe('config_not_found');
    expect(error.message).toContain(missing);
  });

  it('reports an unknown name with every place it looked', () => {
    const error = failure(() =>
      resolvePersonality('ghost', { searchDirs: [root, path.join(root, 'other')] }),
    );
    expect(error.code).toBe('config_not_found');
    expect(error.message).toContain(path.join(root, 'personalities/ghost.yaml'));
    expect(error.message).toContain(path.join(root, 'other/personalities/ghost.yml'));
    expect(error.fix).toContain('personalities/ghost.yaml');
  });

  it('finds .yml files, takes the first search dir that has the name, and falls back to embedded ones', () => {
    const second = path.join(root, 'second');
    writePersonality('personalities/reviewer.yml', 'description: from the first dir\n');
    writePersonality('reviewer', 'description: from the second dir\n', second);
    const found = resolvePersonality('reviewer', { searchDirs: [root, second] });
    expect(found.description).toBe('from the first dir');
    expect(found.sources).toEqual([path.join(root, 'personalities/reviewer.yml')]);

    const embedded = resolvePersonality('default', {
      searchDirs: [root],
      embedded: { default: { plugins: ['code'] } },
    });
    expect(embedded).toMatchObject({ id: 'default', plugins: ['code'], sources: ['embedded:default'] });
  });

  it('lets a file of the same name build on an embedded personality', () => {
    writePersonality('default', 'extends: default\nplugins: [code, kanban]\n');
    const personality = resolvePersonality('default', {
      searchDirs: [root],
      embedded: { default: { plugins: ['code'], sandbox: 'required' } },
    });
    expect(personality.plugins).toEqual(['code', 'kanban']);
    expect(personality.sandbox).toBe('required');
    expect(personality.sources).toEqual([path.join(root, 'personalities/default.yaml'), 'embedded:default']);
  });
});

describe('extends', () => {
  it('merges a chain with the child winning, lists replacing and maps merging', () => {
    writePersonality(
      'base',
      [
        'description: base',
        'plugins: [code, terminal, kanban]',
        'toolset: [read_file, terminal]',
        'mcpServers:',
        '  github: { includeTools: [issues] }',
        '  slack: true',
        'permissions:',
        '  allow: ["read_file(**)"]',
        '  deny: ["terminal(rm:*)"]',
        'budget: { resultChars: 40000 }',
        'deferLoading: { enabled: auto, maxTools: 30 }',
        'agents:',
        '  reviewer: { description: Reviews diffs, tools: [read_file] }',
      ].join('\n'),
    );
    writePersonality(
      'middle',
      'extends: base\nplugins: [code]\nmcpServers:\n  github: true\ndeferLoading: { enabled: true }\n',
    );
    const childFile = writePersonality(
      'personalities/team/child.yaml',
      'extends: ../middle.yaml\ndescription: child\npermissions:\n  allow: ["terminal(git status:*)"]\n',
    );
    const child = loadPersonalityFile(childFile, { searchDirs: [root] });
    expect(child.id).toBe('child');
    expect(child.description).toBe('child');
    expect(child.plugins).toEqual(['code']);
    expect(child.toolset).toEqual(['read_file', 'terminal']);
    expect(child.mcpServers).toEqual({ github: true, slack: true });
    expect(child.permissions).toEqual({
      allow: ['terminal(git status:*)'],
      ask: [],
      deny: ['terminal(rm:*)'],
    });
    expect(child.budget).toEqual({ resultChars: 40000 });
    expect(child.deferLoading).toEqual({ enabled: true, maxTools: 30 });
    expect(child.agents).toEqual({ reviewer: { description: 'Reviews diffs', tools: ['read_file'] } });
    expect(child.sources).toEqual([
      childFile,
      path.join(root, 'personalities/middle.yaml'),
      path.join(root, 'personalities/base.yaml'),
    ]);
  });

  it('detects a cycle through names and through paths, naming every step', () => {
    writePersonality('a', 'extends: b\n');
    writePersonality('b', 'extends: ./a.yaml\n');
    const error = failure(() => resolvePersonality('a', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    const a = path.join(root, 'personalities/a.yaml');
    const b = path.join(root, 'personalities/b.yaml');
    expect(error.message).toBe(`Personality extends chain has a cycle: ${a} → ${b} → ${a}`);

    writePersonality('self', 'extends: self\n');
    expect(failure(() => resolvePersonality('self', { searchDirs: [root] })).message).toContain('cycle');
  });

  it('names the personality that extends a missing one', () => {
    const file = writePersonality('orphan', 'extends: ghost\n');
    const error = failure(() => resolvePersonality('orphan', { searchDirs: [root] }));
    expect(error.code).toBe('config_not_found');
    expect(error.message).toContain(`Personality "ghost" (extended by ${file}) was not found`);
  });

  it('reports an invalid parent with the parent file, not the child', () => {
    writePersonality('parent', 'plugns: [code]\n');
    writePersonality('kid', 'extends: parent\n');
    const error = failure(() => resolvePersonality('kid', { searchDirs: [root] }));
    expect(error.message).toContain(path.join(root, 'personalities/parent.yaml'));
    expect(error.message).toContain('Did you mean "plugins"?');
  });
});

describe('toolset: absent versus empty', () => {
  it('keeps an absent toolset absent and an empty one empty, through extends and into the session policy', () => {
    writePersonality('everything', 'plugins: [code]\n');
    writePersonality('nothing', 'extends: everything\ntoolset: []\n');
    writePersonality('inherits', 'extends: nothing\n');
    const everything = resolvePersonality('everything', { searchDirs: [root] });
    const nothing = resolvePersonality('nothing', { searchDirs: [root] });
    expect('toolset' in everything).toBe(false);
    expect(nothing.toolset).toEqual([]);
    expect(resolvePersonality('inherits', { searchDirs: [root] }).toolset).toEqual([]);
    expect('toolset' in toSessionPolicy(everything)).toBe(false);
    expect(toSessionPolicy(nothing).toolset).toEqual([]);
  });
});

describe('session policy', () => {
  it('applies defaults and maps every MCP gate to include/exclude lists', () => {
    writePersonality(
      'coder',
      'plugins: [code]\nmcpServers:\n  github: true\n  slack: { excludeTools: [post] }\nmodelProfiles:\n  gpt: { editStyle: apply_patch }\nsecrets:\n  web_fetch: [API_TOKEN]\n',
    );
    const personality = resolvePersonality('coder', { searchDirs: [root] });
    expect(personality).toMatchObject({
      sandbox: 'auto',
      simpleMode: false,
      secrets: { web_fetch: ['API_TOKEN'] },
    });
    expect(toSessionPolicy(personality)).toEqual({
      personalityId: 'coder',
      plugins: ['code'],
      mcpServers: { github: {}, slack: { excludeTools: ['post'] } },
      permissions: { allow: [], ask: [], deny: [] },
      agents: {},
      budget: { resultChars: 80_000 },
      deferLoading: { enabled: 'auto' },
      simpleMode: false,
      repl: false,
      modelProfiles: { gpt: { editStyle: 'apply_patch' } },
      logArguments: 'full',
    });
  });

  it('denies every plugin and MCP server when the personality names none', () => {
    writePersonality('empty', '');
    const policy = toSessionPolicy(resolvePersonality('empty', { searchDirs: [root] }));
    expect(policy.plugins).toEqual([]);
    expect(policy.mcpServers).toEqual({});
  });
});
