import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-rules-');
afterEach(dirs.cleanup);

/** A workspace whose personality `name` allows reads and denies with `deny` (one rule per line). */
function workspaceWith(deny: readonly string[], name = 'guarded'): { workspace: string; file: string } {
  const workspace = dirs.make();
  const file = path.join(workspace, 'personalities', `${name}.yaml`);
  write(
    file,
    [
      'extends: default',
      'permissions:',
      '  allow: { add: [read_file] }',
      '  deny:',
      ...deny.map((rule) => `    - ${JSON.stringify(rule)}`),
      '',
    ].join('\n'),
  );
  write(path.join(workspace, 'src/a/b.key'), 'secret\n');
  return { workspace, file };
}

describe('a personality with a rule that does not parse', () => {
  it('fails quiver personality check with exit 2, naming the file, the line, the rule and a fix', async () => {
    const { workspace, file } = workspaceWith(['read_file(.env)', 'read_file(src/**/*.{key,pem)']);
    const run = await quiver(['personality', 'check', file], { cwd: workspace });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[config_invalid]');
    expect(run.stderr).toContain(`${file}:6:7: permissions.deny.1:`);
    expect(run.stderr).toContain('Permission rule "read_file(src/**/*.{key,pem)" does not parse');
    expect(run.stderr).toContain('Fix: Close the alternatives with "}"');
    expect(run.stderr).not.toMatch(/^ok /m);
  });

  it('never lets quiver permit answer allow for a path the broken deny meant to cover', async () => {
    const malformed = [
      'read_file(src/**/*.{key,pem)',
      'read_file(src/[**)',
      'read_file(src/**/*.key\\)',
      'read_file(src/a}/*.key)',
      'read_file(!src/**)',
      'grep(src/(a|b/**)',
    ];
    for (const rule of malformed) {
      const { workspace, file } = workspaceWith([rule]);
      const run = await quiver(
        // Trusted, so that nothing but the rules stands between the call and an allow.
        [
          '--trust-project',
          'permit',
          'read_file',
          '--args',
          JSON.stringify({ path: 'src/a/b.key' }),
          '-p',
          file,
          '--json',
        ],
        { cwd: workspace },
      );
      expect(run.code, rule).toBe(2);
      expect(run.stdout, rule).not.toContain('"allow"');
      expect(JSON.parse(run.stderr.trim().split('\n').at(-1) as string).error.code, rule).toBe(
        'config_invalid',
      );
    }
  });

  it('denies the path once the rule is written so that it parses', async () => {
    const { workspace, file } = workspaceWith(['read_file(src/**/*.{key,pem})']);
    const run = await quiver(
      [
        '--trust-project',
        'permit',
        'read_file',
        '--args',
        JSON.stringify({ path: 'src/a/b.key' }),
        '-p',
        file,
        '--json',
      ],
      { cwd: workspace },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ behavior: 'deny', rule: 'read_file(src/**/*.{key,pem})' });
    const other = await quiver(
      [
        '--trust-project',
        'permit',
        'read_file',
        '--args',
        JSON.stringify({ path: 'src/a/b.ts' }),
        '-p',
        file,
        '--json',
      ],
      { cwd: workspace },
    );
    expect(JSON.parse(other.stdout)).toMatchObject({ behavior: 'allow' });
  });
});

describe('an ask rule on a loaded tool whose name alone does not tell its kind', () => {
  it('fails personality check and every command that loads it, at its file and line, not at the first call', async () => {
    const workspace = dirs.make();
    const file = path.join(workspace, 'personalities', 'searcher.yaml');
    write(file, 'extends: default\npermissions:\n  ask:\n    - "grep_search(src/{a)"\n');
    const check = await quiver(['personality', 'check', file], { cwd: workspace });
    expect(check.code, check.stdout).toBe(2);
    expect(check.stderr).toContain(`${file}:4:7: permissions.ask.0:`);
    expect(check.stderr).toContain('Permission rule "grep_search(src/{a)" does not parse');
    const tools = await quiver(['--trust-project', 'tools', '-p', file], { cwd: workspace });
    expect(tools.code).toBe(2);
    expect(tools.stderr).toContain(`${file}:4:7: permissions.ask.0:`);
  });
});

describe('quiver personality check on a personality that extends another', () => {
  it('lists each inherited allow a plain list drops, and how to keep them', async () => {
    const workspace = dirs.make();
    const file = path.join(workspace, 'personalities', 'repl.yaml');
    write(file, 'extends: default\npermissions:\n  allow: [repl]\n');
    const run = await quiver(['personality', 'check', file], { cwd: workspace });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `dropped permissions.allow: "read_file" (from embedded:default) — replaced by the list in ${file}:3`,
    );
    expect(run.stdout).toContain('"terminal(git status:*)"');
    expect(run.stdout).toContain('write the list as { add: [...] }');
    expect(run.stdout).toContain('ok repl');
  });

  it('drops nothing when the child adds with { add }, and reports what { remove } takes out', async () => {
    const workspace = dirs.make();
    const file = path.join(workspace, 'personalities', 'repl.yaml');
    write(
      file,
      'extends: default\nplugins: { add: [tools-repl], remove: [tools-kanban] }\npermissions:\n  allow: { add: [repl] }\n',
    );
    const run = await quiver(['personality', 'check', file, '--json'], { cwd: workspace });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      dropped: Array<{ keyPath: string; item: string; how: string }>;
    };
    expect(report.ok).toBe(true);
    expect(report.dropped).toEqual([
      expect.objectContaining({
        keyPath: 'plugins',
        item: 'tools-kanban',
        how: 'removed',
        line: 2,
        column: 1,
      }),
    ]);
  });
});

describe('a personality with an unknown key', () => {
  it('fails with its file, line and column and the nearest key, nested keys included', async () => {
    const workspace = dirs.make();
    const file = path.join(workspace, 'personalities', 'typo.yaml');
    write(file, 'plugin: [tools-code]\nbudget:\n  maxResultChar: 100\n');
    const run = await quiver(['personality', 'check', file], { cwd: workspace });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1:1: plugin: unknown key "plugin". Did you mean "plugins"?`);
    expect(run.stderr).toMatch(
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:3: budget\\.maxResultChar: unknown key "maxResultChar"\\. Did you mean "`,
      ),
    );
  });
});
