import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRepository, firstActiveGitKey } from './git-repository-config.js';
import { PACKAGE_MANAGERS } from './shell/program-semantics.js';
import { realWorkspace } from './workspace-path.js';

/**
 * File timestamps come from a coarse kernel clock (a few milliseconds behind the real time), so a
 * file written just after `since` can carry an earlier time. Counting a little before `since`
 * keeps such writes visible; the price is asking for files written just before the session.
 */
const CLOCK_SLACK_MS = 20;

export type UntrustedCode =
  | { kind: 'changed'; reason: string; program: string }
  | { kind: 'foreign-repository'; reason: string };
const RECURSIVE_OPTIONS = /^(-r|--recursive|--workspaces|--ws|-w|--workspace(=.*)?|--filter(=.*)?|-F)$/;
const MAX_PACKAGE_SCAN = 2000;

/**
 * For a program that runs code or configuration the workspace controls (npm/pnpm/yarn scripts and
 * `.npmrc`; git's repository configuration, hooks and attributes), why a rule for it cannot be
 * trusted now: such a file was written at or after `since`, or git would run in a repository
 * other than the workspace's own whose configuration is not plain data. Undefined when neither.
 */
export function untrustedWorkspaceCode(
  argv: readonly string[],
  directories: readonly string[] | null,
  workspace: string,
  since: number,
): UntrustedCode | undefined {
  const program = path.posix.basename(argv[0] ?? '');
  const isGit = program === 'git';
  if (!isGit && !PACKAGE_MANAGERS.has(program)) return undefined;
  const root = realWorkspace(workspace);
  const threshold = since - CLOCK_SLACK_MS;
  const candidates = new Set<string>();
  const own = isGit ? findRepository(root) : undefined;
  for (const directory of directories ?? ['.']) {
    const start = path.resolve(root, directory);
    if (!isGit) {
      for (const file of packageFiles(start)) candidates.add(file);
      continue;
    }
    const repository = start === root ? own : findRepository(start);
    if (repository && repository.root !== own?.root) {
      const configs = repository.gitDirs.flatMap((gitDir) => [
        path.join(gitDir, 'config'),
        path.join(gitDir, 'config.worktree'),
      ]);
      const active = firstActiveGitKey(configs);
      if (active)
        return {
          kind: 'foreign-repository',
          reason: `git would run in the repository ${path.relative(root, repository.root) || repository.root}, not the workspace's own, whose ${path.relative(root, active.file)} sets ${active.key}, which can run a program`,
        };
    }
    for (const file of gitConfigFiles(repository)) candidates.add(file);
  }
  if (!isGit && argv.some((word) => RECURSIVE_OPTIONS.test(word)))
    for (const file of workspacePackageFiles(root)) candidates.add(file);
  for (const file of candidates) {
    if (changedAfter(file, threshold))
      return { kind: 'changed', reason: `${path.relative(root, file) || file} changed`, program };
  }
  return undefined;
}

function changedAfter(file: string, threshold: number): boolean {
  try {
    const stat = fs.lstatSync(file);
    return stat.ctimeMs >= threshold || stat.mtimeMs >= threshold;
  } catch {
    return false;
  }
}

function* ancestors(start: string): Generator<string> {
  let directory = start;
  for (;;) {
    yield directory;
    const parent = path.dirname(directory);
    if (parent === directory) return;
    directory = parent;
  }
}

/** What npm, pnpm and yarn read for a script run from `start`: package files up the tree and the user's `.npmrc`. */
function packageFiles(start: string): string[] {
  const names = ['package.json', '.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs', '.yarnrc', '.yarnrc.yml'];
  const files = [...ancestors(start)].flatMap((directory) => [
    ...names.map((name) => path.join(directory, name)),
    path.join(directory, 'node_modules', '.bin'),
  ]);
  files.push(path.join(os.homedir(), '.npmrc'));
  return files;
}

/** Every package.json of the workspace (for `-r`, `--workspaces`, `--filter`), outside node_modules. */
function workspacePackageFiles(root: string): string[] {
  const files: string[] = [];
  const queue: Array<{ directory: string; depth: number }> = [{ directory: root, depth: 0 }];
  let seen = 0;
  while (queue.length > 0 && seen < MAX_PACKAGE_SCAN) {
    const { directory, depth } = queue.shift() as { directory: string; depth: number };
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen++;
      if (entry.isFile() && entry.name === 'package.json') files.push(path.join(directory, entry.name));
      else if (
        entry.isDirectory() &&
        depth < 4 &&
        entry.name !== 'node_modules' &&
        !entry.name.startsWith('.')
      )
        queue.push({ directory: path.join(directory, entry.name), depth: depth + 1 });
    }
  }
  return files;
}

/**
 * The configuration git reads for the repository that holds `start`: its `config`,
 * `config.worktree`, hooks and `info/attributes` (following a `.git` file to its gitdir and a
 * worktree to its common dir), plus the user's global files.
 */
function gitConfigFiles(repository: ReturnType<typeof findRepository>): string[] {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = [
    path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    path.join(xdg, 'git', 'attributes'),
  ];
  if (!repository) return files;
  const dotGit = path.join(repository.root, '.git');
  // A `.git` file points elsewhere; a `.git` directory changes on every index write, so only its files count.
  if (repository.gitDirs[0] !== dotGit) files.push(dotGit);
  for (const base of repository.gitDirs)
    for (const name of ['config', 'config.worktree', 'hooks', path.join('info', 'attributes'), 'commondir'])
      files.push(path.join(base, name));
  files.push(path.join(repository.root, '.gitattributes'));
  return files;
}
