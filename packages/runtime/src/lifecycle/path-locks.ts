import { resolve } from 'node:path';
import type { Tool } from '@quiver/types';

/**
 * Serializes calls that write the same path. A call takes every lock it needs at once, in
 * sorted order, so two multi-path writers cannot deadlock.
 */
export class PathLocks {
  readonly #tails = new Map<string, Promise<void>>();

  /** Waits for earlier writers of the same paths; returns the release function. */
  async acquire(paths: readonly string[], signal: AbortSignal): Promise<() => void> {
    const unique = [...new Set(paths)].sort();
    if (unique.length === 0) return () => {};
    let release!: () => void;
    const done = new Promise<void>((resolveDone) => {
      release = resolveDone;
    });
    const previous = unique.map((path) => this.#tails.get(path) ?? Promise.resolve());
    for (const path of unique) this.#tails.set(path, done);
    const releaseAll = () => {
      release();
      for (const path of unique) if (this.#tails.get(path) === done) this.#tails.delete(path);
    };
    try {
      await abortable(Promise.all(previous), signal);
    } catch (error) {
      // Our slot is still chained after the previous holders, so later writers keep their order.
      void Promise.all(previous).then(releaseAll);
      throw error;
    }
    return releaseAll;
  }
}

/** Absolute paths a call writes, from the tool's `write` permission spec. */
export function writtenPaths(tool: Tool, args: unknown, workspace: string): string[] {
  const spec = tool.permission;
  if (!spec || spec.kind !== 'write') return [];
  try {
    return spec.paths(args).map((path) => resolve(workspace, path));
  } catch {
    return [];
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
