import path from 'node:path';

/** What one traced process did, in the order strace saw it start. */
export type TraceEvent =
  | { kind: 'spawn'; pid: number; child: number; thread: boolean }
  | { kind: 'exec'; pid: number; path: string; argv: string[]; ok: boolean; error?: string }
  | { kind: 'chdir'; pid: number; directory: string; ok: boolean }
  | {
      kind: 'write';
      pid: number;
      syscall: string;
      /** The path as named, made absolute; `realPath` is where an open really landed (symlinks followed). */
      path: string;
      realPath?: string;
      ok: boolean;
      error?: string;
    }
  | {
      /** An open for reading only (no write flag, not O_PATH): the file's content, or a directory's names. */
      kind: 'read';
      pid: number;
      path: string;
      realPath?: string;
      directory: boolean;
      ok: boolean;
    };

/** Flags of open(2) that mean the caller may change the file. */
const WRITE_FLAGS = /\b(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND)\b/;

type WriteEvent = Extract<TraceEvent, { kind: 'write' }>;

interface RawCall {
  pid: number;
  name: string;
  args: string[];
  result: string;
}

/**
 * Reads the output of `strace -f -y -qq` into events. Calls that strace split into
 * `<unfinished ...>` and `<... resumed>` are joined and kept at the place they started, so a
 * child's events always come after the spawn that created it.
 */
