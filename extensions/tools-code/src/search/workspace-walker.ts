import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import {
  DESCRIPTOR_PATHS,
  DIRECTORY_FLAGS,
  descriptorPath,
  openVerified,
} from '../workspace/verified-open.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface WalkEntry {
  absolute: string;
  /** Relative to the walk's start directory, `/`-separated. */
  relative: string;
  name: string;
  type: EntryType;
  depth: number;
  /** Files only, when the walk was asked for sizes. */
  size?: number;
}

export interface WalkOptions {
  /** 1 lists only the start directory's children. */
  maxDepth: number;
  /** Give each file entry its size. */
  sizes?: boolean;
  /** Return false to leave an entry (and, for a directory, its subtree) out. */
  filter?: (entry: WalkEntry) => boolean | Promise<boolean>;
  signal?: AbortSignal;
}

interface IgnoreLevel {
  /** Directory of the .gitignore, relative to the start, '' for the start itself. */
  base: string;
  rules: Ignore;
}

/** Byte order, which is how ripgrep's `--sort path` orders names. */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function typeOf(dirent: Dirent): EntryType {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isFile()) return 'file';
  return 'other';
}

async function loadIgnore(directory: string, base: string): Promise<IgnoreLevel | undefined> {
  const text = await readFile(path.join(directory, '.gitignore'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return { base, rules: ignore({ allowRelativePaths: true }).add(text) };
}

/** Deepest .gitignore decides, as in git: a nested file may re-include what a parent ignored. */
function isIgnored(levels: readonly IgnoreLevel[], relative: string, isDirectory: boolean): boolean {
  for (let index = levels.length - 1; index >= 0; index -= 1) {
    const level = levels[index];
    if (level === undefined) continue;
    const local = level.base === '' ? relative : relative.slice(level.base.length + 1);
    const result = level.rules.test(isDirectory ? `${local}/` : local);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * Lists a directory through a descriptor proven to be that directory, so a directory swapped for
 * a symlink mid-walk is skipped instead of listed; entries of a directory that cannot be opened
 * or proven are not listed.
 */
async function readVerifiedDirectory(
  directory: string,
  withSizes: boolean,
): Promise<Array<{ dirent: Dirent; size?: number }>> {
  const opened = await openVerified(directory, DIRECTORY_FLAGS);
  if (!opened.ok) return [];
  try {
    const listed = DESCRIPTOR_PATHS ? descriptorPath(opened.handle) : directory;
    const dirents = await readdir(listed, { withFileTypes: true }).catch(() => [] as Dirent[]);
    if (!withSizes) return dirents.map((dirent) => ({ dirent }));
    // Stat'ed through the same descriptor: a size from the directory that was listed. Awaited
    // here, so the descriptor is closed (below) only after every stat through it has finished.
    return await Promise.all(
      dirents.map(async (dirent) => {
        if (!dirent.isFile()) return { dirent };
        const stats = await lstat(`${listed}/${dirent.name}`).catch(() => undefined);
        return stats ? { dirent, size: stats.size } : { dirent };
      }),
    );
  } finally {
    await opened.handle.close();
  }
}

/**
 * Walks a directory depth-first in byte order of names, honouring .gitignore files inside the
 * walked tree (not above it), skipping `.git`, and never following symlinks (they are reported,
 * not entered), so a link cannot lead a walk outside the workspace.
 */
export async function* walkWorkspace(start: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const rootIgnore = await loadIgnore(start, '');
  yield* walkDirectory(start, '', 1, rootIgnore ? [rootIgnore] : [], options);
}

async function* walkDirectory(
  directory: string,
  relativeDirectory: string,
  depth: number,
  levels: readonly IgnoreLevel[],
  options: WalkOptions,
): AsyncGenerator<WalkEntry> {
  if (options.signal?.aborted) return;
  const listed = await readVerifiedDirectory(directory, options.sizes === true);
  listed.sort((a, b) => compareNames(a.dirent.name, b.dirent.name));
  for (const { dirent, size } of listed) {
    if (dirent.name === '.git') continue;
    const relative = relativeDirectory === '' ? dirent.name : `${relativeDirectory}/${dirent.name}`;
    const type = typeOf(dirent);
    if (isIgnored(levels, relative, type === 'directory')) continue;
    const entry: WalkEntry = {
      absolute: path.join(directory, dirent.name),
      relative,
      name: dirent.name,
      type,
      depth,
      ...(size === undefined ? {} : { size }),
    };
    if (options.filter && !(await options.filter(entry))) continue;
    yield entry;
    if (type === 'directory' && depth < options.maxDepth) {
      const nested = await loadIgnore(entry.absolute, relative);
      yield* walkDirectory(
        entry.absolute,
        relative,
        depth + 1,
        nested ? [...levels, nested] : levels,
        options,
      );
    }
  }
}
