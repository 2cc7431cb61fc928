import type { HunkLine, PatchHunk, PatchOperation, PatchParse } from './patch-model.js';

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const NULL_PATH = '/dev/null';

interface FileSection {
  oldPath?: string;
  newPath?: string;
  renameFrom?: string;
  renameTo?: string;
  created: boolean;
  deleted: boolean;
  hunks: PatchHunk[];
  header: string;
}

function unquote(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    return value
      .slice(1, -1)
      .replace(/\\(["\\])/g, '$1')
      .replace(/\\t/g, '\t')
      .replace(/\\n/g, '\n');
  }
  return value;
}

/** `--- a/src/x.ts\t2024-01-01` → `src/x.ts`. */
function headerPath(raw: string, prefix: 'a/' | 'b/'): string {
  const withoutTimestamp = raw.includes('\t') ? raw.slice(0, raw.indexOf('\t')) : raw;
  const path = unquote(withoutTimestamp);
  if (path === NULL_PATH) return NULL_PATH;
  return path.startsWith(prefix) ? path.slice(2) : path;
}

export function looksLikeUnifiedDiff(text: string): boolean {
  return /^(diff --git |--- |@@ -)/m.test(text);
}

/** Parses git-style and plain unified diffs into the same operations as the envelope format. */
export function parseUnifiedDiff(text: string): PatchParse {
  const lines = text.split(/\r?\n/);
  const sections: FileSection[] = [];
  let section: FileSection | undefined;
  const start = (header: string): FileSection => {
    const created: FileSection = { created: false, deleted: false, hunks: [], header };
    sections.push(created);
    return created;
  };
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.startsWith('diff --git ')) {
      section = start(line);
      const match = /^diff --git ("?a\/.+?"?) ("?b\/.+"?)$/.exec(line);
      if (match) {
        section.oldPath = headerPath(match[1] ?? '', 'a/');
        section.newPath = headerPath(match[2] ?? '', 'b/');
      }
      index += 1;
      continue;
    }
    if (line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ')) {
      if (section === undefined || section.hunks.length > 0 || !section.header.startsWith('diff --git '))
        section = start(line);
      section.oldPath = headerPath(line.slice(4), 'a/');
      section.newPath = headerPath((lines[index + 1] ?? '').slice(4), 'b/');
      if (section.oldPath === NULL_PATH) section.created = true;
      if (section.newPath === NULL_PATH) section.deleted = true;
      index += 2;
      continue;
    }
    if (line.startsWith('@@')) {
      if (section === undefined)
        return { ok: false, error: `Hunk "${line}" comes before any file header (--- / +++).` };
      const match = HUNK_HEADER.exec(line);
      if (!match)
        return {
          ok: false,
          error: `Invalid hunk header "${line}"; expected "@@ -start,count +start,count @@".`,
        };
      const oldCount = match[2] === undefined ? 1 : Number(match[2]);
      const newCount = match[4] === undefined ? 1 : Number(match[4]);
      const hunk: PatchHunk = {
        number: section.hunks.length + 1,
        lines: [],
        endOfFile: false,
        oldStart: Number(match[1]),
      };
      let oldLeft = oldCount;
      let newLeft = newCount;
      index += 1;
      while (index < lines.length && (oldLeft > 0 || newLeft > 0)) {
        const body = lines[index] ?? '';
        if (body.startsWith('\\')) {
          const previous = hunk.lines[hunk.lines.length - 1];
          if (previous) previous.noNewline = true;
          index += 1;
          continue;
        }
        const marker = body === '' ? ' ' : body[0];
        if (marker !== ' ' && marker !== '-' && marker !== '+') {
          return {
            ok: false,
            error: `${describe(section)}, hunk ${hunk.number}: unexpected line "${body}" (hunk is shorter than its header says).`,
          };
        }
        const hunkLine: HunkLine = { kind: marker, text: body.slice(1) };
        hunk.lines.push(hunkLine);
        if (marker !== '+') oldLeft -= 1;
        if (marker !== '-') newLeft -= 1;
        index += 1;
      }
      if (oldLeft > 0 || newLeft > 0)
        return {
          ok: false,
          error: `${describe(section)}, hunk ${hunk.number} ends early: the header "${line}" announces more lines.`,
        };
      if ((lines[index] ?? '').startsWith('\\')) {
        const previous = hunk.lines[hunk.lines.length - 1];
        if (previous) previous.noNewline = true;
        index += 1;
      }
      section.hunks.push(hunk);
      continue;
    }
    if (section !== undefined) {
      if (line.startsWith('new file mode')) section.created = true;
      else if (line.startsWith('deleted file mode')) section.deleted = true;
      else if (line.startsWith('rename from '))
        section.renameFrom = unquote(line.slice('rename from '.length));
      else if (line.startsWith('rename to ')) section.renameTo = unquote(line.slice('rename to '.length));
      else if (line.startsWith('Binary files ') || line.startsWith('GIT binary patch')) {
        return { ok: false, error: `${describe(section)}: binary patches are not supported.` };
      }
    }
    index += 1;
  }
  const operations: PatchOperation[] = [];
  for (const file of sections) {
    const operation = toOperation(file);
    if (typeof operation === 'string') return { ok: false, error: operation };
    operations.push(operation);
  }
  if (operations.length === 0)
    return { ok: false, error: 'The diff contains no file changes; no files were modified.' };
  return { ok: true, patch: { format: 'unified', operations } };
}

function describe(section: FileSection): string {
  return section.newPath && section.newPath !== NULL_PATH
    ? section.newPath
    : (section.oldPath ?? section.header);
}

function toOperation(section: FileSection): PatchOperation | string {
  const oldPath = section.renameFrom ?? section.oldPath;
  const newPath = section.renameTo ?? section.newPath;
  if (section.created || oldPath === NULL_PATH) {
    if (newPath === undefined || newPath === NULL_PATH)
      return `${section.header}: a new file needs a "+++" path.`;
    let content = '';
    for (const hunk of section.hunks) {
      for (const line of hunk.lines)
        if (line.kind !== '-') content += line.text + (line.noNewline ? '' : '\n');
    }
    return { action: 'add', path: newPath, content };
  }
  if (oldPath === undefined) return `${section.header}: the file path is missing.`;
  if (section.deleted || newPath === NULL_PATH) return { action: 'delete', path: oldPath };
  const moveTo = newPath !== undefined && newPath !== oldPath ? newPath : undefined;
  if (section.hunks.length === 0 && moveTo === undefined)
    return `${describe(section)}: the diff has no hunks for this file.`;
  return moveTo === undefined
    ? { action: 'update', path: oldPath, hunks: section.hunks }
    : { action: 'update', path: oldPath, moveTo, hunks: section.hunks };
}
