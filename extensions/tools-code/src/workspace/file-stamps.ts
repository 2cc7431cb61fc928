import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fail, type SessionState, type ToolFailure } from '@quiver/types';

/** What the session last saw of a file: enough to notice that someone else changed it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const STAMPS_KEY = 'tools-code.file-stamps';
const LOCKS_KEY = 'tools-code.file-locks';

function stampsOf(session: SessionState): Map<string, FileStamp> {
  let stamps = session.get<Map<string, FileStamp>>(STAMPS_KEY);
  if (stamps === undefined) {
    stamps = new Map();
    session.set(STAMPS_KEY, stamps);
  }
  return stamps;
}

export function stampOf(stats: Stats): FileStamp {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

export function recordStamp(session: SessionState, absolute: string, stats: Stats): void {
  stampsOf(session).set(absolute, stampOf(stats));
}

export function forgetStamp(session: SessionState, absolute: string): void {
  stampsOf(session).delete(absolute);
}

export function lastStamp(session: SessionState, absolute: string): FileStamp | undefined {
  return stampsOf(session).get(absolute);
}

/**
 * `stale_write` when the file on disk differs from what this session last read or wrote.
 * A file the session never saw passes: callers decide whether that is allowed.
 */
export function checkStale(
  session: SessionState,
  absolute: string,
  displayPath: string,
  current: Stats,
): ToolFailure | undefined {
  const seen = lastStamp(session, absolute);
  if (seen === undefined) return undefined;
  const now = stampOf(current);
  if (seen.size === now.size && seen.mtimeMs === now.mtimeMs && seen.ctimeMs === now.ctimeMs)
    return undefined;
  const changes: string[] = [];
  if (seen.size !== now.size) changes.push(`size ${seen.size} → ${now.size} bytes`);
  changes.push(`mtime ${new Date(seen.mtimeMs).toISOString()} → ${new Date(now.mtimeMs).toISOString()}`);
  return fail(
    'stale_write',
    `${displayPath} changed on disk since this session last read it (${changes.join(', ')}). Read it again, then redo the edit.`,
    { path: displayPath, before: seen, after: now },
  );
}

/**
 * Another process (or session) may write between our read and our rename: compare the file's
 * stat with the one taken at load, right before writing, to keep that window small.
 */
export async function changedSince(
  absolute: string,
  loaded: FileStamp | undefined,
): Promise<FileStamp | undefined> {
  const now = await stat(absolute).then(stampOf, () => undefined);
  if (loaded === undefined) return now;
  if (now === undefined) return { size: -1, mtimeMs: 0, ctimeMs: 0 };
  return now.size === loaded.size && now.mtimeMs === loaded.mtimeMs && now.ctimeMs === loaded.ctimeMs
    ? undefined
    : now;
}

/**
 * Serializes read-modify-write cycles on the same file within a session, so two racing edits
 * both land instead of one silently overwriting the other.
 */
export async function withFileLock<T>(
  session: SessionState,
  keys: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  let locks = session.get<Map<string, Promise<void>>>(LOCKS_KEY);
  if (locks === undefined) {
    locks = new Map();
    session.set(LOCKS_KEY, locks);
  }
  const table = locks;
  const unique = [...new Set(keys)];
  const previous = unique.map((key) => table.get(key) ?? Promise.resolve());
  let release: () => void = () => undefined;
  const current = new Promise<void>((resolve) => {
    release = resolve;
  });
  for (const key of unique) table.set(key, current);
  await Promise.all(previous);
  try {
    return await work();
  } finally {
    release();
    for (const key of unique) if (table.get(key) === current) table.delete(key);
  }
}
