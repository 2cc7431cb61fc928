import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverError } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolvePersonality, resolvePersonalityInheritance } from '../src/personality/index.js';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-inheritance-')));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writePersonality(name: string, yaml: string): string {
  const file = path.join(root, 'personalities', `${name}.yaml`);
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

const PARENT = [
  'plugins: [tools-code, tools-terminal, { id: tools-memory, config: { limit: 5 } }]',
  'toolset: [read_file, grep, terminal]',
  'permissions:',
  '  allow: [read_file, grep, "terminal(git status:*)"]',
  '  ask: ["terminal(git push:*)"]',
  '  deny: ["read_file(.env)", "terminal(rm:*)"]',
  'agents:',
  '  reviewer: { tools: [read_file, grep], disallowedTools: [terminal] }',
  '',
].join('\n');

describe('a personality adding to the lists it inherits', () => {
  it('keeps every inherited allow when the child adds one with { add }', () => {
    writePersonality('parent', PARENT);
    writePersonality('child', 'extends: parent\npermissions:\n  allow:\n    add: [repl]\n');
    const { personality, dropped } = resolvePersonalityInheritance('child', { searchDirs: [root] });
    expect(personality.permissions.allow).toEqual(['read_file', 'grep', 'terminal(git status:*)', 'repl']);
    expect(dropped).toEqual([]);
  });

  it('still replaces with a plain list, and reports each inherited item it dropped with the line', () => {
    const parent = writePersonality('parent', PARENT);
    const child = writePersonality('child', 'extends: parent\n\npermissions:\n  allow: [repl, grep]\n');
    const { personality, dropped } = resolvePersonalityInheritance('child', { searchDirs: [root] });
    expect(personality.permissions.allow).toEqual(['repl', 'grep']);
    expect(dropped).toEqual([
      {
        keyPath: 'permissions.allow',
        item: 'read_file',
        inheritedFrom: parent,
        droppedBy: child,
        line: 4,
        column: 3,
        how: 'replaced',
      },
      {
        keyPath: 'permissions.allow',
        item: 'terminal(git status:*)',
        inheritedFrom: parent,
        droppedBy: child,
        line: 4,
        column: 3,
        how: 'replaced',
      },
    ]);
  });

  it('removes inherited plugins and tools by name, reporting each, and a removal that names nothing', () => {
    const parent = writePersonality('parent', PARENT);
    writePersonality(
      'child',
      'extends: parent\nplugins:\n  remove: [tools-terminal, tools-kanban]\n  add: [tools-repl]\ntoolset: { remove: [terminal] }\n',
    );
    const { personality, dropped, unmatchedRemovals } = resolvePersonalityInheritance('child', {
      searchDirs: [root],
    });
    expect(personality.plugins).toEqual(['tools-code', 'tools-memory', 'tools-repl']);
    expect(personality.pluginConfig).toEqual({ 'tools-memory': { limit: 5 } });
    expect(personality.toolset).toEqual(['read_file', 'grep']);
    expect(
      dropped.map(({ keyPath, item, how, inheritedFrom }) => ({ keyPath, item, how, inheritedFrom })),
    ).toEqual([
      { keyPath: 'toolset', item: 'terminal', how: 'removed', inheritedFrom: parent },
      { keyPath: 'plugins', item: 'tools-terminal', how: 'removed', inheritedFrom: parent },
    ]);
    expect(unmatchedRemovals).toMatchObject([{ keyPath: 'plugins', item: 'tools-kanban' }]);
  });

  it('gives an inherited plugin new settings when the child adds it again with { id, config }', () => {
    writePersonality('parent', PARENT);
    writePersonality(
      'child',
      'extends: parent\nplugins:\n  add: [{ id: tools-memory, config: { limit: 9 } }]\n',
    );
    const personality = resolvePersonality('child', { searchDirs: [root] });
    expect(personality.plugins).toEqual(['tools-code', 'tools-terminal', 'tools-memory']);
    expect(personality.pluginConfig).toEqual({ 'tools-memory': { limit: 9 } });
  });

  it('edits lists inside maps, such as an agent’s tools, without restating them', () => {
    writePersonality('parent', PARENT);
    writePersonality('child', 'extends: parent\nagents:\n  reviewer:\n    tools: { add: [glob] }\n');
    const personality = resolvePersonality('child', { searchDirs: [root] });
    expect(personality.agents.reviewer).toEqual({
      tools: ['read_file', 'grep', 'glob'],
      disallowedTools: ['terminal'],
    });
  });

  it('adds { add } to nothing when nothing is inherited', () => {
    writePersonality('solo', 'permissions:\n  allow: { add: [read_file] }\n');
    expect(resolvePersonality('solo', { searchDirs: [root] }).permissions.allow).toEqual(['read_file']);
  });
});

