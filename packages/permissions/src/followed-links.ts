import fs from 'node:fs';
import path from 'node:path';
import { readTrackedPaths } from './git-index.js';
import { discoverRepository } from './git-repository-config.js';
import { isDirectory, scanForDeniedSymlink } from './symlink-scan.js';
import { normalizeWorkspacePath, realWorkspace } from './workspace-path.js';

/** Files outside the workspace that every program may name: they hold nothing to read. */
export const HARMLESS_DEVICES = new Set([
  '/dev/null',
  '/dev/zero',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/random',
  '/dev/urandom',
]);

const isOutside = (target: string) => path.isAbsolute(target) && !HARMLESS_DEVICES.has(target);

export function absoluteIn(normalized: string, workspace: string): string {
  return path.isAbsolute(normalized) ? normalized : path.join(realWorkspace(workspace), normalized);
}

/** A link in the directory (or below it, when `recursive`) whose real target is outside the workspace. */
export function linkOutOfWorkspace(
  normalized: string,
  workspace: string,
  recursive: boolean,
): string | undefined {
  if (recursive) {
    const scan = scanForDeniedSymlink(normalized, workspace, isOutside);
    if (scan.kind === 'escapes') return scan.link;
    return scan.kind === 'too-large' ? `${normalized} (too large to check)` : undefined;
  }
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absoluteIn(normalized, workspace), { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const child of entries) {
    if (!child.isSymbolicLink()) continue;
    const link = normalized === '.' ? child.name : `${normalized}/${child.name}`;
    if (isOutside(normalizeWorkspacePath(link, workspace))) return link;
  }
  return undefined;
}

/**
 * How a program walks the directories it reads: `tree` follows every symlink below its starting
 * points (`grep -R`, `rg -L`, `find -L`, `ls -RL`, `du -L`); `tracked` reads the files git
 * tracks, through a symlink that took the place of a tracked directory (`git grep`).
 */
type Following = 'tree' | 'tracked';

function shortCluster(argv: readonly string[], letter: string): boolean {
  return argv.some((word) => /^-[A-Za-z0-9]+$/.test(word) && word.slice(1).includes(letter));
}

function following(argv: readonly string[]): Following | undefined {
  const program = path.posix.basename(argv[0] ?? '');
  const args = argv.slice(1);
  const long = (name: string) => args.some((word) => word === name || word.startsWith(`${name}=`));
  switch (program) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return shortCluster(argv, 'R') || long('--dereference-recursive') ? 'tree' : undefined;
    case 'rg':
      return shortCluster(argv, 'L') || long('--follow') ? 'tree' : undefined;
    case 'find':
      return args.includes('-L') || args.includes('-follow') ? 'tree' : undefined;
    case 'ls':
      return (shortCluster(argv, 'R') || long('--recursive')) &&
        (shortCluster(argv, 'L') || long('--dereference'))
        ? 'tree'
        : undefined;
    case 'du':
      return shortCluster(argv, 'L') || long('--dereference') ? 'tree' : undefined;
    case 'git': {
      const subcommand = args.find((word) => !word.startsWith('-'));
      if (subcommand !== 'grep') return undefined;
      if (args.includes('--no-index') || args.includes('--untracked')) return 'tree';
      return args.some((word) => word === '--cached' || word === '--staged') ? undefined : 'tracked';
    }
    default:
      return undefined;
  }
}

/**
 * Why a program that follows symlinks while it walks directories would read outside the
 * workspace: a link below where it starts (for `git grep`, a link where a tracked directory was)
 * whose real target is outside. `directories` are the working directories it may run in
 * (workspace-relative), null when unknown.
 */
export function followedLinkOut(
  argv: readonly string[],
  workspace: string,
  directories: readonly string[] | null,
): string | undefined {
  const mode = following(argv);
  if (!mode) return undefined;
  const program = argv.slice(0, argv[0] === 'git' ? 2 : 1).join(' ');
  if (directories === null)
    return `${program} follows symlinks while it reads a directory tree, and runs in a directory that cannot be known in advance`;
  for (const directory of directories) {
    if (mode === 'tracked') {
      const link = trackedDirectoryLinkedOut(workspace, directory);
      if (link)
        return `${program} reads the files git tracks through ${link}, a symlink out of the workspace where a tracked directory was`;
      continue;
    }
    for (const root of startingPoints(argv, workspace, directory)) {
      const link = linkOutOfWorkspace(root, workspace, true);
      if (link)
        return `${program} follows symlinks while it reads ${root}, and ${link} leads out of the workspace`;
    }
  }
  return undefined;
}

/** The directories among the words (the working directory when no word names an existing path). */
function startingPoints(argv: readonly string[], workspace: string, directory: string): string[] {
  const named: string[] = [];
  let anyPath = false;
  for (const word of argv.slice(1)) {
    if (word.startsWith('-')) continue;
    const normalized = normalizeWorkspacePath(word, workspace, directory);
    const absolute = absoluteIn(normalized, workspace);
    if (!fs.existsSync(absolute)) continue;
    anyPath = true;
    if (!path.isAbsolute(normalized) && isDirectory(absolute)) named.push(normalized);
  }
  return anyPath ? named : [normalizeWorkspacePath('.', workspace, directory)];
}

/** A symlink leading out of the workspace at a directory of a file the repository tracks. */
function trackedDirectoryLinkedOut(workspace: string, directory: string): string | undefined {
  const start = absoluteIn(normalizeWorkspacePath('.', workspace, directory), workspace);
  const repository = discoverRepository(start);
  if (!repository || 'unreadable' in repository || repository.bare) return undefined;
  const [gitDir, commonDir = gitDir] = repository.gitDirs;
  if (!gitDir) return undefined;
  const sha256 = /objectformat\s*=\s*sha256/i.test(readText(path.join(commonDir as string, 'config')));
  const tracked = readTrackedPaths(path.join(gitDir, 'index'), sha256 ? 32 : 20);
  // An index this reader does not know: every link below the directory counts.
  if (tracked.kind === 'unreadable')
    return linkOutOfWorkspace(normalizeWorkspacePath('.', workspace, directory), workspace, true);
  const directories = new Set<string>();
  for (const file of tracked.paths) {
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1))
      directories.add(file.slice(0, slash));
  }
  const root = repository.root;
  for (const relative of [...directories].sort()) {
    const absolute = path.join(root, relative);
    let link: boolean;
    try {
      link = fs.lstatSync(absolute).isSymbolicLink();
    } catch {
      continue;
    }
    if (!link) continue;
    if (isOutside(normalizeWorkspacePath(absolute, workspace)))
      return path.relative(realWorkspace(workspace), absolute) || relative;
  }
  return undefined;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
