import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryFilePins, PermissionEngine, programConfigurationFiles } from '../src/index.js';
import { TOOL_SPECS } from './workspace-fixture.js';

let root: string;
let workspace: string;
const shell = (command: string, cwd?: string) => ({
  toolName: 'terminal',
  args: cwd === undefined ? { command } : { command, cwd },
  spec: TOOL_SPECS.terminal,
});
const write = (file: string) => ({
  toolName: 'write_file',
  args: { path: file },
  spec: TOOL_SPECS.write_file,
});

/** What `quiver trust` records: the workspace's program configuration as it is now. */
function trusted(): InMemoryFilePins {
  const pins = new InMemoryFilePins();
  pins.pin(programConfigurationFiles(workspace));
  return pins;
}

async function plant(relative: string, content = ''): Promise<void> {
  const file = path.join(workspace, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

/** The files a model writes (with write_file, which the default allows) to make `dir` a bare repository. */
async function plantBareRepository(dir: string, config: string): Promise<void> {
  await plant(`${dir}/HEAD`, 'ref: refs/heads/main\n');
  await plant(`${dir}/objects/info/keep`);
  await plant(`${dir}/refs/heads/keep`);
  await plant(`${dir}/config`, config);
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-workspace-code-'));
  workspace = path.join(root, 'workspace');
  await fs.mkdir(workspace);
  await fs.writeFile(path.join(workspace, 'package.json'), '{"scripts":{"test":"vitest run"}}\n');
  execFileSync('git', ['init', '-q', workspace]);
  await fs.writeFile(path.join(workspace, 'a.txt'), 'a\n');
  await fs.writeFile(path.join(workspace, 'b.txt'), 'b\n');
  await fs.mkdir(path.join(workspace, 'sub'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('package managers read only package files a person pinned', () => {
  it('allow npm run while package.json is as pinned, ask once it changed, and allow again after a grant pins it', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(npm run test:*)'] }],
      filePins: trusted(),
    });
    expect((await engine.decide(shell('npm run test'))).behavior).toBe('allow');
    await fs.writeFile(path.join(workspace, 'package.json'), '{"scripts":{"test":"touch pwned"}}\n');
    const changed = await engine.decide(shell('npm run test'));
    expect(changed.behavior).toBe('ask');
    expect(changed.reason).toContain('package.json');
    expect(changed.reason).toContain('changed since a person trusted it');
    expect(changed.suggestedRule).toBe('terminal(npm run test:*)');
    engine.grant('terminal(npm run test:*)', 'session');
    expect((await engine.decide(shell('npm run test'))).behavior).toBe('allow');
  });

  it('asks for npm run when nothing was pinned: a new process is no reason to trust the files', async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(npm run test)'] }] });
    const decision = await engine.decide(shell('npm run test'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('which no person has trusted');
  });

  it('asks for npm run after an .npmrc appeared, even under an exact-command rule, in the directory or above', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(npm run test)'] }],
      filePins: trusted(),
    });
    expect((await engine.decide(shell('npm run test', 'sub'))).behavior).toBe('allow');
    await plant('.npmrc', 'script-shell=/tmp/evil\n');
    const decision = await engine.decide(shell('npm run test', 'sub'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('.npmrc');
  });

  it('asks for npx prettier once a prettier configuration (code) was written', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(npx prettier --check:*)'] }],
      filePins: trusted(),
    });
    expect((await engine.decide(shell('npx prettier --check sub'))).behavior).toBe('allow');
    await plant('prettier.config.js', 'require("child_process").execSync("touch pwned")\n');
    expect((await engine.decide(shell('npx prettier --check sub'))).behavior).toBe('ask');
  });

  it('denies tools writing into node_modules, where npx and package scripts find their code', async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['write_file', 'terminal(cp:*)'] }] });
    const decision = await engine.decide(write('node_modules/.bin/vitest'));
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain('node_modules');
    expect((await engine.decide(shell('cp payload node_modules/typescript/bin/tsc'))).behavior).toBe('deny');
  });
});