describe('deny and ask rules of every personality in the chain', () => {
  it('hold whatever the child writes: a plain deny or ask list adds to the inherited ones', () => {
    writePersonality('parent', PARENT);
    writePersonality(
      'child',
      'extends: parent\npermissions:\n  deny: ["terminal(curl:*)"]\n  ask: []\nagents:\n  reviewer:\n    disallowedTools: [glob]\n',
    );
    const { personality, dropped } = resolvePersonalityInheritance('child', { searchDirs: [root] });
    expect(personality.permissions.deny).toEqual(['read_file(.env)', 'terminal(rm:*)', 'terminal(curl:*)']);
    expect(personality.permissions.ask).toEqual(['terminal(git push:*)']);
    expect(personality.agents.reviewer?.disallowedTools).toEqual(['terminal', 'glob']);
    expect(dropped).toEqual([]);
  });

  it('keep a server’s inherited excludeTools: true cannot replace them, {} keeps them', () => {
    const parent = writePersonality(
      'parent',
      'mcpServers:\n  github: { includeTools: [list_issues, delete_repo], excludeTools: [delete_repo] }\n',
    );
    const child = writePersonality('child', 'extends: parent\nmcpServers:\n  github: true\n');
    const error = failure(() => resolvePersonality('child', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(
      `${child}:3:3: mcpServers.github replaces a map whose excludeTools it inherits`,
    );
    writePersonality('child', 'extends: parent\nmcpServers:\n  github: {}\n');
    expect(resolvePersonality('child', { searchDirs: [root] }).mcpServers.github).toEqual({
      includeTools: ['list_issues', 'delete_repo'],
      excludeTools: ['delete_repo'],
    });
    writePersonality('parent', 'mcpServers:\n  github: { includeTools: [list_issues] }\n');
    writePersonality('child', 'extends: parent\nmcpServers:\n  github: true\n');
    const { dropped } = resolvePersonalityInheritance('child', { searchDirs: [root] });
    expect(dropped).toEqual([
      {
        keyPath: 'mcpServers.github.includeTools',
        item: 'list_issues',
        inheritedFrom: parent,
        droppedBy: child,
        line: 3,
        column: 3,
        how: 'replaced',
      },
    ]);
  });

  it('refuses a child that tries to remove an inherited deny, naming the file and line', () => {
    writePersonality('parent', PARENT);
    const child = writePersonality(
      'child',
      'extends: parent\npermissions:\n  deny:\n    remove: ["terminal(rm:*)"]\n',
    );
    const error = failure(() => resolvePersonality('child', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(`${child}:4:5: permissions.deny.remove`);
  });
});

describe('a rule that does not parse in a personality file', () => {
  it('is config_invalid naming the file, the line, the rule, what is wrong and a fix', () => {
    const file = writePersonality(
      'coder',
      'plugins: [tools-code]\npermissions:\n  allow: [read_file]\n  deny:\n    - "read_file(.env)"\n    - "read_file(src/**/*.{key,pem)"\n',
    );
    const error = failure(() => resolvePersonality('coder', { searchDirs: [root] }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(`${file}:6:7: permissions.deny.1:`);
    expect(error.message).toContain('Permission rule "read_file(src/**/*.{key,pem)" does not parse');
    expect(error.message).toContain('is never closed');
    expect(error.message).toMatch(/Fix: Close the alternatives with "\}"/);
  });

  it('is refused in an inherited personality too, before any child can use it', () => {
    const parent = writePersonality('parent', 'permissions:\n  deny: ["read_file(src/[**)"]\n');
    writePersonality('child', 'extends: parent\npermissions:\n  allow: { add: [read_file] }\n');
    const error = failure(() => resolvePersonality('child', { searchDirs: [root] }));
    expect(error.message).toContain(`${parent}:2:10: permissions.deny.0:`);
  });
});

describe('generated malformed specifiers in a personality file', () => {
  it('always fail to load with config_invalid at the line of the rule', () => {
    let state = 34;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const valid = ['src/**', 'secrets/*.{key,pem}', 'docs/[a-z]*.md', '**/.env'];
    const breaks = ['{', '[', '(', '}', ']', ')', '[]', '$HOME/'];
    for (let index = 0; index < 60; index++) {
      const text = pick(valid);
      const at = Math.floor(next() * (text.length + 1));
      const open = (text.slice(0, at).match(/\[/g) ?? []).length;
      const closed = (text.slice(0, at).match(/\]/g) ?? []).length;
      // Inside a character class, or opening one around it (`[[a-z]`), most characters are literal.
      if (open !== closed || text[at] === '[') continue;
      const rule = `${pick(['read_file', 'write_file', 'grep'])}(${text.slice(0, at)}${pick(breaks)}${text.slice(at)})`;
      const file = writePersonality(
        'generated',
        `permissions:\n  allow: [read_file]\n  deny:\n    - ${JSON.stringify(rule)}\n`,
      );
      let error: QuiverError;
      try {
        resolvePersonality('generated', { searchDirs: [root] });
        throw new Error(`loaded ${rule}`);
      } catch (caught) {
        error = caught as QuiverError;
      }
      expect(error.code, rule).toBe('config_invalid');
      expect(error.message, rule).toContain(`${file}:4:7: permissions.deny.0:`);
    }
  });
});

describe('rules on tools whose kind is known once their plugin is loaded', () => {
  const kinds = new Map([
    ['grep_search', 'read'],
    ['apply_changes', 'write'],
    ['terminal_start', 'shell'],
    ['fetch_page', 'url'],
    ['kanban_create', 'custom'],
  ] as const);

  it('refuses an ask or allow whose specifier does not parse as that kind, at its file and line', () => {
    const file = writePersonality(
      'searcher',
      'permissions:\n  allow: [read_file]\n  ask:\n    - "grep_search(src/{a)"\n',
    );
    const error = failure(() => resolvePersonality('searcher', { searchDirs: [root], toolKinds: kinds }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(`${file}:4:7: permissions.ask.0:`);
    expect(error.message).toContain('"grep_search(src/{a)" does not parse');
    expect(error.message).toMatch(/Fix: Close the alternatives/);

    writePersonality(
      'adder',
      'extends: searcher\npermissions:\n  ask: { add: ["terminal_start(git \\"x)"] }\n',
    );
    writePersonality('searcher', 'permissions:\n  allow: [read_file]\n');
    const added = failure(() => resolvePersonality('adder', { searchDirs: [root], toolKinds: kinds }));
    expect(added.message).toContain(
      `${path.join(root, 'personalities/adder.yaml')}:3:16: permissions.ask.add.0:`,
    );
  });

  it('loads the same rules once they parse, and reads them as that kind', () => {
    writePersonality(
      'searcher',
      'permissions:\n  ask: ["grep_search(src/{a,b}/**)", "kanban_create(todo:*)"]\n',
    );
    const personality = resolvePersonality('searcher', { searchDirs: [root], toolKinds: kinds });
    expect(personality.permissions.ask).toEqual(['grep_search(src/{a,b}/**)', 'kanban_create(todo:*)']);
  });

  it('fails every generated malformed specifier on every behaviour and kind with config_invalid at its line', () => {
    let state = 3434;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const insert = (text: string, piece: string) => {
      const at = Math.floor(next() * (text.length + 1));
      return `${text.slice(0, at)}${piece}${text.slice(at)}`;
    };
    // Each kind's malformed specifiers: a valid one with an unclosed group, quote or a bad host.
    const malformed: Record<string, () => string> = {
      read: () =>
        `${pick(['src/', 'secrets/', 'docs/'])}${insert(pick(['*.key', 'a/b', '**/x']), pick(['{', '[', '[]']))}`,
      write: () => `${pick(['build/', 'src/'])}${insert(pick(['*.js', 'out/**']), pick(['{', '[', '[]']))}`,
      shell: () =>
        `${pick(['git status', 'npm run test', 'ls -la'])} ${pick(['"', "'"])}${pick(['x', 'a b'])}`,
      url: () => `domain:${insert(pick(['example.com', 'docs.example.org']), pick([' ', '/', '*', ':']))}`,
      custom: () => `${pick(['todo', 'board', ''])}${pick(['*', ':*x', 'a*b'])}`,
    };
    const tools = [...kinds.entries()];
    for (let index = 0; index < 60; index++) {
      const [tool, kind] = pick(tools);
      const rule = `${tool}(${malformed[kind]?.()})`;
      // An allow may name one whole command line that does not split into words (command-rule.ts).
      const behavior = pick(
        kind === 'shell' ? (['ask', 'deny'] as const) : (['allow', 'ask', 'deny'] as const),
      );
      const file = writePersonality(
        'generated',
        `permissions:\n  ${behavior}:\n    - ${JSON.stringify(rule)}\n`,
      );
      const error = failure(() => resolvePersonality('generated', { searchDirs: [root], toolKinds: kinds }));
      expect(error.code, `${behavior} ${rule}`).toBe('config_invalid');
      expect(error.message, rule).toContain(`${file}:3:7: permissions.${behavior}.0:`);
    }
  });
});
