import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function real(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return path.resolve(directory);
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The root of the workspace Quiver was started in, when no `-w` names it: the outermost directory
 * from `start` upward that holds `.git`, else `start`. Outermost, because a tool can create
 * `sub/.git` but not a directory above the workspace; the home directory and its ancestors are
 * not searched (a home directory kept in git is not a project).
 */
export function workspaceRoot(start: string, home: string = os.homedir()): string {
  const from = real(start);
  const homeDirectory = real(home);
  let root: string | undefined;
  for (let directory = from; ; directory = path.dirname(directory)) {
    if (isInside(homeDirectory, directory)) break;
    if (existsSync(path.join(directory, '.git'))) root = directory;
    if (path.dirname(directory) === directory) break;
  }
  return root ?? from;
}

/**
 * Whether `--trust-project` may trust a config file that discovery found: only the one in the
 * workspace root itself. Any other (a subdirectory's, one above the root) is found and used as
 * untrusted configuration, never trusted by the launch.
 */
export function isRootConfiguration(configFile: string, root: string): boolean {
  return real(path.dirname(configFile)) === real(root);
}
