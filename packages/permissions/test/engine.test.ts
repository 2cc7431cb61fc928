import type { ToolPermissionSpec } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import {
  headlessDenial,
  InMemoryFilePins,
  PermissionEngine,
  programConfigurationFiles,
} from '../src/index.js';
import { TOOL_SPECS } from './workspace-fixture.js';

const workspace = process.cwd();
const trustedPins = new InMemoryFilePins();
trustedPins.pin(programConfigurationFiles(workspace));
const shell = (command: string) => ({ toolName: 'terminal', args: { command }, spec: TOOL_SPECS.terminal });

describe('PermissionEngine', () => {
  it('lets a deny in any layer beat an allow in another', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(git:*)'] }, { deny: ['terminal(git push:*)'] }],
    });
    expect((await engine.decide(shell('git log'))).behavior).toBe('allow');
    expect(await engine.decide(shell('git push origin main'))).toMatchObject({
      behavior: 'deny',
      rule: 'terminal(git push:*)',
    });
  });

  it('asks for an ask rule even when an allow rule matches', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(git:*)'], ask: ['terminal(git commit:*)'] }],
    });
    expect(await engine.decide(shell('git commit -m x'))).toMatchObject({
      behavior: 'ask',
      rule: 'terminal(git commit:*)',
    });
  });

  it('bounds a child by its parent denies whatever the child allows', async () => {
    const child = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal', 'mcp__github'] }],
      parentDenies: ['terminal(npm publish:*)', 'mcp__github__delete_repo'],
      // With a deny in force, npm runs only package files a person pinned (planted scripts could hide a denied program).
      filePins: trustedPins,
    });
    expect((await child.decide(shell('npm publish --access public'))).behavior).toBe('deny');
    expect((await child.decide(shell('npm test'))).behavior).toBe('allow');
    expect(
      (await child.decide({ toolName: 'mcp__github__delete_repo', args: {}, mcpServer: 'github' })).behavior,
    ).toBe('deny');
    expect(
      (await child.decide({ toolName: 'mcp__github__list_issues', args: {}, mcpServer: 'github' })).behavior,
    ).toBe('allow');
  });

  it('denies a whole tool or a whole MCP server by a blanket rule, and leaves a path deny to its paths', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['read_file'], deny: ['terminal', 'mcp__github', 'read_file(secrets/**)'] }],
    });
    expect(await engine.decide(shell('ls'))).toMatchObject({ behavior: 'deny', rule: 'terminal' });
    expect(
      await engine.decide({ toolName: 'mcp__github__create_issue', args: {}, mcpServer: 'github' }),
    ).toMatchObject({ behavior: 'deny', rule: 'mcp__github' });
    const read = (file: string) => ({
      toolName: 'read_file',
      args: { path: file },
      spec: TOOL_SPECS.read_file,
    });
    expect((await engine.decide(read('notes.md'))).behavior).toBe('allow');
    expect((await engine.decide(read('secrets/key'))).behavior).toBe('deny');
  });

  it('lists a decision for every subcommand of a shell command', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(git status:*)'], deny: ['terminal(rm:*)'] }],
    });
    const decision = await engine.decide(shell('git status && npm test; rm -rf dist'));
    expect(decision.behavior).toBe('deny');
    expect(decision.subjects?.map(({ subject, behavior }) => [subject, behavior])).toEqual([
      ['git status', 'allow'],
      ['npm test', 'ask'],
      ['rm -rf dist', 'deny'],
    ]);
  });

  it('suggests the first two words for a simple command and the exact command otherwise', async () => {
    const engine = new PermissionEngine({ workspace, layers: [] });
    expect((await engine.decide(shell('git push origin main'))).suggestedRule).toBe('terminal(git push:*)');
    expect((await engine.decide(shell('rm -rf dist'))).suggestedRule).toBe('terminal(rm -rf dist)');
    expect((await engine.decide(shell('ls'))).suggestedRule).toBe('terminal(ls)');
    expect((await engine.decide(shell('echo $(date)'))).suggestedRule).toBe('terminal(echo $(date))');
  });

  it('never offers a prefix rule for shells, interpreters, wrappers, script runners or quiver', async () => {
    const engine = new PermissionEngine({ workspace, layers: [] });
    const suggested = async (command: string) => (await engine.decide(shell(command))).suggestedRule;
    expect(await suggested('npm run build')).toBe('terminal(npm run build)');
    expect(await suggested('npx prettier --check .')).not.toMatch(/:\*\)$/);
    expect(await suggested('node scripts/build.js')).toBe('terminal(node scripts/build.js)');
    expect(await suggested('python3 manage.py migrate')).toBe('terminal(python3 manage.py migrate)');
    expect(await suggested('bash build.sh')).toBe('terminal(bash build.sh)');
    expect(await suggested('quiver trust')).toBe('terminal(quiver trust)');
    expect(await suggested('xargs grep foo')).toBe('terminal(xargs grep foo)');
    expect(await suggested('env FOO=1 make build')).toBe('terminal(env FOO=1 make build)');
    expect(await suggested('cargo test')).toBe('terminal(cargo test)');
    // An ordinary program keeps its "commands that start with" answer.
    expect(await suggested('git log --oneline')).toBe('terminal(git log:*)');
  });

  it('turns an ask into a denial for a headless session, naming the rule that would allow it', async () => {
    const engine = new PermissionEngine({ workspace, layers: [] });
    const decision = headlessDenial(
      'terminal',
      'git push origin main',
      await engine.decide(shell('git push origin main')),
    );
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toBe(
      'Permission to run terminal was denied: "git push origin main" needs approval and this session is headless. To allow it, add "terminal(git push:*)" to permissions.allow in the personality.',
    );
  });

  it('checks MCP tools and tools without a permission spec by name', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['mcp__github__list_issues', 'todo_write'] }],
    });
    expect(
      (await engine.decide({ toolName: 'mcp__github__list_issues', args: {}, mcpServer: 'github' })).behavior,
    ).toBe('allow');
    expect(
      await engine.decide({ toolName: 'mcp__github__create_issue', args: {}, mcpServer: 'github' }),
    ).toMatchObject({ behavior: 'ask', suggestedRule: 'mcp__github__create_issue' });
    expect((await engine.decide({ toolName: 'todo_write', args: {} })).behavior).toBe('allow');
  });

  it('matches memory and custom specifiers exactly or by prefix', async () => {
    const spec: ToolPermissionSpec<{ key: string }> = { kind: 'memory', specifier: (args) => args.key };
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['memory_write(project:*)'] }] });
    expect(
      (await engine.decide({ toolName: 'memory_write', args: { key: 'project:notes' }, spec })).behavior,
    ).toBe('allow');
    expect(
      await engine.decide({ toolName: 'memory_write', args: { key: 'user:secrets' }, spec }),
    ).toMatchObject({ behavior: 'ask', suggestedRule: 'memory_write(user:secrets)' });
  });

  it('asks when the subject cannot be read from the arguments', async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(git:*)'] }] });
    const decision = await engine.decide({ toolName: 'terminal', args: {}, spec: TOOL_SPECS.terminal });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toMatch(/could not be read/);
  });

  it('rejects an invalid rule at construction with a fix', () => {
    expect(() => new PermissionEngine({ workspace, layers: [{ allow: ['terminal(git'] }] })).toThrow(
      expect.objectContaining({ code: 'config_invalid', fix: expect.any(String) }),
    );
  });
});
