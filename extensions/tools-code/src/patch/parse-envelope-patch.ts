import type { HunkLine, PatchHunk, PatchOperation, PatchParse } from './patch-model.js';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const END_OF_FILE = '*** End of File';

export function looksLikeEnvelopePatch(text: string): boolean {
  return text.trimStart().startsWith(BEGIN);
}

/** Only known headers end a hunk, so a context line such as ` *** bold ***` stays context. */
function isOperationHeader(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE);
}

/**
 * Parses the `*** Begin Patch` envelope. Markers and operation headers may be padded with
 * whitespace; hunk lines are taken literally (their first character is the marker).
 */
export function parseEnvelopePatch(text: string): PatchParse {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
  while (lines.length > 0 && (lines[0] ?? '').trim() === '') lines.shift();
  if ((lines[0] ?? '').trim() !== BEGIN)
    return { ok: false, error: `The patch must start with a "${BEGIN}" line.` };
  if (lines.length < 2 || (lines[lines.length - 1] ?? '').trim() !== END) {
    return { ok: false, error: `The patch must end with a "${END}" line.` };
  }
  const body = lines.slice(1, -1);
  const operations: PatchOperation[] = [];
  let index = 0;
  while (index < body.length) {
    const line = body[index] ?? '';
    const trimmed = line.trim();
    if (trimmed === '') {
      index += 1;
      continue;
    }
    if (trimmed.startsWith(ADD)) {
      const path = trimmed.slice(ADD.length).trim();
      if (path === '') return { ok: false, error: `"${trimmed}" names no file.` };
      index += 1;
      let content = '';
      while (index < body.length && (body[index] ?? '').startsWith('+')) {
        content += `${(body[index] ?? '').slice(1)}\n`;
        index += 1;
      }
      if (index < body.length && !isOperationHeader(body[index] ?? '') && (body[index] ?? '').trim() !== '') {
        return {
          ok: false,
          error: `Add File ${path}: every content line must start with "+", got "${body[index]}".`,
        };
      }
      operations.push({ action: 'add', path, content });
      continue;
    }
    if (trimmed.startsWith(DELETE)) {
      const path = trimmed.slice(DELETE.length).trim();
      if (path === '') return { ok: false, error: `"${trimmed}" names no file.` };
      operations.push({ action: 'delete', path });
      index += 1;
      continue;
    }
    if (trimmed.startsWith(UPDATE)) {
      const path = trimmed.slice(UPDATE.length).trim();
      if (path === '') return { ok: false, error: `"${trimmed}" names no file.` };
      index += 1;
      let moveTo: string | undefined;
      if ((body[index] ?? '').trim().startsWith(MOVE)) {
        moveTo = (body[index] ?? '').trim().slice(MOVE.length).trim();
        if (moveTo === '') return { ok: false, error: `Update File ${path}: "*** Move to:" names no file.` };
        index += 1;
      }
      const parsed = parseHunks(body, index, path);
      if (!parsed.ok) return parsed;
      index = parsed.next;
      if (parsed.hunks.length === 0) {
        return {
          ok: false,
          error: `Update File ${path} has no hunks; add at least one "@@" hunk with changes.`,
        };
      }
      operations.push(
        moveTo === undefined
          ? { action: 'update', path, hunks: parsed.hunks }
          : { action: 'update', path, moveTo, hunks: parsed.hunks },
      );
      continue;
    }
    return {
      ok: false,
      error: `Unexpected line "${trimmed}"; expected "${ADD} PATH", "${DELETE} PATH" or "${UPDATE} PATH".`,
    };
  }
  if (operations.length === 0)
    return { ok: false, error: 'The patch contains no file operations; no files were modified.' };
  return { ok: true, patch: { format: 'envelope', operations } };
}

type HunksParse = { ok: true; hunks: PatchHunk[]; next: number } | { ok: false; error: string };

function parseHunks(body: readonly string[], start: number, path: string): HunksParse {
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  const open = (anchor: string | undefined): PatchHunk => {
    const hunk: PatchHunk = { number: hunks.length + 1, lines: [], endOfFile: false };
    if (anchor !== undefined && anchor.trim() !== '') hunk.anchor = anchor;
    hunks.push(hunk);
    return hunk;
  };
  let index = start;
  while (index < body.length) {
    const line = body[index] ?? '';
    if (isOperationHeader(line)) break;
    if (line.trim() === END_OF_FILE) {
      if (current === undefined)
        return { ok: false, error: `Update File ${path}: "${END_OF_FILE}" appears before any hunk.` };
      current.endOfFile = true;
      current = undefined;
      index += 1;
      continue;
    }
    if (line.startsWith('@@')) {
      if (line !== '@@' && !line.startsWith('@@ ')) {
        return {
          ok: false,
          error: `Update File ${path}: invalid hunk header "${line}"; use "@@" or "@@ <context line>".`,
        };
      }
      current = open(line === '@@' ? undefined : line.slice(3));
      index += 1;
      continue;
    }
    const marker = line[0];
    let hunkLine: HunkLine;
    if (line === '') hunkLine = { kind: ' ', text: '' };
    else if (marker === ' ' || marker === '-' || marker === '+')
      hunkLine = { kind: marker, text: line.slice(1) };
    else {
      return {
        ok: false,
        error: `Update File ${path}, hunk ${current?.number ?? hunks.length + 1}: unexpected line "${line}"; hunk lines start with " ", "-" or "+".`,
      };
    }
    // The first hunk may omit its "@@" line, as models often do.
    current ??= open(undefined);
    current.lines.push(hunkLine);
    index += 1;
  }
  const empty = hunks.find((hunk) => hunk.lines.length === 0);
  if (empty !== undefined)
    return { ok: false, error: `Update File ${path}: hunk ${empty.number} has no lines.` };
  return { ok: true, hunks, next: index };
}