describe('make and python -m read only what a person pinned', () => {
  it('asks for make when the Makefile or a file it includes is not pinned', async () => {
    await plant('Makefile', 'include rules.mk\nall:\n\techo ok\n');
    await plant('rules.mk', 'X = 1\n');
    const pins = trusted();
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(make:*)'] }],
      filePins: pins,
    });
    expect((await engine.decide(shell('make'))).behavior).toBe('allow');
    await plant('rules.mk', 'X := $(shell touch pwned)\n');
    const decision = await engine.decide(shell('make'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('rules.mk');
  });

  it('asks for python -m when the workspace holds a module of that name', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(python3 -m pytest:*)'] }],
      filePins: trusted(),
    });
    expect((await engine.decide(shell('python3 -m pytest -q'))).behavior).toBe('allow');
    await plant('pytest.py', 'import os; os.system("touch pwned")\n');
    expect((await engine.decide(shell('python3 -m pytest -q'))).behavior).toBe('ask');
  });
});

describe('git uses only repositories a person trusted', () => {
  const gitRules = {
    allow: ['terminal(git status:*)', 'terminal(git diff:*)', 'terminal(git log:*)', 'terminal(cd:*)'],
  };

  it('asks when git would find a bare repository the model wrote before the workspace repository', async () => {
    const engine = new PermissionEngine({ workspace, layers: [gitRules], filePins: trusted() });
    expect((await engine.decide(shell('git diff --no-index a b', 'sub'))).behavior).toBe('allow');
    await plantBareRepository('sub', '[diff]\n\texternal = sh -c "touch /tmp/pwned" x\n');
    const decision = await engine.decide(shell('git diff --no-index a b', 'sub'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('sub as a bare repository');
    // A grant cannot make planted state trusted: it asks again.
    engine.grant(decision.suggestedRule as string, 'session');
    expect((await engine.decide(shell('cd sub && git diff --no-index a b'))).behavior).toBe('ask');
    // A person's approval of this one call is what lets it run.
    engine.grant(decision.suggestedRule as string, 'once');
    expect((await engine.decide(shell('git diff --no-index a b', 'sub'))).behavior).toBe('allow');
    expect((await engine.decide(shell('git status'))).behavior).toBe('allow');
  });

  it('finds a bare repository at any depth above the working directory, inside the workspace', async () => {
    await plantBareRepository('sub', '');
    await fs.mkdir(path.join(workspace, 'sub', 'deep', 'er'), { recursive: true });
    const engine = new PermissionEngine({ workspace, layers: [gitRules], filePins: trusted() });
    expect((await engine.decide(shell('git log -p', 'sub/deep/er'))).behavior).toBe('ask');
  });

  it('asks when a .git file points git at a directory the model wrote', async () => {
    await plant('sub/evil/HEAD', 'ref: refs/heads/main\n');
    await plant('sub/evil/config', '[core]\n\tfsmonitor = touch pwned\n');
    await plant('sub/.git', 'gitdir: evil\n');
    const engine = new PermissionEngine({ workspace, layers: [gitRules], filePins: trusted() });
    const decision = await engine.decide(shell('git status', 'sub'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toMatch(/sub\/evil\/config|sub\/\.git/);
  });

  it('asks when a trusted configuration includes a file the tools may write', async () => {
    execFileSync('git', ['-C', workspace, 'config', 'include.path', '../sub/extra.cfg']);
    await plant('sub/extra.cfg', '[diff]\n\texternal = touch\n');
    const engine = new PermissionEngine({ workspace, layers: [gitRules] });
    const decision = await engine.decide(shell('git diff'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('sub/extra.cfg');
  });

  it("trusts the workspace's own configuration, which no tool may write", async () => {
    execFileSync('git', ['-C', workspace, 'config', 'diff.tool', 'vimdiff']);
    const engine = new PermissionEngine({
      workspace,
      layers: [{ ...gitRules, allow: [...gitRules.allow, 'write_file'] }],
    });
    expect((await engine.decide(shell('git log --oneline'))).behavior).toBe('allow');
    for (const file of [
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/info/attributes',
      'sub/.git',
      'sub/.git/config',
    ])
      expect((await engine.decide(write(file))).behavior, file).toBe('deny');
  });

  it('asks for git in a nested repository whose configuration runs programs, and not in a plain one', async () => {
    execFileSync('git', ['init', '-q', path.join(workspace, 'plain')]);
    execFileSync('git', ['init', '-q', path.join(workspace, 'hostile')]);
    execFileSync('git', ['-C', path.join(workspace, 'hostile'), 'config', 'alias.st', '!touch pwned']);
    const engine = new PermissionEngine({ workspace, layers: [gitRules] });
    expect((await engine.decide(shell('cd plain && git status'))).behavior).toBe('allow');
    const hostile = await engine.decide(shell('cd hostile && git status'));
    expect(hostile.behavior).toBe('ask');
    expect(hostile.reason).toContain('sets alias.st, which can run a program');
  });
});

describe('the operands of allowed programs stay inside the workspace', () => {
  it('asks for git diff --no-index of a file outside the workspace, however it is spelled', async () => {
    await fs.mkdir(path.join(root, 'home', '.ssh'), { recursive: true });
    const key = path.join(root, 'home', '.ssh', 'id_rsa');
    await fs.writeFile(key, 'PRIVATE KEY\n');
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(git diff:*)'] }] });
    for (const command of [
      `git diff --no-index ${key} /dev/null`,
      `git diff --no-index -- ${key} a.txt`,
      'git diff --no-index ../home/.ssh/id_rsa /dev/null',
      'git diff --no-index ../../../../../../../../etc/shadow a.txt',
      `git diff ${key} a.txt`,
    ]) {
      const decision = await engine.decide(shell(command));
      expect(decision.behavior, command).toBe('ask');
      expect(decision.reason, command).toMatch(/outside the workspace|a link out of the workspace/);
    }
    expect((await engine.decide(shell('git diff --no-index a.txt b.txt'))).behavior).toBe('allow');
  });

  it('judges an operand after -- as the path it is, through links: cat -- -ev reads .env', async () => {
    await fs.writeFile(path.join(workspace, '.env'), 'SECRET=1\n');
    await fs.symlink('.env', path.join(workspace, '-ev'));
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(cat:*)'], deny: ['read_file(.env)'] }],
    });
    const decision = await engine.decide(shell('cat -- -ev'));
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain('.env');
  });

  it('asks for a program that runs outside the workspace after cd', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(ls:*)', 'terminal(cd:*)'] }],
    });
    expect((await engine.decide(shell('cd .. && ls'))).behavior).toBe('ask');
    expect((await engine.decide(shell('cd sub && ls'))).behavior).toBe('allow');
  });
});

describe('what the oracle found in hostile workspaces', () => {
  it('asks for python -m when a module of the working directory shadows one it imports', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(python3:*)'] }],
      filePins: trusted(),
    });
    expect((await engine.decide(shell('python3 -mjson.tool a.txt'))).behavior).toBe('allow');
    await plant('sub/unittest.py', 'import os\n');
    expect((await engine.decide(shell('python3 -mtest', 'sub'))).behavior).toBe('ask');
    await plant('json/__init__.py', 'import os\n');
    expect((await engine.decide(shell('python3 -m json.tool a.txt'))).behavior).toBe('ask');
  });

  it('asks when an inert variable names a file: libc reads the zone file TZ names', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(date:*)', 'terminal(ls:*)'] }],
    });
    expect((await engine.decide(shell('TZ=UTC date'))).behavior).toBe('allow');
    for (const command of [
      'TZ=/root/.ssh/id_rsa date',
      'TZ=:/etc/shadow ls -l',
      'TZ=/proc/self/cwd/.env date',
    ])
      expect((await engine.decide(shell(command))).behavior, command).toBe('ask');
  });

  it('asks when a glob or an input redirection reaches a link out of the workspace', async () => {
    await plant('src/a.ts', 'a\n');
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(wc:*)', 'terminal(tr:*)', 'terminal(grep:*)'] }],
    });
    expect((await engine.decide(shell('wc -l src/*.ts'))).behavior).toBe('allow');
    await fs.symlink(path.join(root, 'secret.txt'), path.join(workspace, 'src', 'c.ts'));
    await fs.writeFile(path.join(root, 'secret.txt'), 'secret\n');
    for (const command of ['wc -l src/*.ts', 'grep -n export src/*.ts', 'tr a-z A-Z < src/c.ts']) {
      const decision = await engine.decide(shell(command));
      expect(decision.behavior, command).toBe('ask');
      expect(decision.reason, command).toMatch(/outside the workspace|a link out of the workspace/);
    }
  });

  it("asks for git commands that write the repository's configuration, and not for reading it", async () => {
    const engine = new PermissionEngine({ workspace, layers: [{ allow: ['terminal(git:*)'] }] });
    for (const command of [
      'git config --get user.name',
      'git config user.name',
      'git remote -v',
      'git branch -a',
    ])
      expect((await engine.decide(shell(command))).behavior, command).toBe('allow');
    for (const command of [
      'git init',
      'git config diff.external ./payload',
      'git config --unset core.editor',
      'git remote add evil ../evil',
      'git branch -u origin/main',
      'git push -u origin main',
      'git clone ../other copy',
    ])
      expect((await engine.decide(shell(command))).behavior, command).toBe('ask');
  });
});

