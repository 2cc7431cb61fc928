import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_MANAGERS } from './shell/program-semantics.js';
import { realWorkspace } from './workspace-path.js';

/**
 * File timestamps come from a coarse kernel clock (a few milliseconds behind the real time), so a
 * file written just after `since` can carry an earlier time. Counting a little before `since`
 * keeps such writes visible; the price is asking for files written just before the session.
 */
const CLOCK_SLACK_MS = 20;
const RECURSIVE_OPTIONS = /^(-r|--recursive|--workspaces|--ws|-w|--workspace(=.*)?|--filter(=.*)?|-F)$/;
const MAX_PACKAGE_SCAN = 2000;

/**
 * For a program that runs code or configuration the workspace controls (npm/pnpm/yarn scripts and
 * `.npmrc`; git's repository configuration, hooks and attributes), the first such file written
 * at or after `since`, or undefined when none was.
 */
export function changedWorkspaceCode(
  argv: readonly string[],
  directories: readonly string[] | null,
  workspace: string,
  since: number,
): string | undefined {
  const program = path.posix.basename(argv[0] ?? '');
  const isGit = program === 'git';
  if (!isGit && !PACKAGE_MANAGERS.has(program)) return undefined;
  const root = realWorkspace(workspace);
  const threshold = since - CLOCK_SLACK_MS;
  const candidates = new Set<string>();
  for (const directory of directories ?? ['.']) {
    const start = path.resolve(root, directory);
    for (const file of isGit ? gitConfigFiles(start) : packageFiles(start)) candidates.add(file);
  }
  if (!isGit && argv.some((word) => RECURSIVE_OPTIONS.test(word)))
    for (const file of workspacePackageFiles(root)) candidates.add(file);
  for (const file of candidates) {
    const changed = changedAfter(file, threshold);
    if (changed) return path.relative(root, file) || file;
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
      else if (entry.isDirectory() && depth < 4 && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
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
function gitConfigFiles(start: string): string[] {
  const home = os.homedir();
  const files = [
    path.join(home, '.gitconfig'),
    path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'),
    path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'attributes'),
  ];
  for (const directory of ancestors(start)) {
    const dotGit = path.join(directory, '.git');
    const gitDir = resolveGitDir(dotGit);
    if (!gitDir) continue;
    // A `.git` file points elsewhere; a `.git` directory changes on every index write, so only its files count.
    if (gitDir !== dotGit) files.push(dotGit);
    const directories = [gitDir];
    const common = readTrimmed(path.join(gitDir, 'commondir'));
    if (common) directories.push(path.resolve(gitDir, common));
    for (const base of directories)
      for (const name of ['config', 'config.worktree', 'hooks', path.join('info', 'attributes'), 'commondir'])
        files.push(path.join(base, name));
    if (fs.existsSync(path.join(directory, '.gitattributes'))) files.push(path.join(directory, '.gitattributes'));
    return files;
  }
  return files;
}

function resolveGitDir(dotGit: string): string | undefined {
  try {
    const stat = fs.statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return pointer?.[1] ? path.resolve(path.dirname(dotGit), pointer[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

function readTrimmed(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
