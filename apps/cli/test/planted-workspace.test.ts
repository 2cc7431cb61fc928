import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { createQuiver, type Quiver } from '@quiver/wiring';
import { afterEach, describe, expect } from 'vitest';
import { quiver as runCli, tempDirs } from './helpers.js';
import { trustOnTerminal } from './trust-terminal.js';

/**
 * The model controls the workspace: these tests plant state with the tools the embedded default
 * allows (write_file), then ask for commands the default's read-only rules allow, as an attacker
 * did. A marker file outside the workspace shows whether a planted payload ran.
 */
describe('allowed programs cannot be turned by state the model planted', () => {
  const dirs = tempDirs('quiver-planted-');
  afterEach(dirs.cleanup);

  function workspaceWithRepository(): { workspace: string; marker: string } {
    const root = dirs.make();
    const workspace = path.join(root, 'workspace');
    mkdirSync(path.join(workspace, 'sub'), { recursive: true });
    execFileSync('git', ['init', '-q', workspace]);
    for (const name of ['a', 'b']) {
      writeFileSync(path.join(workspace, name), `${name}\n`);
      writeFileSync(path.join(workspace, 'sub', name), `${name}\n`);
    }
    return { workspace, marker: path.join(root, 'PWNED') };
  }

  async function call(quiver: Quiver, name: string, args: Record<string, unknown>, allow?: string[]) {
    const session = quiver.createSession(allow ? { permissions: { allow } } : {});
    try {
      const [result] = await session.execute([{ name, args }]);
      return result;
    } finally {
      await session.close();
    }
  }

  /** What the model writes with write_file to make `sub` a bare repository whose diff runs `payload`. */
  async function plantBareRepository(quiver: Quiver, payload: string): Promise<void> {
    const files: Record<string, string> = {
      'sub/HEAD': 'ref: refs/heads/main\n',
      'sub/objects/info/keep': '',
      'sub/refs/heads/keep': '',
      'sub/config': `[diff]\n\texternal = ${payload}\n`,
    };
    for (const [file, content] of Object.entries(files)) {
      const written = await call(quiver, 'write_file', { path: file, content });
      expect(written?.ok, `${file}: ${JSON.stringify(written)}`).toBe(true);
    }
  }

  itWithSystemTools(['git'])(
    'refuses git diff in a bare repository the model wrote, under the embedded default, and runs nothing',
    async () => {
      const { workspace, marker } = workspaceWithRepository();
      const quiver = await createQuiver({ workspace, discoverConfig: false });
      try {
        const before = await call(quiver, 'terminal', { command: 'git diff --no-index a b', cwd: 'sub' });
        expect(before?.ok === false && before.code === 'not_permitted', JSON.stringify(before)).toBe(false);
        await plantBareRepository(quiver, `/usr/bin/touch ${marker}`);
        const after = await call(quiver, 'terminal', { command: 'git diff --no-index a b', cwd: 'sub' });
        expect(after).toMatchObject({ ok: false, code: 'not_permitted' });
        expect(!after?.ok && after?.error).toContain('bare repository');
        expect(existsSync(marker)).toBe(false);
        // git status from the root still uses the workspace's own repository.
        const status = await call(quiver, 'terminal', { command: 'git status --short' });
        expect(status?.ok, JSON.stringify(status)).toBe(true);
      } finally {
        await quiver.close();
      }
    },
    60_000,
  );

  itWithSystemTools(['git'])(
    'refuses git in a directory a planted .git file points at, and git log -p through planted attributes',
    async () => {
      const { workspace, marker } = workspaceWithRepository();
      const quiver = await createQuiver({ workspace, discoverConfig: false });
      try {
        for (const [file, content] of Object.entries({
          'sub/evil/HEAD': 'ref: refs/heads/main\n',
          'sub/evil/objects/info/alternates': `${path.join(workspace, '.git', 'objects')}\n`,
          'sub/evil/refs/heads/keep': '',
          'sub/evil/info/attributes': '* diff=x\n',
          'sub/evil/config': `[diff "x"]\n\ttextconv = /usr/bin/touch ${marker}\n`,
        })) {
          const written = await call(quiver, 'write_file', { path: file, content });
          expect(written?.ok, `${file}: ${JSON.stringify(written)}`).toBe(true);
        }
        // The .git file itself is protected: the model cannot write it with a tool...
        const gitFile = await call(quiver, 'write_file', { path: 'sub/.git', content: 'gitdir: evil\n' });
        expect(gitFile).toMatchObject({ ok: false, code: 'not_permitted' });
        // ...but a person's clone could have left one: git must still not be allowed to follow it.
        writeFileSync(path.join(workspace, 'sub', '.git'), 'gitdir: evil\n');
        const log = await call(quiver, 'terminal', { command: 'git log -p', cwd: 'sub' });
        expect(log).toMatchObject({ ok: false, code: 'not_permitted' });
        expect(existsSync(marker)).toBe(false);
      } finally {
        await quiver.close();
      }
    },
    60_000,
  );

  itWithSystemTools(['git'])(
    'refuses git diff --no-index of a file outside the workspace, however it is spelled',
    async () => {
      const { workspace } = workspaceWithRepository();
      const secret = path.join(path.dirname(workspace), 'id_rsa');
      writeFileSync(secret, 'PRIVATE KEY MATERIAL\n');
      const quiver = await createQuiver({ workspace, discoverConfig: false });
      try {
        for (const command of [
          `git diff --no-index ${secret} /dev/null`,
          `git diff --no-index -- ${secret} a`,
          'git diff --no-index ../id_rsa a',
          'git diff --no-index ../../../../../../..' + `${secret} a`,
        ]) {
          const result = await call(quiver, 'terminal', { command });
          expect(result, command).toMatchObject({ ok: false, code: 'not_permitted' });
          expect(JSON.stringify(result), command).not.toContain('PRIVATE KEY MATERIAL');
        }
        const read = await call(quiver, 'read_file', { path: secret });
        expect(read?.ok).toBe(false);
      } finally {
        await quiver.close();
      }
    },
    60_000,
  );

  itWithSystemTools(['git'])('judges cat -- -ev as the read of .env it is', async () => {
    const { workspace } = workspaceWithRepository();
    writeFileSync(path.join(workspace, '.env'), 'TOKEN=hunter2\n');
    symlinkSync('.env', path.join(workspace, '-ev'));
    const quiver = await createQuiver({ workspace, discoverConfig: false });
    try {
      const result = await call(quiver, 'terminal', { command: 'cat -- -ev' }, ['terminal(cat:*)']);
      expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
      expect(JSON.stringify(result)).not.toContain('hunter2');
    } finally {
      await quiver.close();
    }
  });

  itWithSystemTools(['bwrap', 'python3'])(
    'keeps protected configuration read-only and the home directory hidden inside the sandbox, for a program that runs anyway',
    async () => {
      const { workspace } = workspaceWithRepository();
      writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: default\n');
      mkdirSync(path.join(workspace, 'personalities'));
      writeFileSync(path.join(workspace, 'personalities', 'other.yaml'), 'id: other\n');
      const canary = path.join(os.homedir(), `.quiver-home-canary-${process.pid}`);
      writeFileSync(canary, 'HOME SECRET\n');
      const quiver = await createQuiver({ workspace, discoverConfig: false });
      try {
        const script = [
          'import os',
          `for f in ['quiver.yaml', 'personalities/other.yaml', '.git/config']:`,
          '    try:',
          "        open(f, 'a').write('pwned')",
          "        print('WROTE', f)",
          '    except OSError as e:',
          "        print('REFUSED', f, e.errno)",
          'try:',
          `    print('READ', open(${JSON.stringify(canary)}).read())`,
          'except OSError:',
          "    print('HIDDEN')",
          "open('ordinary.txt', 'w').write('ok')",
        ].join('\n');
        writeFileSync(path.join(workspace, 'probe.py'), script);
        const result = await call(quiver, 'terminal', { command: 'python3 probe.py' }, ['terminal']);
        expect(result?.ok, JSON.stringify(result)).toBe(true);
        const output = result?.ok ? result.value : '';
        expect(output).not.toContain('WROTE');
        expect(output).toContain('HIDDEN');
        expect(output).not.toContain('HOME SECRET');
        expect(readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8')).toBe(
          'defaultPersonality: default\n',
        );
        expect(readFileSync(path.join(workspace, 'ordinary.txt'), 'utf8')).toBe('ok');
      } finally {
        rmSync(canary, { force: true });
        await quiver.close();
      }
    },
    60_000,
  );

  itWithSystemTools(['git'])(
    'refuses the planted bare repository through the CLI too, and permit names it',
    async () => {
      const { workspace, marker } = workspaceWithRepository();
      const files: Record<string, string> = {
        'sub/HEAD': 'ref: refs/heads/main\n',
        'sub/objects/info/keep': '',
        'sub/refs/heads/keep': '',
        'sub/config': `[diff]\n\texternal = /usr/bin/touch ${marker}\n`,
      };
      for (const [file, content] of Object.entries(files)) {
        const written = await runCli(
          ['call', 'write_file', '--args', JSON.stringify({ path: file, content })],
          {
            cwd: workspace,
          },
        );
        expect(written.code, written.stderr).toBe(0);
      }
      const args = JSON.stringify({ command: 'git diff --no-index a b', cwd: 'sub' });
      const permit = await runCli(['permit', 'terminal', '--args', args], { cwd: workspace });
      expect(permit.stdout + permit.stderr).toContain('bare repository');
      const called = await runCli(['call', 'terminal', '--args', args], { cwd: workspace });
      expect(called.code).not.toBe(0);
      expect(existsSync(marker)).toBe(false);
    },
    60_000,
  );

  itWithSystemTools(['script'])(
    'runs npm run test with the package files a person trusted, and refuses it once the model planted an .npmrc, --trust-project or not',
    async () => {
      const { workspace, marker } = workspaceWithRepository();
      writeFileSync(
        path.join(workspace, 'package.json'),
        `${JSON.stringify({ name: 'planted', private: true, scripts: { test: 'node -e "console.log(42 + 1)"' } })}\n`,
      );
      writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: dev\n');
      mkdirSync(path.join(workspace, 'personalities'));
      writeFileSync(
        path.join(workspace, 'personalities', 'dev.yaml'),
        "id: dev\nextends: default\nsandbox: off\npermissions:\n  allow: { add: ['terminal(npm run test:*)'] }\n",
      );
      const env = { XDG_DATA_HOME: path.join(path.dirname(workspace), 'xdg-data') };
      await trustOnTerminal(workspace, env);
      const args = JSON.stringify({ command: 'npm run test' });
      const before = await runCli(['call', 'terminal', '--args', args], { cwd: workspace, env });
      expect(before.code, before.stdout + before.stderr).toBe(0);
      expect(before.stdout).toContain('43');
      const payload = JSON.stringify({
        path: 'shell.sh',
        content: `#!/bin/sh\n/usr/bin/touch ${marker}\nexec /bin/sh "$@"\n`,
      });
      expect((await runCli(['call', 'write_file', '--args', payload], { cwd: workspace, env })).code).toBe(0);
      const npmrc = JSON.stringify({
        path: '.npmrc',
        content: `script-shell=${path.join(workspace, 'shell.sh')}\n`,
      });
      expect((await runCli(['call', 'write_file', '--args', npmrc], { cwd: workspace, env })).code).toBe(0);
      for (const launch of [[], ['--trust-project']]) {
        const after = await runCli([...launch, 'call', 'terminal', '--args', args], { cwd: workspace, env });
        expect(after.code, `${launch.join(' ')}: ${after.stdout}`).not.toBe(0);
        expect(after.stdout + after.stderr).toContain('.npmrc');
      }
      expect(existsSync(marker)).toBe(false);
    },
    120_000,
  );
});
