import path from 'node:path';
import {
  type FsReachHandle,
  fail,
  resolvePathArgument,
  resolveRealPath,
  type ToolFailure,
} from '@quiver/types';

export interface ResolvedPath {
  /** Real absolute path (symlinks followed), inside one of the roots. */
  absolute: string;
  /** The root that contains it. */
  root: string;
  /** Path relative to that root, `/`-separated; `.` for the root itself. */
  relative: string;
  /** The root is the first (default) one, against which relative paths resolve. */
  inFirstRoot: boolean;
}

export type PathResolution = { ok: true; resolved: ResolvedPath } | { ok: false; failure: ToolFailure };

/** Missing fs_reach handle means the host did not grant file access: fail closed. */
export function workspaceRoots(handle: FsReachHandle | undefined): readonly string[] {
  return handle?.roots ?? [];
}

export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/**
 * Resolves a model-supplied path against the workspace roots with the resolver the permission
 * check uses (`resolvePathArgument`), so a rule is judged on exactly the path opened here:
 * relative paths start at the first root, symlinks and `..` resolve as the kernel resolves them,
 * a leading `~` is refused, and percent escapes are not decoded (`%2e%2e` is a file name).
 */
export async function resolveWorkspacePath(
  handle: FsReachHandle | undefined,
  rawPath: string,
): Promise<PathResolution> {
  // Roots are meant to be real paths already; resolving them again keeps a host that passes
  // e.g. a symlinked temp dir from locking every path out.
  const roots = workspaceRoots(handle).map((root) => resolveRealPath(root).path);
  const firstRoot = roots[0];
  if (firstRoot === undefined) {
    return {
      ok: false,
      failure: fail('not_available', 'No workspace root was granted to this tool (fs_reach).'),
    };
  }
  const resolved = resolvePathArgument(rawPath, firstRoot);
  if (!resolved.ok) return { ok: false, failure: fail('input_invalid', `${resolved.error} ${resolved.fix}`) };
  const real = resolved.path;
  const root = roots.find((candidate) => isInside(candidate, real));
  if (root === undefined) {
    return {
      ok: false,
      failure: fail(
        'path_outside_workspace',
        `${rawPath} resolves to ${real}, which is outside the workspace (${roots.join(', ')}).`,
      ),
    };
  }
  const relative = path.relative(root, real).split(path.sep).join('/') || '.';
  return { ok: true, resolved: { absolute: real, root, relative, inFirstRoot: root === firstRoot } };
}

/** A file to create or overwrite cannot be named with a trailing slash (that names a directory). */
export function namesDirectory(rawPath: string): boolean {
  return rawPath.endsWith('/') || rawPath.endsWith(path.sep);
}