export function parseStraceLog(log: string, initialDirectory: string): TraceEvent[] {
  const calls: Array<{ order: number; call: RawCall }> = [];
  const pending = new Map<number, { order: number; text: string }>();
  const lines = log.split('\n');
  for (const [order, line] of lines.entries()) {
    const match = /^(\d+) +(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    let text = match[2] ?? '';
    let start = order;
    if (text.startsWith('---') || text.startsWith('+++')) continue;
    const resumed = /^<\.\.\. [\w]+ resumed>(.*)$/.exec(text);
    if (resumed) {
      const earlier = pending.get(pid);
      if (!earlier) continue;
      pending.delete(pid);
      text = earlier.text + (resumed[1] ?? '');
      start = earlier.order;
    }
    if (text.endsWith('<unfinished ...>')) {
      pending.set(pid, { order, text: text.slice(0, -'<unfinished ...>'.length).trimEnd() });
      continue;
    }
    const call = parseCall(pid, text);
    if (call) calls.push({ order: start, call });
  }
  calls.sort((a, b) => a.order - b.order);
  const directories = new Map<number, string>();
  const events: TraceEvent[] = [];
  for (const { call } of calls) {
    if (!directories.has(call.pid)) directories.set(call.pid, initialDirectory);
    events.push(...toEvents(call, directories));
  }
  return events;
}

function toEvents(call: RawCall, directories: Map<number, string>): TraceEvent[] {
  const { pid, name, args, result } = call;
  const ok = !result.startsWith('-1') && !result.startsWith('?');
  const error = ok ? undefined : /^-1 (\w+)/.exec(result)?.[1];
  const cwd = directories.get(pid) ?? '/';
  const plain = (index: number) => resolveIn(cwd, decodeString(args[index] ?? '""'));
  const at = (dirIndex: number, pathIndex: number) =>
    resolveIn(decoratedPath(args[dirIndex] ?? '') ?? cwd, decodeString(args[pathIndex] ?? '""'));
  const write = (syscall: string, target: string): WriteEvent =>
    error
      ? { kind: 'write', pid, syscall, path: target, ok, error }
      : { kind: 'write', pid, syscall, path: target, ok };
  switch (name) {
    case 'clone':
    case 'clone3':
    case 'fork':
    case 'vfork': {
      const child = Number(/^(\d+)/.exec(result)?.[1] ?? Number.NaN);
      if (!Number.isFinite(child)) return [];
      directories.set(child, cwd);
      return [{ kind: 'spawn', pid, child, thread: args.join(',').includes('CLONE_THREAD') }];
    }
    case 'execve':
      return [
        withError({ kind: 'exec', pid, path: plain(0), argv: decodeArray(args[1] ?? '[]'), ok }, error),
      ];
    case 'execveat': {
      const named = decodeString(args[1] ?? '""');
      const target = named === '' ? (decoratedPath(args[0] ?? '') ?? '') : at(0, 1);
      return [withError({ kind: 'exec', pid, path: target, argv: decodeArray(args[2] ?? '[]'), ok }, error)];
    }
    case 'chdir':
    case 'fchdir': {
      const directory = name === 'chdir' ? plain(0) : (decoratedPath(args[0] ?? '') ?? cwd);
      if (ok) directories.set(pid, directory);
      return [{ kind: 'chdir', pid, directory, ok }];
    }
    case 'open':
    case 'openat':
    case 'openat2': {
      const flags = name === 'open' ? (args[1] ?? '') : (args[2] ?? '');
      const target = name === 'open' ? plain(0) : at(0, 1);
      const real = decoratedPath(result);
      if (!WRITE_FLAGS.test(flags)) {
        if (/\bO_PATH\b/.test(flags)) return [];
        const read: TraceEvent = {
          kind: 'read',
          pid,
          path: target,
          directory: /\bO_DIRECTORY\b/.test(flags),
          ok,
        };
        return [real !== undefined && real !== target ? { ...read, realPath: real } : read];
      }
      const event = write(name, target);
      return [real !== undefined && real !== target ? { ...event, realPath: real } : event];
    }
    case 'creat':
    case 'truncate':
    case 'unlink':
    case 'mkdir':
      return [write(name, plain(0))];
    case 'unlinkat':
    case 'mkdirat':
      return [write(name, at(0, 1))];
    case 'rename':
      return [write(name, plain(0)), write(name, plain(1))];
    case 'renameat':
    case 'renameat2':
      return [write(name, at(0, 1)), write(name, at(2, 3))];
    case 'link':
    case 'symlink':
      return [write(name, plain(1))];
    case 'linkat':
      return [write(name, at(2, 3))];
    case 'symlinkat':
      return [write(name, at(1, 2))];
    default:
      return [];
  }
}

function withError<T extends TraceEvent>(event: T, error: string | undefined): T {
  return error === undefined ? event : { ...event, error };
}

/** Absolute, normalized, without a trailing slash: the form reported writes are compared in. */
function resolveIn(directory: string, target: string): string {
  return path.posix.resolve(directory, target);
}

/** `3</some/path>` or `AT_FDCWD</some/path>`: the path strace's -y printed for a descriptor. */
function decoratedPath(text: string): string | undefined {
  const match = /^(?:\d+|AT_FDCWD)<(.*)>$/s.exec(text.trim());
  return match ? decodeEscapes(match[1] ?? '') : undefined;
}

function parseCall(pid: number, text: string): RawCall | undefined {
  const open = text.indexOf('(');
  if (open <= 0) return undefined;
  const name = text.slice(0, open);
  if (!/^\w+$/.test(name)) return undefined;
  const args: string[] = [];
  let depth = 0;
  let current = '';
  let index = open + 1;
  for (; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '"') {
      const end = endOfString(text, index);
      current += text.slice(index, end);
      index = end - 1;
      continue;
    }
    if (char === '<' && /(\d|AT_FDCWD)$/.test(current)) {
      const close = endOfDecoration(text, index);
      if (close !== -1) {
        current += text.slice(index, close);
        index = close - 1;
        continue;
      }
    }
    if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') depth--;
    else if (char === ')') {
      if (depth === 0) break;
      depth--;
    } else if (char === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') args.push(current.trim());
  const result = /^\)\s*=\s*(.*)$/s.exec(text.slice(index))?.[1];
  if (result === undefined) return undefined;
  return { pid, name, args, result: result.trim() };
}

/** Index just past the closing quote (and any `...` truncation mark) of the string at `start`. */
function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '"') {
      index++;
      if (text.startsWith('...', index)) index += 3;
      return index;
    } else index++;
  }
  return text.length;
}

/** Decorated paths are escaped like strings, so the first unescaped `>` ends them. */
function endOfDecoration(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '>') return index + 1;
    else index++;
  }
  return -1;
}

function decodeArray(text: string): string[] {
  const values: string[] = [];
  let index = text.indexOf('[');
  if (index === -1) return values;
  while (index < text.length) {
    const quote = text.indexOf('"', index);
    if (quote === -1) break;
    const end = endOfString(text, quote);
    values.push(decodeString(text.slice(quote, end)));
    index = end;
  }
  return values;
}

function decodeString(text: string): string {
  const body = text.replace(/\.\.\.$/, '');
  if (!body.startsWith('"')) return body;
  return decodeEscapes(body.slice(1, -1));
}

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };

/** strace escapes bytes C-style (`\t`, `\1`, `\377`, `\x1b`); the result is decoded as UTF-8 like a file name. */
function decodeEscapes(text: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = text[index + 1] ?? '';
    const octal = /^[0-7]{1,3}/.exec(text.slice(index + 1))?.[0];
    if (octal) {
      bytes.push(Number.parseInt(octal, 8));
      index += octal.length;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(index + 2))?.[0] ?? '0';
      bytes.push(Number.parseInt(hex, 16));
      index += 1 + hex.length;
    } else {
      bytes.push(SIMPLE_ESCAPES[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
