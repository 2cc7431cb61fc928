import { stat } from 'node:fs/promises';
import { fail, type ToolContext, type ToolFailure } from '@quiver/types';
import { type ResolvedPath, resolveWorkspacePath } from '../workspace/resolve-path.js';
import { displayPathOf, fsReachOf } from './tool-support.js';

export type DirectoryResolution =
  | { ok: true; target: ResolvedPath; shownPath: string }
  | { ok: false; failure: ToolFailure };

/**
 * The directory a listing or search tool works in: confined to the workspace, existing, and a
 * directory. `notDirectoryHint` tells the model what to do instead when it named a file.
 */
export async function resolveDirectory(
  ctx: ToolContext,
  requested: string,
  notDirectoryHint = '',
): Promise<DirectoryResolution> {
  const resolution = await resolveWorkspacePath(fsReachOf(ctx), requested);
  if (!resolution.ok) return resolution;
  const target = resolution.resolved;
  const shownPath = displayPathOf(target);
  const stats = await stat(target.absolute).catch(() => undefined);
  if (stats === undefined) return { ok: false, failure: fail('not_found', `${shownPath} does not exist.`) };
  if (!stats.isDirectory()) {
    return { ok: false, failure: fail('conflict', `${shownPath} is not a directory${notDirectoryHint}.`) };
  }
  return { ok: true, target, shownPath };
}
