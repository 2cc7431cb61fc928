import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  resolvePathArgument,
  type SessionState,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '@quiver/types';

/**
 * A swap race against the file tools. Inside the workspace, `d` is a real directory and `l` a
 * symlink to `outside/d`; a Python process exchanges the two names with
 * renameat2(RENAME_EXCHANGE) in a tight loop. A tool that checks a name and then opens it by
 * name reads or writes `outside/d` whenever the exchange lands between the two steps. (Exchanging
 * `d` with a directory that is itself outside moves that directory into the workspace: reading
 * it then is no escape, so the outside side of the exchange is a symlink.)
 */
const SWAPPER = `
import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
AT_FDCWD, RENAME_EXCHANGE = -100, 2
try:
    renameat2 = libc.renameat2
    swap = lambda: renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
except AttributeError:
    syscall = libc.syscall
    swap = lambda: syscall(316, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
count = 0
def stop(*_):
    sys.stdout.write("swaps %d\\n" % count)
    sys.stdout.flush()
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
if swap() != 0:
    sys.stdout.write("failed %d\\n" % ctypes.get_errno())
    sys.stdout.flush()
    os._exit(1)
count = 1
sys.stdout.write("ready\\n")
sys.stdout.flush()
while True:
    swap()
    count += 1
`;

export const OUTSIDE_TEXT = 'SECRET from OUTSIDE the workspace';
export const INSIDE_TEXT = 'SECRET from inside the workspace';
const EDIT_TEXT = 'edit me\n';
/** A name only the outside directory holds: seeing it in a listing is an escape. */
export const OUTSIDE_ONLY_NAME = 'outside-only.txt';

export interface RaceArena {
  base: string;
  workspace: string;
  outside: string;
  context(mode: 'read' | 'write'): ToolContext;
  cleanup(): Promise<void>;
}

export async function createRaceArena(): Promise<RaceArena> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'quiver-race-')));
  const workspace = path.join(base, 'workspace');
  const outside = path.join(base, 'outside', 'd');
  await mkdir(path.join(workspace, 'd'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(workspace, 'd', 'secret.txt'), `${INSIDE_TEXT}\n`);
  await writeFile(path.join(outside, 'secret.txt'), `${OUTSIDE_TEXT}\n`);
  await writeFile(path.join(outside, OUTSIDE_ONLY_NAME), 'only outside\n');
  await writeFile(path.join(workspace, 'd', 'edit.txt'), EDIT_TEXT);
  await writeFile(path.join(outside, 'edit.txt'), EDIT_TEXT);
  await symlink(outside, path.join(workspace, 'l'));
  const session = memorySession();
  return {
    base,
    workspace,
    outside,
    context: (mode) => ({
      callId: 'race',
      sessionId: 'race',
      personalityId: 'race',
      agent: { kind: 'main', id: 'race' },
      turn: 0,
      signal: new AbortController().signal,
      emit: () => undefined,
      budget: 80_000,
      dryRun: false,
      capabilities: { fs_reach: { roots: [workspace], mode } },
      attachments: [],
      session,
    }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

function memorySession(): SessionState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}

export interface Swapper {
  stop(): Promise<number>;
}

/** Starts exchanging `workspace/d` and `workspace/l`; resolves once the first exchange worked. */
export function startSwapper(arena: RaceArena, python = 'python3'): Promise<Swapper> {
  const child: ChildProcessWithoutNullStreams = spawn(
    python,
    ['-c', SWAPPER, path.join(arena.workspace, 'd'), path.join(arena.workspace, 'l')],
    { stdio: 'pipe' },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('ready')) {
        clearInterval(check);
        resolve({
          async stop() {
            child.kill('SIGTERM');
            await exited;
            return Number(/swaps (\d+)/.exec(output)?.[1] ?? 0);
          },
        });
      } else if (output.includes('failed') || child.exitCode !== null) {
        clearInterval(check);
        reject(new Error(`the swapper could not exchange the directories: ${output.trim()}`));
      }
    }, 5);
  });
}

export interface RaceTally {
  name: string;
  attempts: number;
  /** Attempts that completed inside the workspace. */
  succeeded: number;
  /** Attempts refused (moved while opened, outside the workspace, missing). */
  refused: number;
  /** Attempts that read, listed or wrote the outside directory. */
  escapes: number;
}

/** One attempt: resolves true when it reached the outside directory. */
export type RaceAttempt = (index: number) => Promise<{ escaped: boolean; succeeded: boolean }>;

