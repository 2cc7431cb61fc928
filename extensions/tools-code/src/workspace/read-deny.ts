import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FsReachHandle, SessionState } from '@quiver/types';

const INDEX_KEY = 'tools-code.read-deny-index';

/**
 * (device, inode) of every file a read deny covers, so a deny follows the file under any other
 * name (a hard link, a renamed copy of the same inode). Built on the session's first look at a
 * file, grown by every walk that meets a denied file, rebuilt when a file with several links is
 * newer than the index (a link made since the last build).
 */
interface IdentityIndex {
  identities: Map<string, string>;
  builtAt: number;
}

type Denial = (realPath: string) => string | undefined;

function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

/** Which read deny withholds files, and how many; reported by every tool that withholds. */
export class Withheld {
  readonly #rules = new Map<string, number>();

  add(rule: string): void {
    this.#rules.set(rule, (this.#rules.get(rule) ?? 0) + 1);
  }

  get count(): number {
    let total = 0;
    for (const count of this.#rules.values()) total += count;
    return total;
  }

  get structured(): Array<{ rule: string; files: number }> {
    return [...this.#rules].map(([rule, files]) => ({ rule, files }));
  }

  /** One line for the model, or undefined when nothing was withheld. */
  note(): string | undefined {
    if (this.#rules.size === 0) return undefined;
    const rules = [...this.#rules].map(([rule, files]) => `${files} by "${rule}"`).join(', ');
    const count = this.count;
    return `[${count} ${count === 1 ? 'entry' : 'entries'} withheld: a read deny covers ${count === 1 ? 'it' : 'them'} (${rules}).]`;
  }
}

/** The read deny covering a real path, by name only (no file-system access). */
export function deniedByName(handle: FsReachHandle | undefined, realPath: string): string | undefined {
  return handle?.readDenied?.(realPath);
}

/**
 * The read deny covering a file already opened or stat'ed: by its real path, else by identity.
 * A name that is denied teaches the index the file's identity.
 */
export async function readDenialOf(
  handle: FsReachHandle | undefined,
  session: SessionState,
  realPath: string,
  stats: Stats,
): Promise<string | undefined> {
  const denied = handle?.readDenied;
  if (denied === undefined) return undefined;
  const index = await indexOf(handle as FsReachHandle, session, denied);
  const byName = denied(realPath);
  if (byName !== undefined) {
    index.identities.set(identityOf(stats), byName);
    return byName;
  }
  const known = index.identities.get(identityOf(stats));
  if (known !== undefined || !stats.isFile() || stats.nlink <= 1 || stats.ctimeMs < index.builtAt)
    return known;
  const rebuilt = await buildIndex(handle as FsReachHandle, denied);
  session.set(INDEX_KEY, rebuilt);
  return rebuilt.identities.get(identityOf(stats));
}

/** Records that a walk met a denied file, so its other names are denied from now on. */
export async function learnDeniedFile(
  handle: FsReachHandle | undefined,
  session: SessionState,
  realPath: string,
  rule: string,
): Promise<void> {
  const denied = handle?.readDenied;
  if (denied === undefined) return;
  const stats = await lstat(realPath).catch(() => undefined);
  if (stats === undefined || !stats.isFile()) return;
  (await indexOf(handle as FsReachHandle, session, denied)).identities.set(identityOf(stats), rule);
}

async function indexOf(handle: FsReachHandle, session: SessionState, denied: Denial): Promise<IdentityIndex> {
  let index = session.get<IdentityIndex>(INDEX_KEY);
  if (index === undefined) {
    index = await buildIndex(handle, denied);
    session.set(INDEX_KEY, index);
  }
  return index;
}

/**
 * Walks every root completely (ignore files do not hide a denied file's other names), never
 * following symlinks, and records the identity of each file a read deny covers. A denied
 * directory denies every file below it.
 */
async function buildIndex(handle: FsReachHandle, denied: Denial): Promise<IdentityIndex> {
  // Taken before the walk: a link made during it counts as newer and triggers the next rebuild.
  const builtAt = Date.now() - 1;
  const identities = new Map<string, string>();
  const visit = async (directory: string, inheritedRule: string | undefined): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => [] as Dirent[]);
    // Siblings concurrently: the directory reads queue on libuv's pool, several times faster than one by one.
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isSymbolicLink()) return;
        const absolute = path.join(directory, entry.name);
        const rule = inheritedRule ?? denied(absolute);
        if (entry.isDirectory()) await visit(absolute, rule);
        else if (rule !== undefined && entry.isFile()) {
          const stats = await lstat(absolute).catch(() => undefined);
          if (stats?.isFile()) identities.set(identityOf(stats), rule);
        }
      }),
    );
  };
  for (const root of handle.roots) await visit(root, undefined);
  return { identities, builtAt };
}

/** What a walking tool needs to withhold denied entries and say so. */
export interface WalkAccess {
  fsReach: FsReachHandle | undefined;
  session: SessionState;
  withheld: Withheld;
}

/**
 * True when a read deny covers a walked entry: a denied directory is withheld whole; a file by
 * its name, or (stat'ed) by identity. Counted in `access.withheld`.
 */
export async function withholdsEntry(
  access: WalkAccess,
  entry: { absolute: string; type: string },
): Promise<boolean> {
  const { fsReach, session, withheld } = access;
  if (fsReach?.readDenied === undefined) return false;
  const rule = deniedByName(fsReach, entry.absolute);
  if (rule !== undefined) {
    withheld.add(rule);
    if (entry.type === 'file') await learnDeniedFile(fsReach, session, entry.absolute, rule);
    return true;
  }
  if (entry.type !== 'file') return false;
  const stats = await lstat(entry.absolute).catch(() => undefined);
  if (stats === undefined) return false;
  const byIdentity = await readDenialOf(fsReach, session, entry.absolute, stats);
  if (byIdentity === undefined) return false;
  withheld.add(byIdentity);
  return true;
}
