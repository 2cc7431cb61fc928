import { realpath } from 'node:fs/promises';
import { defineTool, fail, ok, type SessionState, type ToolContext, type ToolResult } from '@quiver/types';
import { z } from 'zod';
import { commitChanges } from '../patch/commit-changes.js';
import { parsePatch } from '../patch/parse-patch.js';
import { patchPaths } from '../patch/patch-model.js';
import { planPatch } from '../patch/plan-patch.js';
import { forgetStamp, recordStamp, withFileLock } from '../workspace/file-stamps.js';
import { resolveWorkspacePath } from '../workspace/resolve-path.js';
import { fsReachOf } from './tool-support.js';

const applyPatchInput = z.object({
  patch: z
    .string()
    .describe(
      'A patch: either the envelope format ("*** Begin Patch" … "*** End Patch" with Add/Delete/Update File operations) or a unified diff (git diff). Paths are relative to the workspace root.',
    ),
});

const ACTION_LETTERS = { add: 'A', delete: 'D', update: 'M', move: 'R' } as const;

function permissionPaths(patchText: string): string[] {
  const parsed = parsePatch(patchText);
  return parsed.ok ? patchPaths(parsed.patch) : [];
}

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  title: 'Apply patch',
  description:
    'Apply a multi-file patch, all or nothing: either every file changes or none does. Accepts the "*** Begin Patch" envelope format and unified diffs. A hunk that does not apply is reported with its file and hunk number.',
  input: applyPatchInput,
  toolset: 'code',
  annotations: { destructive: true },
  capabilities: { fs_reach: { mode: 'write' } },
  permission: { kind: 'write', paths: (args) => permissionPaths(args.patch) },
  async execute(args, ctx) {
    const parsed = parsePatch(args.patch);
    if (!parsed.ok) return fail('input_invalid', `${parsed.error} No files were modified.`);
    const fsReach = fsReachOf(ctx);
    const lockKeys: string[] = [];
    for (const path of patchPaths(parsed.patch)) {
      const resolution = await resolveWorkspacePath(fsReach, path);
      if (!resolution.ok) return resolution.failure;
      lockKeys.push(resolution.resolved.absolute);
    }
    return withFileLock(ctx.session, lockKeys, async () => {
      const planned = await planPatch(parsed.patch, fsReach, ctx.session);
      if (!planned.ok) {
        return { ...planned.failure, error: `${planned.failure.error} No files were modified.` };
      }
      const { plan } = planned;
      const committed = await commitChanges(plan.changes);
      if (!committed.ok && 'changedPath' in committed) {
        return fail(
          'stale_write',
          `${committed.changedPath} changed on disk while the patch was being prepared. No files were modified.`,
        );
      }
      if (!committed.ok) {
        const restored =
          committed.rollbackErrors.length === 0
            ? 'Every file was restored.'
            : `Rollback failed for: ${committed.rollbackErrors.join('; ')}.`;
        return fail(
          'execution_failed',
          `Writing ${committed.failedPath} failed: ${(committed.error as Error).message}. ${restored}`,
        );
      }
      for (const change of plan.changes) {
        if (change.after === undefined) forgetStamp(ctx.session, change.absolute);
        else {
          const stats = committed.written.get(change.absolute);
          if (stats !== undefined) recordStamp(ctx.session, change.absolute, stats);
        }
      }
      const summary = plan.reports.map(
        (report) =>
          `${ACTION_LETTERS[report.action]} ${report.movedTo ? `${report.path} -> ${report.movedTo}` : report.path}`,
      );
      return ok(
        `Applied the patch to ${plan.reports.length} file${plan.reports.length === 1 ? '' : 's'}:\n${summary.join('\n')}`,
        {
          structured: { format: parsed.patch.format, files: plan.reports },
        },
      );
    });
  },
});

function throwawaySession(): SessionState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key, value) => {
      values.set(key, value);
    },
    delete: (key) => {
      values.delete(key);
    },
  };
}

/**
 * Runs the real apply_patch tool on a directory outside any host (scripts, conformance runs).
 * The directory is the only workspace root; there is no prior read state.
 */
export async function applyPatchText(workspaceRoot: string, patchText: string): Promise<ToolResult> {
  const root = await realpath(workspaceRoot);
  const ctx: ToolContext = {
    callId: 'apply-patch-text',
    sessionId: 'apply-patch-text',
    personalityId: 'default',
    agent: { kind: 'main', id: 'apply-patch-text' },
    turn: 0,
    signal: new AbortController().signal,
    emit: () => undefined,
    budget: Number.POSITIVE_INFINITY,
    dryRun: false,
    capabilities: { fs_reach: { roots: [root], mode: 'write' } },
    attachments: [],
    session: throwawaySession(),
  };
  return applyPatchTool.execute({ patch: patchText }, ctx);
}
