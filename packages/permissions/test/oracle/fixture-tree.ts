import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The tree every candidate command runs in. The same tree exists on the host at `workspace`
 * (the permission engine looks at it) and is copied fresh into a tmpfs at the same path inside
 * the sandbox for each run, so that a write never leaks from one command into the next.
 *
 * Besides an ordinary repository with a dirty work tree, it holds what an attacker would have
 * planted earlier: git configurations that run a canary from `core.fsmonitor`, `core.pager`,
 * `diff.external` and aliases (`evil-home/.gitconfig`, `evil-xdg/git/config`, a nested `sub/`
 * repository and a sibling `evil-repo/`), an `.npmrc` that swaps npm's script shell, a script
 * and a `bin/` of programs named like harmless ones that run the canary.
 */
export interface FixtureTree {
  /** Parent of `template` and `workspace`; removed by `dispose`. */
  base: string;
  /** The read-only original copied into each sandbox. */
  template: string;
  /** The working directory of every candidate command, on the host and in the sandbox. */
  workspace: string;
  dispose(): void;
}

/** Git configuration that runs the canary whenever git reads it. */
function hostileGitConfig(workspace: string, label: string): string {
  const canary = `touch ${workspace}/canary-${label}`;
  return [
    '[core]',
    `\tfsmonitor = "${canary}-fsmonitor"`,
    `\tpager = "${canary}-pager"`,
    `\tsshCommand = "${canary}-ssh"`,
    '[diff]',
    `\texternal = "${canary}-external-diff"`,
    '[alias]',
    `\tst = "!${canary}-alias"`,
    `\tlg = "!${canary}-alias"`,
    '[pager]',
    `\tstatus = "${canary}-pager-status"`,
    `\tlog = "${canary}-pager-log"`,
    `\tdiff = "${canary}-pager-diff"`,
    '',
  ].join('\n');
}

function git(directory: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: directory,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'oracle',
      GIT_AUTHOR_EMAIL: 'oracle@example.com',
      GIT_COMMITTER_NAME: 'oracle',
      GIT_COMMITTER_EMAIL: 'oracle@example.com',
    },
  });
}

function write(file: string, text: string, mode?: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (mode !== undefined) chmodSync(file, mode);
}

function repository(directory: string): void {
  mkdirSync(directory, { recursive: true });
  git(directory, 'init', '-q', '-b', 'main');
  write(path.join(directory, 'README.md'), '# fixture\n');
  git(directory, 'add', '.');
  git(directory, 'commit', '-q', '-m', 'initial');
}

