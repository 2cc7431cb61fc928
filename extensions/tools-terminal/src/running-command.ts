import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { allocatedTerminalsDirectory, recordAllocatedTerminal } from './allocated-terminals.js';
import { BASH_FLAGS } from './bash-flags.js';
import { killRun, RUN_MARKER_VARIABLE, type RunIdentity } from './process-tree.js';
import {
  type FoundTerminal,
  findRunTerminal,
  PTY_GATE_FD,
  ptyProgram,
  resizeTerminal,
  type TerminalSize,
} from './pty.js';
import { BUBBLEWRAP_PATH, bubblewrapArguments } from './sandbox.js';
import { findWorkspaceHazards } from './sandbox-mounts.js';
import { sandboxTempDir } from './sandbox-temp-dir.js';

const PIPE_CLOSE_GRACE_MS = 2_000;
/** Waits for a line on descriptor 3, closes it and becomes the real command; exits 125 if Quiver went away. */
const START_GATE = 'IFS= read -r _ <&3 || exit 125; exec 3<&-; exec "$0" "$@"';
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Identities (`socket:[inode]`) of the child's own stdout and stderr. Node connects them with
 * socket pairs, whose two ends differ, so they are read from the child right after spawn, before
 * it can have exited.
 */
function outputIdentities(pid: number | undefined): string[] {
  if (pid === undefined) return [];
  const identities: string[] = [];
  for (const fd of [1, 2]) {
    try {
      identities.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // Already gone, or no /proc: the other searches still apply.
    }
  }
  return identities;
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The child's output pipes as /proc names them. Right after spawn() the child may not have
 * installed its pipes yet (it still shows this process's stdout), so wait until it has:
 * recording the wrong identity would let a daemon holding the real pipe escape the kill.
 */
async function childOutputIdentities(pid: number | undefined): Promise<string[]> {
  const own = new Set(outputIdentities(process.pid));
  for (let attempt = 0; attempt < 100; attempt++) {
    const identities = outputIdentities(pid);
    // None readable yet can mean mid-exec as well as gone: only a finished child ends the wait.
    if (identities.length === 0 ? !isAlive(pid) : !identities.some((identity) => own.has(identity)))
      return identities;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return outputIdentities(pid).filter((identity) => !own.has(identity));
}

export interface StartCommandOptions {
  command: string;
  /** A real path inside one of `roots`. */
  cwd: string;
  roots: readonly string[];
  env: Readonly<Record<string, string>>;
  sandboxed: boolean;
  /** Unix sockets the sandbox leaves reachable. */
  unixSockets?: readonly string[];
  /** Mounted read-only inside the sandbox (`ProcessHandle.readOnlyPaths`). */
  readOnlyPaths?: readonly string[];
  /** Hidden inside the sandbox (`ProcessHandle.hiddenPaths`). */
  hiddenPaths?: readonly string[];
  /** `pipe` keeps stdin open for background shells; one-shot commands get none. */
  stdin: 'ignore' | 'pipe';
  /** Run the command on a new pseudo-terminal of this size (stdin must be `pipe`). */
  pty?: TerminalSize;
  /** Where allocated terminals are listed (`allocatedTerminalsDirectory()` by default). */
  terminalsDirectory?: string;
  /** stdout and stderr, interleaved in arrival order. */
  onOutput(chunk: Buffer): void;
}

export interface CommandExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  /** Set when the process could not be started at all. */
  spawnError?: string;
}

/**
 * One command in its own process group. `exited` settles only after the command ended, every
 * process it left behind was killed and its output was read to the end.
 */
export class RunningCommand {
  readonly exited: Promise<CommandExit>;
  private stopping: Promise<void> | undefined;
  private finished = false;
  private terminal: FoundTerminal | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly run: RunIdentity,
    startedAt: number,
    tempDir: string | undefined,
    identified: Promise<void>,
    private readonly forgetTerminal?: () => void,
  ) {
    this.exited = new Promise<CommandExit>((resolve) => {
      let spawnError: string | undefined;
      const streamsClosed = Promise.all(
        [child.stdout, child.stderr].map((stream) =>
          stream ? new Promise((done) => stream.once('close', done)) : undefined,
        ),
      );
      const settle = async (exitCode: number | null, signal: NodeJS.Signals | null) => {
        await identified;
        if (run.pid > 0) await killRun(run);
        // A process that escaped every search (a clean-environment daemon) may hold the pipes open; do not wait for it forever.
        const closedInTime = await Promise.race([
          streamsClosed.then(() => true),
          delay(PIPE_CLOSE_GRACE_MS).then(() => false),
        ]);
        if (!closedInTime) {
          // Someone still holds the output: a process that was between fork and exec during the
          // first search is visible now. Search once more before giving up on the pipes.
          if (run.pid > 0) await killRun(run);
          child.stdout?.destroy();
          child.stderr?.destroy();
        }
        this.finished = true;
        this.forgetTerminal?.();
        if (tempDir) await rm(tempDir, { recursive: true, force: true });
        const exit: CommandExit = { exitCode, signal, durationMs: Date.now() - startedAt };
        if (spawnError !== undefined) exit.spawnError = spawnError;
        resolve(exit);
      };
      child.once('error', (error) => {
        spawnError = error.message;
        if (child.pid === undefined) void settle(null, null);
      });
      child.once('exit', (exitCode, signal) => void settle(exitCode, signal));
    });
  }

  static async start(options: StartCommandOptions): Promise<RunningCommand> {
    const marker = randomUUID();
    const tempDir = options.sandboxed ? await sandboxTempDir() : undefined;
    const env: Record<string, string> = { ...options.env, [RUN_MARKER_VARIABLE]: marker };
    if (tempDir) env.TMPDIR = tempDir;
    const terminalsDirectory = options.terminalsDirectory ?? allocatedTerminalsDirectory();
    let program = ['bash', ...BASH_FLAGS, '-c', options.command];
    if (options.pty) {
      program = ptyProgram(options.command, options.pty, env.SHELL);
      // `script` runs its -c string with $SHELL; the gate on the terminal puts the person's back.
      env.SHELL = '/bin/sh';
      mkdirSync(terminalsDirectory, { recursive: true, mode: 0o700 });
    }
    const [file, args] = tempDir
      ? [
          BUBBLEWRAP_PATH,
          bubblewrapArguments({
            roots: options.roots,
            tempDir,
            cwd: options.cwd,
            command: options.command,
            program,
            hazards: findWorkspaceHazards(options.roots, options.readOnlyPaths ?? []),
            hiddenPaths: options.hiddenPaths ?? [],
            allowedSockets: options.unixSockets ?? [],
            ...(options.pty ? { readableDirectories: [terminalsDirectory] } : {}),
          }),
        ]
      : [program[0] as string, program.slice(1)];
    const startedAt = Date.now();
    // The gate holds the command until its output pipes are identified (a quick command could
    // exit first, and a daemon it left holding them would go unrecognised), then execs it in
    // place: same pid, same process group, same arguments.
    const child = spawn('/bin/sh', ['-c', START_GATE, file, ...args], {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: [
        options.pty ? 'pipe' : options.stdin,
        'pipe',
        'pipe',
        'pipe',
        ...(options.pty ? ['pipe' as const] : []),
      ],
    });
    const gate = child.stdio[3] as Writable | null;
    gate?.on('error', () => undefined);
    const terminalGate = options.pty ? (child.stdio[PTY_GATE_FD] as Writable | null) : null;
    terminalGate?.on('error', () => undefined);
    child.stdout?.on('data', (chunk: Buffer) => options.onOutput(chunk));
    child.stderr?.on('data', (chunk: Buffer) => options.onOutput(chunk));
    // A closed stdin (the command exited or ignores input) must not crash the host.
    child.stdin?.on('error', () => undefined);
    const run: RunIdentity = { pid: child.pid ?? -1, marker, pipes: [] };
    let exited = false;
    let forget: (() => void) | undefined;
    const identified = childOutputIdentities(child.pid).then(async (pipes) => {
      run.pipes = pipes;
      gate?.end('\n');
      if (!terminalGate) return;
      // The command waits on the terminal until the terminal is in the list of Quiver's own.
      const terminal = await findRunTerminal(run, () => exited);
      // Never found (the run failed to start it): the gate reads end-of-file and the command does not run.
      if (!terminal) return void terminalGate.destroy();
      // A sandbox's /dev/pts is a devpts instance of its own: every terminal in it is Quiver's,
      // including any the command allocates itself.
      forget = recordAllocatedTerminal(
        tempDir ? { device: terminal.device } : { device: terminal.device, inode: terminal.inode },
        terminalsDirectory,
      );
      command.terminal = terminal;
      terminalGate.end('\n');
    });
    child.once('exit', () => {
      exited = true;
    });
    // Constructed before any await so that no exit event of a quick command is missed.
    const command: RunningCommand = new RunningCommand(child, run, startedAt, tempDir, identified, () =>
      forget?.(),
    );
    await identified;
    return command;
  }

  /** Whether the command runs on a pseudo-terminal. */
  get onTerminal(): boolean {
    return this.terminal !== undefined;
  }

  /** Sets the size of the command's pseudo-terminal; false when it has none or it is gone. */
  async resize(size: TerminalSize): Promise<boolean> {
    if (!this.terminal || this.finished) return false;
    const current = await findRunTerminal(this.run, () => this.finished, 1_000, this.terminal);
    return current ? resizeTerminal(current, size) : false;
  }

  get pid(): number {
    return this.run.pid;
  }

  get running(): boolean {
    return !this.finished;
  }

  /** Kills the whole process group and every descendant; resolves when the command has exited. */
  async stop(): Promise<CommandExit> {
    if (this.run.pid > 0 && !this.finished) this.stopping ??= killRun(this.run);
    await this.stopping;
    return this.exited;
  }

  write(text: string): boolean {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return false;
    stdin.write(text);
    return true;
  }

  endInput(): void {
    this.child.stdin?.end();
  }
}
