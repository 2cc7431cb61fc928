import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';

/**
 * A file as a person trusted it: the sha256 of its content, `null` when it was absent (a file
 * that appears later is a change), or a marker for what is not a regular file. Device, inode,
 * size and ctime let a later check skip hashing a file whose stat did not change.
 */
export interface FilePin {
  sha256: string | null;
  dev?: number;
  ino?: number;
  size?: number;
  ctimeMs?: number;
}

/** Absolute path → pin. */
export type FilePins = Record<string, FilePin>;

/**
 * Directories never walked as part of a package's own files: dependencies are pinned by
 * resolution, and Python rewrites its `__pycache__` as it runs (no tool may write there).
 */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '__pycache__']);

function sameStat(pin: FilePin | undefined, stats: Stats): pin is FilePin {
  return (
    typeof pin?.sha256 === 'string' &&
    pin.dev === stats.dev &&
    pin.ino === stats.ino &&
    pin.size === stats.size &&
    pin.ctimeMs === stats.ctimeMs
  );
}

/** The pin of `file` now (symlinks followed); `cached` answers without hashing when the stat is unchanged. */
export function pinFile(file: string, cached?: FilePin): FilePin {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    return { sha256: null };
  }
  if (stats.isDirectory()) return { sha256: 'directory' };
  if (!stats.isFile()) return { sha256: 'special' };
  if (sameStat(cached, stats)) return cached;
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return { sha256: 'unreadable' };
  }
  return {
    sha256: createHash('sha256').update(content).digest('hex'),
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    ctimeMs: stats.ctimeMs,
  };
}

/**
 * Pins every file under `root` into `into` (not `node_modules` or `.git`): a file added later is
 * a change too, since Node's resolution may pick it before a pinned one. A symlinked directory
 * is pinned by where it points, not walked.
 */
export function pinTree(root: string, into: FilePins, cache: FilePins): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    into[root] = pinFile(root, cache[root]);
    return;
  }
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) pinTree(full, into, cache);
    } else if (entry.isSymbolicLink()) {
      into[full] = pinLink(full, cache[full]);
    } else {
      into[full] = pinFile(full, cache[full]);
    }
  }
}

function pinLink(link: string, cached: FilePin | undefined): FilePin {
  try {
    if (statSync(link).isDirectory()) return { sha256: `link:${realpathSync(link)}` };
  } catch {
    return { sha256: null };
  }
  return pinFile(link, cached);
}

export interface PinChange {
  file: string;
  change: 'changed' | 'appeared' | 'removed';
}

/** The first file (by path) that differs between what was pinned and what is there now. */
export function firstChange(pinned: FilePins, current: FilePins): PinChange | undefined {
  const files = [...new Set([...Object.keys(pinned), ...Object.keys(current)])].sort();
  for (const file of files) {
    // Not pinned and pinned as absent agree: only a file that exists is news.
    const before = pinned[file]?.sha256 ?? null;
    const now = current[file]?.sha256 ?? null;
    if (before === now) continue;
    if (before === null) return { file, change: 'appeared' };
    if (now === null) return { file, change: 'removed' };
    return { file, change: 'changed' };
  }
  return undefined;
}

export function describeChange({ file, change }: PinChange): string {
  if (change === 'appeared') return `${file} appeared`;
  if (change === 'removed') return `${file} was removed`;
  return `${file} changed`;
}