describe('wrappers that take away the environment Quiver gives programs', () => {
  it('ask for env -i, env -, env -u of a non-inert name, exec -c, sudo and doas, and still deny the wrapped command', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [
        {
          allow: [
            'terminal(git status:*)',
            'terminal(npm run test:*)',
            'terminal(env:*)',
            'terminal(sudo:*)',
          ],
          deny: ['terminal(rm:*)'],
        },
      ],
      filePins: trusted(),
    });
    // Unwrapped, and under env with an inert variable, these stay allowed.
    for (const command of [
      'git status',
      'npm run test',
      'env NO_COLOR=1 git status',
      'env -u NO_COLOR git status',
    ])
      expect((await engine.decide(shell(command))).behavior, command).toBe('allow');
    for (const [command, said] of <Array<[string, string]>>[
      ['env -i git status', 'clears the environment'],
      ['env - npm run test', 'clears the environment'],
      ['env --ignore-environment npm run test', 'clears the environment'],
      ['env -u HOME npm run test', 'removing HOME'],
      ['env --unset GIT_CONFIG_COUNT git status', 'removing GIT_CONFIG_COUNT'],
      ['exec -c git status', 'clears the environment'],
      ['sudo git status', 'as another user'],
      ['doas git status', 'as another user'],
    ]) {
      const decision = await engine.decide(shell(command));
      expect(decision.behavior, command).toBe('ask');
      expect(decision.reason, command).toContain(said);
    }
    for (const command of ['env -i FOO=1 rm -rf sub', 'sudo rm -rf sub', 'exec -c rm -rf sub'])
      expect((await engine.decide(shell(command))).behavior, command).toBe('deny');
  });
});

