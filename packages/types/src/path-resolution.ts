import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

const MAX_SYMLINK_HOPS = 40;

/** Where a path leads once every symlink in it is followed the way the kernel follows them. */
export interface RealPath {
  /** Absolute, with no `.`, `..` or symlink left in the part that exists. */
  path: string;
  /** Every component exists (a dangling symlink's missing target does not). */
  exists: boolean;
  /** More than 40 symlinks were followed; `path` is where resolution stopped. */
  loop: boolean;
}

/**
 * Resolves an absolute path component by component, as the kernel does: a symlink is replaced
 * by its target before the next component is looked at, so `link/..` is the parent of the
 * link's target, never the directory holding the link. Components that do not exist are kept
 * as written (a `..` after one removes it), so a file about to be created is placed under the
 * real location of its deepest existing parent. Symlinks under `/proc` and `/dev/fd` are not
 * followed: they point somewhere else in every process.
 */
export function resolveRealPath(absolutePath: string): RealPath {
  const pending = absolutePath.split('/').filter((part) => part !== '');
  let current = '/';
  let hops = 0;
  let exists = true;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '.') continue;
    if (part === '..') {
      current = path.posix.dirname(current);
      continue;
    }
    const next = path.posix.join(current, part);
    if (isProcessRelativePath(next)) exists = false;
    if (!exists) {
      current = next;
      continue;
    }
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      exists = false;
      current = next;
      continue;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    hops++;
    if (hops > MAX_SYMLINK_HOPS) return { path: next, exists: false, loop: true };
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      // Replaced or removed since the lstat: look at this component again (hops bound the retries).
      pending.unshift(part);
      continue;
    }
    if (path.posix.isAbsolute(target)) current = '/';
    pending.unshift(...target.split('/').filter((piece) => piece !== ''));
  }
  return { path: current, exists, loop: false };
}

/** Paths whose meaning depends on the process that opens them; no rule can be checked through them. */
export function isProcessRelativePath(absolutePath: string): boolean {
  return (
    absolutePath === '/proc' ||
    absolutePath.startsWith('/proc/') ||
    absolutePath === '/dev/fd' ||
    absolutePath.startsWith('/dev/fd/')
  );
}

export type PathArgumentResolution =
  | {
      ok: true;
      /** The real absolute path a tool opens and a permission rule is checked against. */
      path: string;
      exists: boolean;
      /** The argument ended with `/` (or `/.`): it names a directory. */
      namesDirectory: boolean;
    }
  | { ok: false; error: string; fix: string };

/**
 * The one reading of a path argument given to a tool: relative arguments start at `base`
 * (the workspace root), then every symlink and `..` is resolved as the kernel would. A leading
 * `~` is refused rather than expanded: the kernel has no `~`, a shell would expand it but a file
 * tool is not a shell, and guessing either way let a checker and a tool read the same argument
 * differently. `$HOME` and other variables are literal names for the same reason.
 */
export function resolvePathArgument(pathArgument: string, base: string): PathArgumentResolution {
  if (pathArgument.includes('\0'))
    return refuse('The path contains a NUL byte.', 'Give the path without control characters.');
  if (pathArgument.trim() === '')
    return refuse('The path is empty.', 'Give a path relative to the workspace root, or an absolute one.');
  if (pathArgument.startsWith('~')) {
    const first = pathArgument.split('/')[0] as string;
    return refuse(
      `The path ${pathArgument} starts with "${first}", which file tools do not expand (it is no home directory here).`,
      'Give a path relative to the workspace root, or an absolute path.',
    );
  }
  // Joined without normalizing: `link/..` must leave the link's target, not the link.
  const joined = path.posix.isAbsolute(pathArgument) ? pathArgument : `${base}/${pathArgument}`;
  const real = resolveRealPath(joined);
  if (real.loop)
    return refuse(
      `The path ${pathArgument} goes through more than ${MAX_SYMLINK_HOPS} symlinks (a loop?).`,
      'Give the path of the file itself.',
    );
  const namesDirectory = /\/\.?$/.test(pathArgument) && pathArgument !== '/';
  if (namesDirectory && real.exists && !isDirectoryPath(real.path))
    return refuse(
      `The path ${pathArgument} ends with "/" but ${real.path} is not a directory.`,
      'Drop the trailing "/" to name the file.',
    );
  return { ok: true, path: real.path, exists: real.exists, namesDirectory };
}

function isDirectoryPath(realPath: string): boolean {
  try {
    return lstatSync(realPath).isDirectory();
  } catch {
    return false;
  }
}

function refuse(error: string, fix: string): PathArgumentResolution {
  return { ok: false, error, fix };
}
