import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { type FsReachHandle, fail, type ToolFailure } from '@quiver/types';

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

const MAX_SYMLINK_HOPS = 40;

/** Missing fs_reach handle means the host did not grant file access: fail closed. */
export function workspaceRoots(handle: FsReachHandle | undefined): readonly string[] {
  return handle?.roots ?? [];
}

export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Follows symlinks like the kernel would, also for paths that do not exist yet: the deepest
 * existing ancestor is resolved, and a dangling symlink is resolved through its target, so a
 * write can never be steered outside through a link.
 */
async function realPathOf(absolute: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error('too many symlinks'), { code: 'ELOOP' });
  try {
    return await realpath(absolute);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const stats = await lstat(absolute).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(absolute), await readlink(absolute));
    return realPathOf(target, hops + 1);
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await realPathOf(parent, hops);
  return path.join(realParent, path.basename(absolute));
}

/**
 * Resolves a model-supplied path against the workspace roots. Relative paths resolve against the
 * first root; percent escapes are not decoded (`%2e%2e` is a literal file name) and `~` is not
 * expanded (it is a literal name too).
 */
export async function resolveWorkspacePath(
  handle: FsReachHandle | undefined,
  rawPath: string,
): Promise<PathResolution> {
  // Roots are meant to be real paths already; resolving them again keeps a host that passes
  // e.g. a symlinked temp dir from locking every path out.
  const roots = await Promise.all(workspaceRoots(handle).map((root) => realpath(root).catch(() => root)));
  const firstRoot = roots[0];
  if (firstRoot === undefined) {
    return {
      ok: false,
      failure: fail('not_available', 'No workspace root was granted to this tool (fs_reach).'),
    };
  }
  if (rawPath.includes('\0')) {
    return {
      ok: false,
      failure: fail('path_outside_workspace', 'The path contains a NUL byte and was refused.'),
    };
  }
  if (rawPath.trim() === '') {
    return { ok: false, failure: fail('input_invalid', 'The path is empty.') };
  }
  const lexical = path.resolve(firstRoot, rawPath);
  let real: string;
  try {
    real = await realPathOf(lexical);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return {
      ok: false,
      failure: fail('path_outside_workspace', `Cannot resolve ${rawPath} (${code}); it was refused.`),
    };
  }
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
