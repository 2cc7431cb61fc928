import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, readSync } from 'node:fs';
import { isatty } from 'node:tty';
import { clearProcessEnvironment } from './clear-process-environment.js';
import { isKeptInProcessEnvironment, processEnvironment } from './minimal-environment.js';

/** Set in the re-executed process: the descriptor its full environment arrives on. */
export const HANDOFF_VARIABLE = 'QUIVER_ENVIRONMENT_FD';
const HANDOFF_FD = 3;
/** Commands that run tools, and so children that could read the environment of their ancestors. */
const TOOL_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['serve', 'call']);
const LAUNCHER_CHECK_MS = 250;
const SETPRIV_PATH = '/usr/bin/setpriv';

let received: Readonly<Record<string, string>> | undefined;

/**
 * The environment Quiver was started with. In a re-executed process it is the copy received
 * over the hand-off pipe, held only in memory; elsewhere it is process.env. Secrets and the
 * environment allowlists of child processes read this, never process.env.
 */
export function launchEnvironment(): Readonly<Record<string, string | undefined>> {
  return received ?? process.env;
}

export type LaunchRole =
  | { role: 'run' }
  | { role: 'launcher'; exited: Promise<number> }
  | { role: 'failed'; message: string };

function waitBriefly(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readHandoff(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let count: number;
    try {
      count = readSync(fd, buffer);
    } catch (error) {
      // A non-blocking descriptor has nothing yet: the launcher is still writing.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        waitBriefly(2);
        continue;
      }
      throw error;
    }
    if (count === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function receiveEnvironment(): LaunchRole {
  delete process.env[HANDOFF_VARIABLE];
  let text: string;
  try {
    text = readHandoff(HANDOFF_FD);
    closeSync(HANDOFF_FD);
  } catch (error) {
    return {
      role: 'failed',
      message: `${HANDOFF_VARIABLE} is set, but no environment arrived on descriptor ${HANDOFF_FD} (${(error as Error).message}); unset ${HANDOFF_VARIABLE}: Quiver sets it itself`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null)
    return {
      role: 'failed',
      message: `what arrived on descriptor ${HANDOFF_FD} is not an environment; unset ${HANDOFF_VARIABLE}: Quiver sets it itself`,
    };
  received = Object.freeze(
    Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    ),
  );
  watchLauncher();
  return { role: 'run' };
}

/**
 * To whoever started it, the launcher and this process are one program: when the launcher is
 * killed outright, this process goes the same way (setpriv's parent-death signal does it at
 * once; this check is for systems without setpriv).
 */
function watchLauncher(): void {
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid !== launcher) process.kill(process.pid, 'SIGKILL');
  }, LAUNCHER_CHECK_MS).unref();
}

function forwardSignals(child: ChildProcess): void {
  // From a terminal, Ctrl-C reaches the whole foreground group, child included; forwarding it
  // too would be a second interrupt, which ends a shutting-down `serve` before it cleans up.
  const fromTerminal = isatty(0);
  const forwarded: NodeJS.Signals[] = fromTerminal ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of forwarded) process.on(signal, () => child.kill(signal));
  if (fromTerminal) process.on('SIGINT', () => undefined);
}

function relaunch(): LaunchRole {
  const full: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) full[name] = value;
  try {
    clearProcessEnvironment(isKeptInProcessEnvironment);
  } catch (error) {
    return {
      role: 'failed',
      message: `cannot keep secrets out of this process's environment (${(error as Error).message}); start Quiver with only the variables it needs, e.g. env -i PATH="$PATH" HOME="$HOME" quiver …`,
    };
  }
  const command = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const [file, ...args] = existsSync(SETPRIV_PATH)
    ? [SETPRIV_PATH, '--pdeathsig', 'KILL', ...command]
    : command;
  const child = spawn(file as string, args, {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...processEnvironment(full), [HANDOFF_VARIABLE]: String(HANDOFF_FD) },
  });
  const pipe = child.stdio[HANDOFF_FD] as NodeJS.WritableStream | null;
  pipe?.on('error', () => undefined);
  pipe?.end(JSON.stringify(full));
  forwardSignals(child);
  const exited = new Promise<number>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`quiver: could not start: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      if (signal) {
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
      }
      resolve(code ?? 1);
    });
  });
  return { role: 'launcher', exited };
}

/**
 * Decides how this process starts. `serve` and `call` re-execute themselves with the minimal
 * environment of minimal-environment.ts and receive the full one over a pipe, so neither
 * `/proc/<pid>/environ` of the process running tools nor that of its launcher shows a secret.
 * Only Linux exposes the environment this way to the commands Quiver runs; elsewhere this is a
 * no-op.
 */
export function startWithoutSecrets(argv: readonly string[]): LaunchRole {
  if (process.env[HANDOFF_VARIABLE] !== undefined) return receiveEnvironment();
  if (process.platform !== 'linux') return { role: 'run' };
  if (!argv.slice(2).some((argument) => TOOL_RUNNING_COMMANDS.has(argument))) return { role: 'run' };
  return relaunch();
}
