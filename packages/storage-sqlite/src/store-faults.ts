import { dirname } from 'node:path';
import { errorMessage, QuiverError } from '@quiver/types';

const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;
const FULL = /^(SQLITE_FULL|ENOSPC|EDQUOT)/;
const NOT_WRITABLE = /^(SQLITE_READONLY|SQLITE_CANTOPEN|SQLITE_PERM|SQLITE_AUTH|EROFS|EACCES|EPERM)/;
const IO = /^(SQLITE_IOERR|EIO)/;

/** The name a damaged store is moved to, after which Quiver starts a new one in its place. */
export function asidePath(path: string): string {
  return `${path}.damaged`;
}

/** How to move a store aside, for a person to copy. */
export function moveAsideFix(path: string): string {
  return `Move it aside (mv "${path}" "${asidePath(path)}") and Quiver starts a new one; your data is in ${asidePath(path)} (\`sqlite3 "${asidePath(path)}" .recover\` salvages what it can).`;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * A storage error a person can act on: the file, what Quiver was doing (`doing`, a gerund
 * phrase: `opening it`, `writing to it`), what broke, and the fix. Undefined for errors that are
 * not about the file (a bad statement is a bug, reported as it is).
 */
export function describeStoreFault(error: unknown, path: string, doing: string): QuiverError | undefined {
  if (error instanceof QuiverError) return undefined;
  const code = codeOf(error);
  const reason = errorMessage(error);
  const details = { path, doing, sqliteCode: code };
  if (DAMAGED.test(code)) {
    return new QuiverError(
      'storage_damaged',
      `The store ${path} is damaged (${reason}); Quiver failed while ${doing}.`,
      { fix: moveAsideFix(path), details, cause: error },
    );
  }
  if (code === 'SQLITE_READONLY_DBMOVED') {
    return new QuiverError(
      'storage_unavailable',
      `The store ${path} was moved or deleted while Quiver had it open (${reason}); Quiver failed while ${doing}.`,
      {
        fix: `Put the file back and restart Quiver. If you moved it aside on purpose, restart Quiver: it refuses to start the store over unless ${asidePath(path)} exists.`,
        details,
        cause: error,
      },
    );
  }
  if (FULL.test(code)) {
    return new QuiverError(
      'storage_unavailable',
      `The disk holding ${path} is full (${reason}); Quiver failed while ${doing}.`,
      {
        fix: `Free space on the disk that holds ${dirname(path)}; the store itself is intact and needs no repair.`,
        details,
        cause: error,
      },
    );
  }
  if (NOT_WRITABLE.test(code)) {
    return new QuiverError(
      'storage_unavailable',
      `The store ${path} cannot be opened or written (${reason}); Quiver failed while ${doing}.`,
      {
        fix: `Make ${dirname(path)} and the files in it readable and writable by this user (or point --data-dir at a writable directory).`,
        details,
        cause: error,
      },
    );
  }
  if (IO.test(code)) {
    return new QuiverError(
      'storage_unavailable',
      `Reading or writing ${path} failed with an I/O error (${reason}); Quiver failed while ${doing}.`,
      {
        fix: `Check the disk that holds ${dirname(path)} (space, mount, hardware). If the error stays: ${moveAsideFix(path)}`,
        details,
        cause: error,
      },
    );
  }
  return undefined;
}

/** Runs `work`; a file-level SQLite or file-system error leaves as the error that names the file and the fix. */
export function withStoreFaults<T>(path: string, doing: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw describeStoreFault(error, path, doing) ?? error;
  }
}