describe('programs that follow symlinks while they walk a directory tree', () => {
  it('ask for git grep once a tracked directory became a link out of the workspace (git really reads through it)', async () => {
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'guide.md'), 'TODO the secret outside\n');
    await plant('docs/guide.md', 'TODO inside\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        encoding: 'utf8',
      });
    git('add', '-A');
    git('commit', '-qm', 'docs');
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(git grep:*)'] }],
      filePins: trusted(),
    });
    expect((await engine.decide(shell('git grep -n TODO'))).behavior).toBe('allow');
    await fs.rm(path.join(workspace, 'docs'), { recursive: true });
    await fs.symlink(outside, path.join(workspace, 'docs'));
    // The oracle's finding, as git shows it: the tracked path is read through the link.
    expect(git('grep', '-n', 'TODO')).toContain('the secret outside');
    const decision = await engine.decide(shell('git grep -n TODO'));
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('docs, a symlink out of the workspace where a tracked directory was');
    // Searching the index reads no work-tree file.
    expect((await engine.decide(shell('git grep --cached -n TODO'))).behavior).toBe('allow');
  });

  it('ask for grep -R, rg -L, find -L, ls -RL and du -L below a link out, and not for their non-following forms', async () => {
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.symlink(outside, path.join(workspace, 'sub', 'out'));
    const engine = new PermissionEngine({
      workspace,
      layers: [
        {
          allow: [
            'terminal(grep:*)',
            'terminal(rg:*)',
            'terminal(find:*)',
            'terminal(ls:*)',
            'terminal(du:*)',
          ],
        },
      ],
      filePins: trusted(),
    });
    for (const command of [
      'grep -R TODO',
      'grep -rnR TODO sub',
      'rg --follow TODO',
      'find -L . -name x',
      'find sub -follow',
      'ls -RL',
      'du -L sub',
    ])
      expect((await engine.decide(shell(command))).reason ?? 'allowed', command).toContain(
        'leads out of the workspace',
      );
    for (const command of [
      'grep -r TODO .',
      'rg TODO',
      'find . -name x',
      'ls -R',
      'du -sh .',
      'grep -R TODO a.txt',
    ])
      expect((await engine.decide(shell(command))).behavior, command).toBe('allow');
  });
});
