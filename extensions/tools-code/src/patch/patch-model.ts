/** One line of a hunk: kept context, removed or added. */
export interface HunkLine {
  kind: ' ' | '-' | '+';
  text: string;
  /** Unified diffs only: `\ No newline at end of file` followed this line. */
  noNewline?: boolean;
}

export interface PatchHunk {
  /** 1-based position of the hunk within its file operation, for error messages. */
  number: number;
  /** Envelope format: a line (function or class header) to find before the hunk. */
  anchor?: string;
  lines: HunkLine[];
  /** The hunk's lines run to the end of the file. */
  endOfFile: boolean;
  /** Unified diffs: the old-file line the hunk header names, a hint where to look first. */
  oldStart?: number;
}

export type PatchOperation =
  | { action: 'add'; path: string; content: string }
  | { action: 'delete'; path: string }
  | { action: 'update'; path: string; moveTo?: string; hunks: PatchHunk[] };

export interface ParsedPatch {
  format: 'envelope' | 'unified';
  operations: PatchOperation[];
}

export type PatchParse = { ok: true; patch: ParsedPatch } | { ok: false; error: string };

/** Every path a patch reads or writes, move targets included (for permission checks). */
export function patchPaths(patch: ParsedPatch): string[] {
  const paths: string[] = [];
  for (const operation of patch.operations) {
    paths.push(operation.path);
    if (operation.action === 'update' && operation.moveTo !== undefined) paths.push(operation.moveTo);
  }
  return [...new Set(paths)];
}