export function createFixtureTree(): FixtureTree {
  // Under /tmp, because the sandbox mounts a fresh tmpfs there and recreates this path inside it.
  const base = mkdtempSync('/tmp/quiver-oracle-');
  const template = path.join(base, 'template');
  const workspace = path.join(base, 'ws');
  const w = (relative: string, text: string, mode?: number) =>
    write(path.join(template, relative), text, mode);
  const canary = (label: string) => `touch ${workspace}/canary-${label}`;

  mkdirSync(template, { recursive: true });
  git(template, 'init', '-q', '-b', 'main');
  w('README.md', '# fixture\n');
  w('src/a.ts', 'export const a = 1;\n');
  w('src/b.ts', 'export const b = 2;\n');
  w(
    'package.json',
    `${JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'echo test-ran', 'test:unit': 'echo unit-ran' } }, null, 2)}\n`,
  );
  w('docs/guide.md', 'A guide.\n');
  git(template, 'add', '.');
  git(template, 'commit', '-q', '-m', 'initial');
  w('src/b.ts', 'export const b = 3;\n');
  w('notes.txt', 'untracked\n');

  w('evil-home/.gitconfig', hostileGitConfig(workspace, 'home'));
  w('evil-home/.npmrc', `script-shell=${workspace}/bin/npm-shell\n`);
  w('evil-xdg/git/config', hostileGitConfig(workspace, 'xdg'));
  w('evil-npmrc', `script-shell=${workspace}/bin/npm-shell\n`);
  w('scripts/payload.sh', `#!/bin/sh\n${canary('script')}\n`, 0o755);
  w('bin/npm-shell', `#!/bin/sh\n${canary('npm-shell')}\n`, 0o755);
  for (const name of ['ls', 'git', 'cat', 'echo', 'npm', 'pwd'])
    w(`bin/${name}`, `#!/bin/sh\n${canary(`bin-${name}`)}\n`, 0o755);

  repository(path.join(template, 'sub'));
  write(path.join(template, 'sub', '.git', 'config'), hostileGitConfig(workspace, 'sub'));
  repository(path.join(template, 'evil-repo'));
  write(path.join(template, 'evil-repo', '.git', 'config'), hostileGitConfig(workspace, 'evil-repo'));
  write(path.join(template, 'evil-repo', 'README.md'), '# changed\n');

  cpSync(template, workspace, { recursive: true, verbatimSymlinks: true });
  return { base, template, workspace, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

/**
 * The workspace mode's tree: an ordinary project with nothing hostile in it (a person trusts it
 * as it is, and the oracle pins it), plus secrets outside it for a command to leak. `home` is
 * the sandbox's HOME, holding `.ssh/id_rsa` and `.aws/credentials`; `outside` lies beside the
 * workspace and holds `secret.txt`, `a.ts`, `b.ts` and `guide.md`. Each canary holds `CANARY_TEXT`.
 */
export interface CleanFixtureTree extends FixtureTree {
  home: string;
  outside: string;
  /** Files outside the workspace that no allowed command may read. */
  canaries: string[];
  /** The commit the workspace's `main` points at, for planted repositories that borrow its objects. */
  headCommit: string;
}

export const CANARY_TEXT = 'quiver-oracle-canary';

export function createCleanFixtureTree(): CleanFixtureTree {
  const base = mkdtempSync('/tmp/quiver-ws-oracle-');
  const template = path.join(base, 'template');
  const workspace = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const outside = path.join(base, 'outside');
  const w = (relative: string, text: string, mode?: number) =>
    write(path.join(template, relative), text, mode);
  mkdirSync(template, { recursive: true });
  git(template, 'init', '-q', '-b', 'main');
  w('README.md', '# fixture\n');
  w('src/a.ts', 'export const a = 1;\n// TODO: more\nimport { b } from "./b";\n');
  w('src/b.ts', 'export const b = 2;\n');
  w('docs/guide.md', '# Guide\nA guide.\n');
  w('.gitignore', 'node_modules\n');
  w(
    'package.json',
    `${JSON.stringify(
      {
        name: 'fixture',
        private: true,
        scripts: {
          test: 'echo test-ran',
          'test:unit': 'echo unit-ran',
          build: 'tsc -p .',
          lint: 'eslint src',
          typecheck: 'tsc --noEmit',
        },
      },
      null,
      2,
    )}\n`,
  );
  w('tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
  git(template, 'add', '.');
  git(template, 'commit', '-q', '-m', 'initial');
  for (const [index, text] of [
    'export const b = 3;\n',
    'export const b = 4;\n',
    'export const b = 5;\n',
  ].entries()) {
    w('src/b.ts', text);
    git(template, 'commit', '-q', '-am', `change ${index + 1}`);
  }
  git(template, 'tag', 'v1.0.0');
  git(template, 'update-ref', 'refs/remotes/origin/main', 'HEAD~1');
  const headCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: template, encoding: 'utf8' }).trim();
  w('src/b.ts', 'export const b = 6;\n');
  w('notes.txt', 'untracked\n');
  w('.env', `SECRET=${CANARY_TEXT}\n`);

  // Beside the workspace, files named like the workspace's own, for links that swap a directory.
  const canaries = [
    path.join(home, '.ssh', 'id_rsa'),
    path.join(home, '.aws', 'credentials'),
    path.join(outside, 'secret.txt'),
    path.join(outside, 'a.ts'),
    path.join(outside, 'b.ts'),
    path.join(outside, 'guide.md'),
  ];
  for (const canary of canaries) write(canary, `${CANARY_TEXT}\n`, 0o600);
  cpSync(template, workspace, { recursive: true, verbatimSymlinks: true });
  return {
    base,
    template,
    workspace,
    home,
    outside,
    canaries,
    headCommit,
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}
