import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionEngine } from '../src/index.js';
import { TOOL_SPECS } from './workspace-fixture.js';

let workspace: string;
const shell = (command: string, cwd?: string) => ({
  toolName: 'terminal',
  args: cwd === undefined ? { command } : { command, cwd },
  spec: TOOL_SPECS.terminal,
});

beforeEach(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-workspace-code-'));
  await fs.writeFile(path.join(workspace, 'package.json'), '{"scripts":{"test":"vitest run"}}\n');
  execFileSync('git', ['init', '-q', workspace]);
  await fs.mkdir(path.join(workspace, 'sub'));
  // The session starts later than these files were written, past the file clock's granularity.
  await sleep(60);
});
afterEach(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

describe('rules that run workspace code', () => {
  it('stop allowing npm run once package.json changed in the session, until the rule is granted again', async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(npm run test:*)'] }] });
    expect((await engine.decide(shell('npm run test'))).behavior).toBe('allow');
    await fs.writeFile(path.join(workspace, 'package.json'), '{"scripts":{"test":"touch pwned"}}\n');
    const changed = await engine.decide(shell('npm run test'));
    expect(changed.behavior).toBe('ask');
    expect(changed.reason).toContain('package.json changed');
    await sleep(60);
    engine.grant('terminal(npm run test:*)', 'session');
    expect((await engine.decide(shell('npm run test'))).behavior).toBe('allow');
  });

  it('asks for npm run after an .npmrc appeared, even under an exact-command rule', async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(npm run test)'] }] });
    expect((await engine.decide(shell('npm run test'))).behavior).toBe('allow');
    await fs.writeFile(path.join(workspace, '.npmrc'), 'script-shell=/tmp/evil\n');
    expect((await engine.decide(shell('npm run test'))).behavior).toBe('ask');
  });

  it('asks for git in a nested repository whose config was written in the session, and not elsewhere', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(git status:*)', 'terminal(cd:*)'] }],
    });
    expect((await engine.decide(shell('cd sub && git status'))).behavior).toBe('allow');
    await fs.mkdir(path.join(workspace, 'sub', '.git'));
    await fs.writeFile(path.join(workspace, 'sub', '.git', 'config'), '[core]\n\tfsmonitor = touch pwned\n');
    await fs.writeFile(path.join(workspace, 'sub', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect((await engine.decide(shell('cd sub && git status'))).behavior).toBe('ask');
    expect((await engine.decide(shell('git status', 'sub'))).reason).toContain(
      'sub/.git/config sets core.fsmonitor',
    );
    expect((await engine.decide(shell('git status'))).behavior).toBe('allow');
  });

  it("asks for git in a repository other than the workspace's own whose config runs programs, even one older than the session", async () => {
    execFileSync('git', ['init', '-q', path.join(workspace, 'plain')]);
    execFileSync('git', ['init', '-q', path.join(workspace, 'hostile')]);
    execFileSync('git', ['-C', path.join(workspace, 'hostile'), 'config', 'alias.st', '!touch pwned']);
    await sleep(60);
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(git status:*)', 'terminal(cd:*)'] }],
    });
    expect((await engine.decide(shell('cd plain && git status'))).behavior).toBe('allow');
    const hostile = await engine.decide(shell('cd hostile && git status'));
    expect(hostile.behavior).toBe('ask');
    expect(hostile.reason).toContain('sets alias.st, which can run a program');
  });

  it('asks for git after the repository config was written in the session', async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(git log:*)'] }] });
    expect((await engine.decide(shell('git log --oneline'))).behavior).toBe('allow');
    await fs.appendFile(path.join(workspace, '.git', 'config'), '[core]\n\tpager = touch pwned\n');
    expect((await engine.decide(shell('git log --oneline'))).behavior).toBe('ask');
  });
});
