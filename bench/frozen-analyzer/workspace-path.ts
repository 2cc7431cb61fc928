import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';

const MAX_SYMLINK_HOPS = 40;

/**
 * Resolves every symlink in an absolute path the way the kernel would, folding `..` after
 * each link. Components that do not exist yet are kept as written, so a file about to be
 * created is judged by the real location of its deepest existing parent.
 */
export function resolveRealPath(absolutePath: string): string {
  const pending = absolutePath.split('/').filter((part) => part !== '');
  let current = '/';
  let hops = 0;
  let exists = true;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    // /proc/self/cwd and /dev/fd/N mean something else in the process that will run the command.
    if (isProcessRelativePath(next)) exists = false;
    if (!exists) {
      current = next;
      continue;
    }
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(next);
    } catch {
      exists = false;
      current = next;
      continue;
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    hops++;
    if (hops > MAX_SYMLINK_HOPS) return next;
    const target = fs.readlinkSync(next);
    if (path.isAbsolute(target)) current = '/';
    pending.unshift(...target.split('/').filter((piece) => piece !== ''));
  }
  return current;
}

/** Paths whose meaning depends on the process reading them; rules cannot be checked through them. */
export function isProcessRelativePath(normalizedPath: string): boolean {
  return (
    normalizedPath === '/proc' ||
    normalizedPath.startsWith('/proc/') ||
    normalizedPath === '/dev/fd' ||
    normalizedPath.startsWith('/dev/fd/')
  );
}

const workspaceRoots = new Map<string, string>();

export function realWorkspace(workspace: string): string {
  let root = workspaceRoots.get(workspace);
  if (root === undefined) {
    root = resolveRealPath(path.resolve(workspace));
    workspaceRoots.set(workspace, root);
  }
  return root;
}

/**
 * The form path rules are matched against: the real path (symlinks resolved, `..` folded)
 * relative to the workspace with `/` separators, `.` for the workspace itself, or an absolute
 * path when it lies outside the workspace.
 */
export function normalizeWorkspacePath(filePath: string, workspace: string, cwd?: string): string {
  const root = realWorkspace(workspace);
  const base = cwd === undefined ? root : path.resolve(root, cwd);
  const expanded = expandHome(filePath);
  // Joined without normalizing: `link/..` must leave the link's target, not the link.
  const real = resolveRealPath(path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`);
  const relative = path.relative(root, real);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return real;
  return relative.split(path.sep).join('/');
}

function expandHome(filePath: string): string {
  if (filePath === '~') return os.homedir();
  if (filePath.startsWith('~/')) return path.join(os.homedir(), filePath.slice(2));
  return filePath;
}

/** A compiled path specifier such as `src/**`, `/tmp/**` or `secrets` (a directory and all below it). */
export type PathMatcher = (normalizedPath: string) => boolean;

export function compilePathSpecifier(specifier: string, workspace: string): PathMatcher {
  const trimmed = specifier.trim().replace(/\/+$/, '') || '/';
  const scan = picomatch.scan(trimmed);
  const options = { dot: true };
  if (!scan.isGlob) {
    const target = normalizeWorkspacePath(trimmed, workspace);
    if (target === '.') return () => true;
    return (candidate) => candidate === target || candidate.startsWith(`${target}/`);
  }
  const anchored = scan.base !== '' || path.isAbsolute(trimmed) || trimmed.startsWith('~');
  if (!anchored) {
    const matcher = picomatch(trimmed.replace(/^\.\//, ''), options);
    // A pattern like `**/.env` also catches such files outside the workspace.
    const floating = trimmed.startsWith('**/');
    return (candidate) =>
      matcher(candidate) || (floating && path.isAbsolute(candidate) && matcher(candidate.slice(1)));
  }
  const base = normalizeWorkspacePath(scan.base, workspace);
  const pattern = base === '.' ? scan.glob : `${base === '/' ? '' : base}/${scan.glob}`;
  const matcher = picomatch(pattern, options);
  return (candidate) => matcher(candidate);
}

/**
 * The directory a path specifier is rooted at, in normalized form (`secrets/**` gives `secrets`),
 * or null for a floating pattern (one starting with `**`) that can match under any directory.
 */
export function pathSpecifierBase(specifier: string, workspace: string): string | null {
  const trimmed = specifier.trim().replace(/\/+$/, '') || '/';
  const scan = picomatch.scan(trimmed);
  if (!scan.isGlob) return normalizeWorkspacePath(trimmed, workspace);
  if (scan.base === '' && !path.isAbsolute(trimmed) && !trimmed.startsWith('~')) return null;
  return normalizeWorkspacePath(scan.base, workspace);
}

/** True when `directory` (normalized) contains `target` (normalized), or is it. */
export function containsPath(directory: string, target: string, workspace: string): boolean {
  const root = realWorkspace(workspace);
  const absolute = (candidate: string) =>
    path.isAbsolute(candidate) ? candidate : path.join(root, candidate);
  const outer = absolute(directory);
  const inner = absolute(target);
  return outer === '/' || inner === outer || inner.startsWith(`${outer}/`);
}
