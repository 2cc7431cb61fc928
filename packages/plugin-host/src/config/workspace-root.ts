import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_FILE_NAMES } from './load-config.js';

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
 * from `start` upward that holds `.git`; outside git, the outermost one that holds a Quiver
 * config (quiver.yaml, quiver.yml); else `start`. Outermost, because a program the model runs can
 * create `sub/.git` or `sub/quiver.yaml` but not a directory above the workspace; the home
 * directory and its ancestors are not searched (a home directory kept in git is not a project).
 */
export function workspaceRoot(start: string, home: string = os.homedir()): string {
  const from = real(start);
  const homeDirectory = real(home);
  let gitRoot: string | undefined;
  let configRoot: string | undefined;
  for (let directory = from; ; directory = path.dirname(directory)) {
    if (isInside(homeDirectory, directory)) break;
    if (existsSync(path.join(directory, '.git'))) gitRoot = directory;
    if (CONFIG_FILE_NAMES.some((name) => existsSync(path.join(directory, name)))) configRoot = directory;
    if (path.dirname(directory) === directory) break;
  }
  return gitRoot ?? configRoot ?? from;
}

/**
 * Whether a config file that discovery found lies in a subdirectory of the workspace root, where
 * a tool could have written it: `--trust-project` never trusts one. The root's own config, and
 * one above the root (outside the workspace), may be trusted.
 */
export function isSubdirectoryConfiguration(configFile: string, root: string): boolean {
  const directory = real(path.dirname(configFile));
  const rootDirectory = real(root);
  return directory !== rootDirectory && isInside(directory, rootDirectory);
}
