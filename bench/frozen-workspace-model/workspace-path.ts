import os from 'node:os';
import path from 'node:path';
import { resolvePathArgument, resolveRealPath } from '@quiver/types';
import picomatch from 'picomatch';

export { isProcessRelativePath } from '@quiver/types';

const workspaceRoots = new Map<string, string>();

export function realWorkspace(workspace: string): string {
  let root = workspaceRoots.get(workspace);
  if (root === undefined) {
    root = resolveRealPath(path.resolve(workspace)).path;
    workspaceRoots.set(workspace, root);
  }
  return root;
}

/**
 * The form path rules are matched against: the real path (symlinks resolved, `..` folded after
 * them) relative to the workspace with `/` separators, `.` for the workspace itself, or an
 * absolute path when it lies outside the workspace. `filePath` is read literally, as the kernel
 * reads it: a shell word arrives here after the shell's own expansions, so a `~` left in it is
 * a file name.
 */
export function normalizeWorkspacePath(filePath: string, workspace: string, cwd?: string): string {
  const root = realWorkspace(workspace);
  const base = cwd === undefined ? root : path.isAbsolute(cwd) ? cwd : `${root}/${cwd}`;
  // Joined without normalizing: `link/..` must leave the link's target, not the link.
  const real = resolveRealPath(path.isAbsolute(filePath) ? filePath : `${base}/${filePath}`).path;
  return relativeToWorkspace(real, root);
}

export type ToolPathSubject = { ok: true; normalized: string } | { ok: false; error: string; fix: string };

/**
 * A file tool's path argument, read by the resolver the tool opens it with (relative to the
 * workspace root), in the form path rules are matched against.
 */
export function toolPathSubject(filePath: string, workspace: string): ToolPathSubject {
  const root = realWorkspace(workspace);
  const resolved = resolvePathArgument(filePath, root);
  if (!resolved.ok) return resolved;
  return { ok: true, normalized: relativeToWorkspace(resolved.path, root) };
}

function relativeToWorkspace(real: string, root: string): string {
  const relative = path.relative(root, real);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return real;
  return relative.split(path.sep).join('/');
}

/** In a rule (written by a person in configuration), a leading `~/` means their home directory. */
function specifierPath(specifier: string, workspace: string): string {
  if (specifier === '~') return normalizeWorkspacePath(os.homedir(), workspace);
  if (specifier.startsWith('~/'))
    return normalizeWorkspacePath(path.join(os.homedir(), specifier.slice(2)), workspace);
  return normalizeWorkspacePath(specifier, workspace);
}

/** A compiled path specifier such as `src/**`, `/tmp/**` or `secrets` (a directory and all below it). */
export type PathMatcher = (normalizedPath: string) => boolean;

export function compilePathSpecifier(specifier: string, workspace: string): PathMatcher {
  const trimmed = specifier.trim().replace(/\/+$/, '') || '/';
  const scan = picomatch.scan(trimmed);
  const options = { dot: true };
  if (!scan.isGlob) {
    const target = specifierPath(trimmed, workspace);
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
  const base = specifierPath(scan.base, workspace);
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
  if (!scan.isGlob) return specifierPath(trimmed, workspace);
  if (scan.base === '' && !path.isAbsolute(trimmed) && !trimmed.startsWith('~')) return null;
  return specifierPath(scan.base, workspace);
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
