import type { FileEditMetric, FileEditMetrics } from './records.js';

interface FileEdit {
  path: string;
  linesAdded: number;
  linesRemoved: number;
}

/**
 * Edit tools report `{ path, linesAdded, linesRemoved }` or `{ files: [...] }` of those in
 * their structured result; anything else is not an edit.
 */
export function fileEditsOf(structured: unknown): FileEdit[] {
  if (isFileEdit(structured)) return [structured];
  if (
    typeof structured === 'object' &&
    structured !== null &&
    Array.isArray((structured as { files?: unknown }).files)
  ) {
    return ((structured as { files: unknown[] }).files ?? []).filter(isFileEdit);
  }
  return [];
}

export function summarizeFileEdits(structuredResults: Iterable<unknown>): FileEditMetrics {
  const byPath = new Map<string, FileEditMetric>();
  for (const structured of structuredResults) {
    for (const edit of fileEditsOf(structured)) {
      const metric = byPath.get(edit.path) ?? { path: edit.path, linesAdded: 0, linesRemoved: 0, edits: 0 };
      metric.linesAdded += edit.linesAdded;
      metric.linesRemoved += edit.linesRemoved;
      metric.edits += 1;
      byPath.set(edit.path, metric);
    }
  }
  const files = [...byPath.values()].sort((left, right) => left.path.localeCompare(right.path));
  return {
    filesChanged: files.length,
    linesAdded: files.reduce((sum, file) => sum + file.linesAdded, 0),
    linesRemoved: files.reduce((sum, file) => sum + file.linesRemoved, 0),
    files,
  };
}

function isFileEdit(value: unknown): value is FileEdit {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.path === 'string' &&
    typeof candidate.linesAdded === 'number' &&
    typeof candidate.linesRemoved === 'number'
  );
}
