import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fail, resolvePathArgument, resolveRealPath, type ToolFailure } from '@quiver/types';

export type CwdResolution = { ok: true; cwd: string } | ToolFailure;

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Resolves `requested` (relative to the first root) through symlinks and refuses anything outside the roots. */
export async function resolveWorkspaceCwd(
  roots: readonly string[],
  requested: string | undefined,
): Promise<CwdResolution> {
  const firstRoot = roots[0];
  if (firstRoot === undefined)
    return fail('not_available', 'No workspace root is configured for the process capability.');
  // The resolver the permission check reads `cwd` with: a rule judges the directory this opens.
  const resolved = resolvePathArgument(requested ?? '.', resolveRealPath(firstRoot).path);
  if (!resolved.ok) return fail('input_invalid', `Working directory: ${resolved.error} ${resolved.fix}`);
  const real = resolved.path;
  if (!resolved.exists) return fail('not_found', `Working directory ${real} does not exist.`);
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  if (!realRoots.some((root) => isInside(root, real))) {
    return fail(
      'path_outside_workspace',
      `Working directory ${real} is outside the workspace roots (${realRoots.join(', ')}).`,
    );
  }
  if (!(await stat(real)).isDirectory())
    return fail('input_invalid', `Working directory ${real} is not a directory.`);
  return { ok: true, cwd: real };
}
