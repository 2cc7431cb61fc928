import fs from 'node:fs';
import path from 'node:path';
import { normalizeWorkspacePath, realWorkspace } from './workspace-path.js';

const MAX_ENTRIES = 2_000;

export type SymlinkScan =
  | { kind: 'clean' }
  | { kind: 'too-large' }
  | { kind: 'escapes'; link: string; target: string };

/**
 * Looks through a directory tree for a symlink whose real target is denied, since a recursive
 * command (`grep -R`, `find -L`, `cp -rL`) given the directory would follow it. Linked
 * directories are searched too. Trees above MAX_ENTRIES entries are reported as too large to
 * check rather than assumed clean.
 */
export function scanForDeniedSymlink(
  normalizedDirectory: string,
  workspace: string,
  isDenied: (normalized: string) => boolean,
): SymlinkScan {
  const root = realWorkspace(workspace);
  const toAbsolute = (normalized: string) =>
    path.isAbsolute(normalized) ? normalized : path.join(root, normalized);
  const queue = [toAbsolute(normalizedDirectory)];
  const visited = new Set<string>(queue);
  let entries = 0;
  while (queue.length > 0) {
    const directory = queue.shift() as string;
    let children: fs.Dirent[];
    try {
      children = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      entries++;
      if (entries > MAX_ENTRIES) return { kind: 'too-large' };
      const childPath = path.join(directory, child.name);
      if (child.isSymbolicLink()) {
        const target = normalizeWorkspacePath(childPath, workspace);
        if (isDenied(target))
          return {
            kind: 'escapes',
            link: normalizeWorkspacePath(directory, workspace) + '/' + child.name,
            target,
          };
        const absoluteTarget = toAbsolute(target);
        if (!visited.has(absoluteTarget) && isDirectory(absoluteTarget)) {
          visited.add(absoluteTarget);
          queue.push(absoluteTarget);
        }
      } else if (child.isDirectory() && !visited.has(childPath)) {
        visited.add(childPath);
        queue.push(childPath);
      }
    }
  }
  return { kind: 'clean' };
}

export function isDirectory(absolutePath: string): boolean {
  try {
    return fs.statSync(absolutePath).isDirectory();
  } catch {
    return false;
  }
}
