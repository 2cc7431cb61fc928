import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { terminalIdentity } from './allocated-terminals.js';
import { BASH_FLAGS } from './bash-flags.js';
import { findRunProcesses, type RunIdentity } from './process-tree.js';

/** util-linux `script`: it allocates the pseudo-terminal and relays between it and our pipes. */
export const SCRIPT_PATH = '/usr/bin/script';
export const PTY_GATE_FD = 4;

export interface TerminalSize {
  cols: number;
  rows: number;
}

export const DEFAULT_TERMINAL_SIZE: TerminalSize = { cols: 120, rows: 40 };

export function ptyAvailable(): boolean {
  return existsSync(SCRIPT_PATH);
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs on the new terminal before the command: waits until Quiver has recorded the terminal in
 * its list (so the command can never ask anything on an unlisted terminal), sets its size, puts
 * back the SHELL that `script` was given in place of the person's, and becomes the command.
 */
const TERMINAL_GATE = `IFS= read -r _ <&${PTY_GATE_FD} || exit 125; exec ${PTY_GATE_FD}<&-; stty cols "$1" rows "$2" 2>/dev/null; if [ -n "$3" ]; then SHELL=$3; export SHELL; else unset SHELL; fi; shift 3; exec "$@"`;

/**
 * The program that runs `command` on a new pseudo-terminal: `script` in quiet mode, flushing
 * every write, returning the command's exit code and keeping no typescript file.
 */
export function ptyProgram(command: string, size: TerminalSize, shell: string | undefined): string[] {
  const inner = ['/bin/sh', '-c', TERMINAL_GATE, 'sh', String(size.cols), String(size.rows), shell ?? '']
    .concat(['bash', ...BASH_FLAGS, '-c', command])
    .map(quote)
    .join(' ');
  return [SCRIPT_PATH, '-q', '-f', '-e', '-c', `exec ${inner}`, '/dev/null'];
}

/** Unix98 pseudo-terminal slaves have majors 136 to 143. */
function isTerminalSlave(rdev: number): boolean {
  const major = (rdev >> 8) & 0xfff;
  return major >= 136 && major <= 143;
}

export interface FoundTerminal {
  /** A process with the terminal open as `fd`: `/proc/<pid>/fd/<fd>` reaches it from outside a sandbox. */
  pid: number;
  fd: number;
  device: number;
  inode: number;
}

/** Waits for the run's process that sits on the new terminal; undefined if the run ended first. */
export async function findRunTerminal(
  run: RunIdentity,
  ended: () => boolean,
  timeoutMs = 10_000,
  same?: FoundTerminal,
): Promise<FoundTerminal | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (!ended() && Date.now() < deadline) {
    const candidates = same ? [same.pid, ...findRunProcesses(run)] : findRunProcesses(run);
    for (const pid of candidates) {
      // Any of the standard descriptors: a shell waiting on a redirected `read` has moved its stdin aside.
      for (const fd of [0, 1, 2]) {
        const identity = terminalIdentity(`/proc/${pid}/fd/${fd}`);
        if (!identity || !isTerminalSlave(identity.rdev)) continue;
        if (same && (identity.device !== same.device || identity.inode !== same.inode)) continue;
        return { pid, fd, device: identity.device, inode: identity.inode };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return undefined;
}

/** Sets the terminal's size; the kernel sends SIGWINCH to the program in its foreground. */
export function resizeTerminal(terminal: FoundTerminal, size: TerminalSize): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(
      'stty',
      ['-F', `/proc/${terminal.pid}/fd/${terminal.fd}`, 'cols', String(size.cols), 'rows', String(size.rows)],
      { stdio: 'ignore' },
    );
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
