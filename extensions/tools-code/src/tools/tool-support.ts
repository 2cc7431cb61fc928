import type { FsReachHandle, ToolContext } from '@quiver/types';
import type { ResolvedPath } from '../workspace/resolve-path.js';

export function fsReachOf(ctx: ToolContext): FsReachHandle | undefined {
  return ctx.capabilities.fs_reach;
}

/** Paths in results are shown relative to the first root, absolute for the other roots. */
export function displayPathOf(resolved: ResolvedPath): string {
  return resolved.inFirstRoot ? resolved.relative : resolved.absolute;
}

/** Structured data every edit tool returns, for file-edit metrics. */
export interface FileEditSummary {
  path: string;
  linesAdded: number;
  linesRemoved: number;
}
