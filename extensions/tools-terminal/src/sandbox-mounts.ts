import { type Dirent, existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** What a sandboxed command must not change or reach inside the writable workspace. */
export interface WorkspaceHazards {
  /** `.git` directories (top and nested, submodule git dirs under `.git/modules` too). */
  gitDirectories: string[];
  /** Unix sockets on the file system: a server behind one acts outside the sandbox. */
  sockets: string[];
  /** Existing protected paths (configuration, personalities, Quiver's data) to mount read-only. */
  readOnly: string[];
}

/** Directories whose contents a walk skips: dependency trees are large and never a repository's own. */
const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules']);

function entriesOf(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    // Unreadable to us is unreadable to the command too.
    return [];
  }
}

/** Git directories inside `.git/modules` (submodules keep their config and hooks there). */
function submoduleGitDirectories(gitDirectory: string, found: string[]): void {
  const pending = [path.join(gitDirectory, 'modules')];
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    for (const entry of entriesOf(directory)) {
      if (!entry.isDirectory()) continue;
      const child = path.join(directory, entry.name);
      if (existsSync(path.join(child, 'HEAD'))) found.push(child);
      pending.push(child);
    }
  }
}

/**
 * Walks the workspace roots (without following links) for the `.git` directories whose config
 * and hooks must stay read-only, and for sockets that must be hidden. Symbolic links need no
 * walk of their own: what they point to outside the roots is read-only or hidden already.
 */
export function findWorkspaceHazards(
  roots: readonly string[],
  readOnlyPaths: readonly string[] = [],
): WorkspaceHazards {
  const hazards: WorkspaceHazards = { gitDirectories: [], sockets: [], readOnly: [] };
  // `**/NAME` and `**/NAME/**` cover every entry of that name; git's own parts are mounted below.
  const names = new Set<string>();
  for (const entry of readOnlyPaths) {
    const named = /^\*\*\/([^/*?[\]{}]+)(\/\*\*)?$/.exec(entry)?.[1];
    if (named !== undefined && named !== '.git') names.add(named);
    // Outside the roots everything is read-only (or hidden) already; mounting it would only show it.
    else if (
      path.isAbsolute(entry) &&
      roots.some((root) => entry === root || entry.startsWith(`${root}/`)) &&
      existsSync(entry)
    )
      hazards.readOnly.push(entry);
  }
  const pending = roots.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      return root;
    }
  });
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    for (const entry of entriesOf(directory)) {
      const child = path.join(directory, entry.name);
      if (entry.isSocket()) hazards.sockets.push(child);
      if (names.has(entry.name) && (entry.isFile() || entry.isDirectory())) hazards.readOnly.push(child);
      if (!entry.isDirectory()) continue;
      if (entry.name === '.git') {
        hazards.gitDirectories.push(child);
        submoduleGitDirectories(child, hazards.gitDirectories);
      }
      // `.git` is walked too: git's fsmonitor daemon listens on a socket inside it.
      if (!SKIPPED_DIRECTORIES.has(entry.name)) pending.push(child);
    }
  }
  return hazards;
}