export async function runAttempts(name: string, attempts: number, attempt: RaceAttempt): Promise<RaceTally> {
  const tally: RaceTally = { name, attempts, succeeded: 0, refused: 0, escapes: 0 };
  for (let index = 0; index < attempts; index += 1) {
    const outcome = await attempt(index);
    if (outcome.escaped) tally.escapes += 1;
    else if (outcome.succeeded) tally.succeeded += 1;
    else tally.refused += 1;
  }
  return tally;
}

async function run(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) throw new Error(parsed.error.message);
  return tool.execute(parsed.data, ctx);
}

async function outsideHas(arena: RaceArena, name: string): Promise<boolean> {
  return (await readdir(arena.outside)).includes(name);
}

/** True when the outside copy of `edit.txt` was changed (then put back, for the next attempt). */
async function outsideEdited(arena: RaceArena): Promise<boolean> {
  const file = path.join(arena.outside, 'edit.txt');
  if ((await readFile(file, 'utf8')) === EDIT_TEXT) return false;
  await writeFile(file, EDIT_TEXT);
  return true;
}

/** The attempts the harness makes with the real tools. */
export function toolAttempts(
  arena: RaceArena,
  tools: {
    readFile: Tool;
    writeFile: Tool;
    editFile: Tool;
    applyPatch: Tool;
    listDir: Tool;
    fileSearch: Tool;
    grepSearch: Tool;
  },
): Record<string, RaceAttempt> {
  const read = arena.context('read');
  const write = arena.context('write');
  const shown = (result: ToolResult) => (result.ok ? result.value : '');
  return {
    read_file: async () => {
      const result = await run(tools.readFile, { path: 'd/secret.txt' }, read);
      return { escaped: shown(result).includes(OUTSIDE_TEXT), succeeded: result.ok };
    },
    write_file: async (index) => {
      const name = `written-${index}.txt`;
      const result = await run(tools.writeFile, { path: `d/${name}`, content: 'x\n' }, write);
      return { escaped: await outsideHas(arena, name), succeeded: result.ok };
    },
    edit_file: async () => {
      const result = await run(
        tools.editFile,
        { path: 'd/edit.txt', old_string: 'edit me', new_string: 'edit me!' },
        write,
      );
      return { escaped: await outsideEdited(arena), succeeded: result.ok };
    },
    apply_patch: async (index) => {
      const name = `patched-${index}.txt`;
      const patch = ['*** Begin Patch', `*** Add File: d/${name}`, '+x', '*** End Patch'].join('\n');
      const result = await run(tools.applyPatch, { patch }, write);
      return { escaped: await outsideHas(arena, name), succeeded: result.ok };
    },
    file_search: async () => {
      const result = await run(tools.fileSearch, { pattern: '*.txt', path: 'd' }, read);
      return { escaped: shown(result).includes(OUTSIDE_ONLY_NAME), succeeded: result.ok };
    },
    list_dir: async () => {
      const result = await run(tools.listDir, { path: 'd' }, read);
      return { escaped: shown(result).includes(OUTSIDE_ONLY_NAME), succeeded: result.ok };
    },
    grep_search: async () => {
      const result = await run(tools.grepSearch, { pattern: 'SECRET', path: 'd' }, read);
      return { escaped: shown(result).includes('OUTSIDE'), succeeded: result.ok };
    },
  };
}

/** The control: check the name with the same resolver, then open it by name, as the tools once did. */
export function controlAttempts(arena: RaceArena): Record<string, RaceAttempt> {
  // As a tool does between its check and its open (a permission decision, a hook), the control
  // yields to the event loop once: the window a busy machine still lets the swapper hit.
  const check = async (relative: string) => {
    const resolved = resolvePathArgument(relative, arena.workspace);
    const inside = resolved.ok && resolved.path.startsWith(`${arena.workspace}/`) ? resolved.path : undefined;
    await new Promise((resolve) => setImmediate(resolve));
    return inside;
  };
  return {
    'read by name': async () => {
      const target = await check('d/secret.txt');
      if (target === undefined) return { escaped: false, succeeded: false };
      const text = await readFile(target, 'utf8').catch(() => '');
      return { escaped: text.includes(OUTSIDE_TEXT), succeeded: text !== '' };
    },
    'write by name': async (index) => {
      const name = `control-${index}.txt`;
      const target = await check(`d/${name}`);
      if (target === undefined) return { escaped: false, succeeded: false };
      const written = await writeFile(target, 'x\n').then(
        () => true,
        () => false,
      );
      return { escaped: await outsideHas(arena, name), succeeded: written };
    },
  };
}
