import type { Stats } from 'node:fs';
import { type FsReachHandle, fail, type SessionState, type ToolFailure } from '@quiver/types';
import { decodeText, encodeText } from '../text/encoding.js';
import { joinLines, splitLines } from '../text/line-endings.js';
import { checkStale, stampOf } from '../workspace/file-stamps.js';
import { openWorkspaceFile } from '../workspace/open-file.js';
import { namesDirectory, type ResolvedPath, resolveWorkspacePath } from '../workspace/resolve-path.js';
import { applyHunks } from './apply-hunks.js';
import type { PendingFileState } from './commit-changes.js';
import type { ParsedPatch } from './patch-model.js';

export interface PatchFileReport {
  path: string;
  action: 'add' | 'delete' | 'update' | 'move';
  /** For moves: where the file went. */
  movedTo?: string;
  linesAdded: number;
  linesRemoved: number;
}

export interface PatchPlan {
  reports: PatchFileReport[];
  changes: PendingFileState[];
  /** Resolved paths the plan touches, for locking. */
  touched: string[];
}

interface VirtualFile {
  content: Buffer | undefined;
  mode: number | undefined;
}

export type PlanOutcome = { ok: true; plan: PatchPlan } | { ok: false; failure: ToolFailure };

function countTextLines(text: string): number {
  const split = splitLines(text);
  return split.lines[split.lines.length - 1] === '' ? split.lines.length - 1 : split.lines.length;
}

/**
 * Computes every file's new content in memory, in patch order, so that later operations see
 * earlier ones and nothing is written unless the whole patch applies.
 */
export async function planPatch(
  patch: ParsedPatch,
  fsReach: FsReachHandle | undefined,
  session: SessionState,
): Promise<PlanOutcome> {
  const state = new Map<string, VirtualFile>();
  const originals = new Map<string, { stats: Stats | undefined; content: Buffer | undefined }>();
  const reports: PatchFileReport[] = [];

  const resolve = async (raw: string): Promise<ResolvedPath | ToolFailure> => {
    const resolution = await resolveWorkspacePath(fsReach, raw);
    return resolution.ok ? resolution.resolved : resolution.failure;
  };
  const load = async (target: ResolvedPath, displayPath: string): Promise<VirtualFile | ToolFailure> => {
    const known = state.get(target.absolute);
    if (known !== undefined) return known;
    const opened = await openWorkspaceFile(fsReach, session, target.absolute, displayPath);
    if (!opened.ok && opened.failure.code !== 'not_found') return opened.failure;
    const stats: Stats | undefined = opened.ok ? opened.stats : undefined;
    let content: Buffer | undefined;
    if (opened.ok) {
      try {
        if (opened.stats.isDirectory()) return fail('conflict', `${displayPath} is a directory, not a file.`);
        if (!opened.stats.isFile()) return fail('conflict', `${displayPath} is not a regular file.`);
        const stale = checkStale(session, target.absolute, displayPath, opened.stats);
        if (stale !== undefined) return stale;
        content = await opened.handle.readFile();
      } finally {
        await opened.handle.close();
      }
    }
    originals.set(target.absolute, { stats, content });
    const file = { content, mode: stats === undefined ? undefined : stats.mode & 0o7777 };
    state.set(target.absolute, file);
    return file;
  };

  for (const operation of patch.operations) {
    const target = await resolve(operation.path);
    if ('ok' in target) return { ok: false, failure: target };
    const current = await load(target, operation.path);
    if ('ok' in current) return { ok: false, failure: current };
    if (operation.action === 'add') {
      if (namesDirectory(operation.path)) {
        return {
          ok: false,
          failure: fail(
            'input_invalid',
            `Add File ${operation.path}: the path ends with "/", which names a directory.`,
          ),
        };
      }
      state.set(target.absolute, { content: Buffer.from(operation.content, 'utf8'), mode: current.mode });
      reports.push({
        path: operation.path,
        action: 'add',
        linesAdded: countTextLines(operation.content),
        linesRemoved: 0,
      });
      continue;
    }
    if (current.content === undefined) {
      const verb = operation.action === 'delete' ? 'delete' : 'update';
      return {
        ok: false,
        failure: fail('not_found', `Cannot ${verb} ${operation.path}: the file does not exist.`),
      };
    }
    if (operation.action === 'delete') {
      const decoded = decodeText(current.content);
      const removed = decoded.kind === 'text' ? countTextLines(decoded.text) : 0;
      state.set(target.absolute, { content: undefined, mode: undefined });
      reports.push({ path: operation.path, action: 'delete', linesAdded: 0, linesRemoved: removed });
      continue;
    }
    const decoded = decodeText(current.content);
    if (decoded.kind === 'binary') {
      return {
        ok: false,
        failure: fail('conflict', `Cannot update ${operation.path}: it looks binary (${decoded.reason}).`),
      };
    }
    const applied = applyHunks(splitLines(decoded.text), operation.hunks, operation.path);
    if (!applied.ok) return { ok: false, failure: fail('conflict', applied.error, { path: operation.path }) };
    const content = encodeText(joinLines(applied.split), decoded.encoding);
    const counts = { linesAdded: applied.linesAdded, linesRemoved: applied.linesRemoved };
    if (operation.moveTo === undefined) {
      state.set(target.absolute, { content, mode: current.mode });
      reports.push({ path: operation.path, action: 'update', ...counts });
      continue;
    }
    const destination = await resolve(operation.moveTo);
    if ('ok' in destination) return { ok: false, failure: destination };
    const existing = await load(destination, operation.moveTo);
    if ('ok' in existing) return { ok: false, failure: existing };
    state.set(target.absolute, { content: undefined, mode: undefined });
    state.set(destination.absolute, { content, mode: current.mode });
    reports.push({ path: operation.path, action: 'move', movedTo: operation.moveTo, ...counts });
  }

  const changes: PendingFileState[] = [];
  for (const [absolute, final] of state) {
    const original = originals.get(absolute);
    const before = original?.content;
    if (before === undefined && final.content === undefined) continue;
    if (before !== undefined && final.content !== undefined && before.equals(final.content)) continue;
    changes.push({
      absolute,
      before,
      beforeMode: original?.stats === undefined ? undefined : original.stats.mode & 0o7777,
      beforeStamp: original?.stats === undefined ? undefined : stampOf(original.stats),
      after: final.content,
      afterMode: final.mode,
    });
  }
  return { ok: true, plan: { reports, changes, touched: [...state.keys()] } };
}
